/**
 * Running a program inside a network namespace, for tools and tests (Go's `ns.WithNetNSPath`
 * around an exec, or `ip netns exec`): the spawner helper enters the namespace and starts the
 * program there, so this process never forks; the direct spawn goes through `nsenter --net=`.
 * Every run is bounded as a plugin run is: its process group stopped on abort or timeout,
 * SIGTERM then SIGKILL, output capped.
 */

import { NetnsError } from "../errors.js";
import { findInPath } from "../invoke/find.js";
import { PluginEnv } from "../invoke/plugin-env.js";
import { defaultGraceMs, defaultMaxOutputBytes } from "../invoke/raw-exec.js";
import { runPlugin } from "../invoke/run-plugin.js";
import { pluginStarter } from "../invoke/spawner/launcher.js";
import { selectLauncher } from "../invoke/spawner/select.js";
import { isNetns } from "./check.js";
import { absoluteNetnsPath, netnsErrorOf } from "./path.js";
import type { NetnsMechanism } from "./pin.js";

/** Options of {@link execInNetns}. */
export interface ExecInNetnsOptions {
  /** The program's environment. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** Bytes (or text) for its stdin. Default: none (stdin closed at once). */
  stdin?: Uint8Array | string;
  /** Aborting stops the program (its process group). */
  signal?: AbortSignal;
  /** Stops the program after this many milliseconds (`timedOut` says so). */
  timeoutMs?: number;
  /** The most bytes kept of each of stdout and stderr. Default: RawExec's `defaultMaxOutputBytes`. */
  maxOutputBytes?: number;
  /** Default "auto": the spawner helper when it runs here, else `nsenter`. */
  mechanism?: NetnsMechanism;
}

/** How the program ended. */
export interface ExecInNetnsResult {
  /** Its exit code, when it exited. */
  exitCode: number | undefined;
  /** The signal that ended it, when one did. */
  signal: string | undefined;
  /** True when `timeoutMs` (or the caller's signal) stopped it. */
  timedOut: boolean;
  /** Its stdout, as UTF-8 text. */
  stdout: string;
  /** Its stderr, as UTF-8 text. */
  stderr: string;
}

/** The program's path: as given when it has a `/`, else looked up in PATH as a shell would. */
async function programPath(program: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (program.includes("/")) return program;
  const dirs = (env.PATH ?? process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin").split(":");
  return findInPath(
    program,
    dirs.filter((d) => d !== ""),
  );
}

function launcherOf(mechanism: NetnsMechanism = "auto") {
  return pluginStarter(
    selectLauncher(
      mechanism === "helper" ? "spawner" : mechanism === "commands" ? "direct" : "auto",
    ),
  );
}

/**
 * Runs `argv` (the program, then its arguments) inside the network namespace at `netnsPath`
 * and resolves to how it ended; a non-zero exit is a result, not an error.
 * @throws NetnsError `not-a-netns` when the path is not a live network namespace; `missing`
 *   when the program is not found; `permission` when entering is refused; `failed` when it
 *   cannot start.
 */
export async function execInNetns(
  netnsPath: string,
  argv: readonly string[],
  options: ExecInNetnsOptions = {},
): Promise<ExecInNetnsResult> {
  const nsPath = absoluteNetnsPath(netnsPath);
  if (argv.some((arg) => typeof arg !== "string" || arg.includes("\0"))) {
    throw new NetnsError(`exec in ${nsPath}: an argument holds a NUL byte`, "failed", nsPath);
  }
  if (!(await isNetns(nsPath))) {
    throw new NetnsError(`exec in ${nsPath}: not a network namespace`, "not-a-netns", nsPath);
  }
  const [program, ...args] = argv;
  if (program === undefined)
    throw new NetnsError(`exec in ${nsPath}: no program given`, "failed", nsPath);
  const env = options.env ?? process.env;
  let path: string;
  try {
    path = await programPath(program, env);
  } catch (error) {
    throw netnsErrorOf(
      `exec ${program} in`,
      nsPath,
      Object.assign(error as Error, { code: "ENOENT" }),
    );
  }
  const timeout =
    options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const stdin =
    typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : (options.stdin ?? new Uint8Array());
  const outcome = await runPlugin(path, {
    env: PluginEnv.ofObject(env),
    stdin,
    signal,
    graceMs: defaultGraceMs,
    maxOutputBytes: options.maxOutputBytes ?? defaultMaxOutputBytes,
    launcher: launcherOf(options.mechanism),
    args,
    netns: nsPath,
  });
  const start = outcome.startError as (NodeJS.ErrnoException & { netnsCode?: string }) | undefined;
  if (start?.netnsCode !== undefined) {
    // Entering the namespace failed (the helper says so apart from the program's start).
    throw netnsErrorOf(
      "enter",
      nsPath,
      Object.assign(new Error(start.message), { code: start.netnsCode }),
    );
  }
  if (start !== undefined && start.path === "nsenter") {
    throw new NetnsError(
      `exec ${program} in ${nsPath}: nsenter (util-linux): ${start.message}`,
      "failed",
      nsPath,
      {
        cause: start,
      },
    );
  }
  if (start !== undefined) throw netnsErrorOf(`exec ${program} in`, nsPath, start);
  const text = new TextDecoder();
  return {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.aborted,
    stdout: text.decode(outcome.stdout),
    stderr: text.decode(outcome.stderr),
  };
}
