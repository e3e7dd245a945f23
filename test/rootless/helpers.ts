/**
 * The rootless tier (`npm run test:rootless`, vitest.rootless.config.mjs): run by a user who is
 * not root, it makes its sandboxes through the documented step, `cnitool rootless -- …` (the
 * built cnitool) or `runRootless`, and checks what they give and what they leave. It fails,
 * never skips, as root (it would prove nothing about a user) or where the kernel refuses user
 * namespaces.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The repository. */
export const repo = fileURLToPath(new URL("../../", import.meta.url));

/** The built cnitool (`npm run build`). */
export const cnitool = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

/** vitest's command line script, to run a test runner inside a sandbox as a user would. */
export const vitestBin = fileURLToPath(
  new URL("../../node_modules/vitest/vitest.mjs", import.meta.url),
);

/** Throws unless this process is a user who is not root: the tier proves what such a user gets. */
export function requireNonRoot(): void {
  if (process.getuid?.() === 0) {
    throw new Error(
      "the rootless tier runs as a user who is not root (CI: runuser -u lcnici -- npm run test:rootless); as root it would prove nothing",
    );
  }
}

/** This process's environment without vitest's own variables (a nested run starts afresh). */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(VITEST|TEST$|NODE_ENV$)/.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** How a command ended. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; a non-zero exit is a result. */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      file,
      args,
      {
        cwd: options.cwd ?? repo,
        env: options.env ?? cleanEnv(),
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? 0,
        killSignal: "SIGKILL",
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : (error as { code?: unknown }).code;
        if (typeof code !== "number") {
          reject(Object.assign(error ?? new Error("no exit status"), { stdout, stderr }));
          return;
        }
        resolve({ code, stdout, stderr });
      },
    );
    // A command that exits without reading its stdin closes the pipe first: not an error.
    child.stdin?.on("error", () => {});
    child.stdin?.end(options.input ?? "");
  });
}

/** `cnitool rootless -- <argv>`, as a user types it. */
export function rootless(
  argv: readonly string[],
  options: Parameters<typeof run>[2] = {},
): Promise<Ran> {
  return run(process.execPath, [cnitool, "rootless", "--", ...argv], options);
}
