/**
 * Running plugin executables for skel tests: exact stdout/stderr bytes, exit code and signal,
 * a clean environment (only what the test passes, plus PATH to find node), and no process left.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { access } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** The fixtures run from the built package; a missing build fails loudly, not mysteriously. */
export async function requireBuild(): Promise<void> {
  const entry = fileURLToPath(new URL("../../dist/skel/index.js", import.meta.url));
  try {
    await access(entry);
  } catch {
    throw new Error(`${entry} is missing: run \`npm run build\` before these tests`);
  }
}

/** What a plugin run produced. */
export interface PluginRun {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A started plugin: its process, a way to wait for stderr text, and its completion. */
export interface RunningPlugin {
  child: ChildProcess;
  /** Resolves once stderr contains `text`. */
  stderrIncludes(text: string): Promise<void>;
  done: Promise<PluginRun>;
}

/** Starts `path` with exactly `env` (plus PATH) and writes `stdin` to it. */
export function startPlugin(
  path: string,
  env: Record<string, string>,
  stdin: string | Uint8Array = "",
): RunningPlugin {
  const child = spawn(path, [], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const waiters: { text: string; resolve: () => void }[] = [];
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr?.on("data", (c: Buffer) => {
    err.push(c);
    const all = Buffer.concat(err).toString();
    for (const w of waiters.filter((w) => all.includes(w.text))) w.resolve();
  });
  child.stdin?.on("error", () => {});
  child.stdin?.end(stdin);
  const done = new Promise<PluginRun>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (exitCode, signal) =>
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      }),
    );
  });
  return {
    child,
    done,
    stderrIncludes: (text) =>
      new Promise<void>((resolve, reject) => {
        if (Buffer.concat(err).toString().includes(text)) return resolve();
        waiters.push({ text, resolve });
        done.then(
          (run) =>
            reject(new Error(`plugin exited before printing ${text}: ${JSON.stringify(run)}`)),
          reject,
        );
      }),
  };
}

/** Runs a plugin to completion. */
export function runPlugin(
  path: string,
  env: Record<string, string>,
  stdin: string | Uint8Array = "",
): Promise<PluginRun> {
  return startPlugin(path, env, stdin).done;
}

/** Kills a plugin that is still running (test cleanup) and waits for it. */
export async function reap(plugin: RunningPlugin | undefined): Promise<void> {
  if (!plugin) return;
  const { child } = plugin;
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await plugin.done.catch(() => {});
}
