/**
 * Running a program inside a network namespace, for tools and tests (Go's `ns.WithNetNSPath`
 * around an exec, or `ip netns exec`), bounded as a plugin run is (invoke/plugin-call.ts).
 */

import { access, constants, stat } from "node:fs/promises";
import { pluginStarter, selectLauncher } from "../engines/plugin-start.js";
import { assertOptions } from "../errors/base.js";
import { NetnsError } from "../errors/netns.js";
import { errnoCode, errnoText } from "../internal/errno.js";
import { MAX_TIMER_MS } from "../internal/timer-limit.js";
import { findInPath } from "../invoke/find.js";
import { callPlugin } from "../invoke/plugin-call.js";
import { isNetns } from "./check.js";
import { mechanismOf, type NetnsMechanism } from "./mechanism.js";
import { absoluteNetnsPath, netnsErrorOf } from "./path.js";

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
  /**
   * The most bytes kept of each of stdout and stderr (default 16 MiB, RawExec's
   * `defaultMaxOutputBytes`). A program that writes more is stopped as on a timeout (its process
   * group SIGTERMed, then SIGKILLed after a grace) and the result's `truncated` names the stream.
   */
  maxOutputBytes?: number;
  /** Default "auto": the spawner helper when it runs here, else `nsenter` ("direct"). */
  mechanism?: NetnsMechanism;
}

/** How the program ended. */
export interface ExecInNetnsResult {
  /** Its exit code, when it exited. */
  exitCode: number | undefined;
  /** The signal that ended it, when one did. */
  signal: string | undefined;
  /**
   * True when a time limit stopped it: `timeoutMs`, or the caller's `signal` aborting with a
   * `TimeoutError` (`AbortSignal.timeout()`), as PluginAbortedError's `timedOut`.
   */
  timedOut: boolean;
  /** True when `timeoutMs` or the caller's `signal` stopped it (any abort, a timeout included). */
  aborted: boolean;
  /** Its stdout, as UTF-8 text. */
  stdout: string;
  /** Its stderr, as UTF-8 text. */
  stderr: string;
  /**
   * The stream that went past `maxOutputBytes`, if one did: its text stops at the cap (the
   * rest was discarded) and the program was stopped for it (`signal` says how).
   */
  truncated: "stdout" | "stderr" | undefined;
}

/** The program's path: as given when it has a `/`, else looked up in PATH as a shell would. */
async function programPath(program: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (program.includes("/")) return program;
  const dirs = (env.PATH ?? process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin").split(":");
  return findInPath(program, dirs.filter(Boolean));
}

function badArgument(nsPath: string, text: string): NetnsError {
  return new NetnsError(`exec in ${nsPath}: ${text}`, "failed", nsPath);
}

function checkCount(nsPath: string, name: string, value: number | undefined, max: number): void {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0 && value <= max)) {
    throw badArgument(nsPath, `option ${name} must be an integer from 0 to ${max}, got ${value}`);
  }
}

/**
 * A NetnsError for a program that could not be started (the namespace was entered): the
 * program's own error, never a hint about CAP_SYS_ADMIN, which it is not about.
 */
function startFailure(
  program: string,
  path: string,
  nsPath: string,
  error: NodeJS.ErrnoException,
): NetnsError {
  const errno = errnoCode(error);
  const text =
    errno === "EACCES"
      ? `${path}: permission denied: not executable (no execute permission, not a regular file, or on a noexec mount)`
      : `${path}: ${errnoText(errno, typeof error.errno === "number" ? -error.errno : undefined)}`;
  return new NetnsError(
    `exec ${program} in ${nsPath}: ${text}`,
    errno === "ENOENT" ? "missing" : "failed",
    nsPath,
    { cause: error, errno },
  );
}

/**
 * The start error the program would meet, told before `nsenter` runs it (nsenter would only
 * exit 126 or 127 for it, as the program itself could): it is not executable, or missing.
 */
export async function executableError(path: string): Promise<NodeJS.ErrnoException | undefined> {
  try {
    if (!(await stat(path)).isFile()) {
      return Object.assign(new Error(`spawn ${path} EACCES`), { code: "EACCES", path });
    }
    await access(path, constants.X_OK);
    return undefined;
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

/**
 * Runs `argv` (the program, then its arguments) inside the network namespace at `netnsPath`
 * and resolves to how it ended; a non-zero exit is a result, not an error, and so is output
 * past `maxOutputBytes` (`truncated`).
 * @throws NetnsError `not-a-netns` when the path is not a live network namespace; `missing`
 *   when the program is not found; `permission` when entering the namespace is refused (no
 *   CAP_SYS_ADMIN); `failed` when the program cannot start (`errno` EACCES: it is not
 *   executable), when the run fails (the spawner helper died: its error is the `cause`), or for
 *   a bad argument.
 */
export async function execInNetns(
  netnsPath: string,
  argv: readonly string[],
  options: ExecInNetnsOptions = {},
): Promise<ExecInNetnsResult> {
  assertOptions(options);
  const nsPath = absoluteNetnsPath(netnsPath);
  if (!Array.isArray(argv)) throw badArgument(nsPath, "argv must be an array of strings");
  if (argv.some((arg) => typeof arg !== "string" || arg.includes("\0"))) {
    throw badArgument(nsPath, "an argument holds a NUL byte");
  }
  // The longest a Node timer waits (a longer one fires at once): the library's one rule.
  checkCount(nsPath, "timeoutMs", options.timeoutMs, MAX_TIMER_MS);
  checkCount(nsPath, "maxOutputBytes", options.maxOutputBytes, Number.MAX_SAFE_INTEGER);
  const mechanism = mechanismOf(options.mechanism, "exec in", nsPath);
  const launcher = pluginStarter(selectLauncher(mechanism));
  if (!(await isNetns(nsPath))) {
    throw new NetnsError(`exec in ${nsPath}: not a network namespace`, "not-a-netns", nsPath);
  }
  const [program, ...args] = argv;
  if (program === undefined) throw badArgument(nsPath, "no program given");
  const env = options.env ?? process.env;
  const path = await programPath(program, env).catch((error: unknown) => {
    const missing = Object.assign(error as Error, { code: "ENOENT" });
    throw netnsErrorOf(`exec ${program} in`, nsPath, missing);
  });
  const unrunnable = await executableError(path);
  if (unrunnable !== undefined) throw startFailure(program, path, nsPath, unrunnable);
  const outcome = await callPlugin(path, {
    env,
    stdin: options.stdin,
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxOutputBytes,
    launcher,
    args,
    netns: nsPath,
  });
  const failed = (text: string, cause: unknown) =>
    new NetnsError(`exec ${program} in ${nsPath}: ${text}`, "failed", nsPath, { cause });
  const start = outcome.startError as (NodeJS.ErrnoException & { netnsCode?: string }) | undefined;
  if (start?.netnsCode !== undefined) {
    // Entering the namespace failed (the helper says so apart from the program's start).
    const error = Object.assign(new Error(start.message), { code: start.netnsCode });
    throw netnsErrorOf("enter", nsPath, error);
  }
  if (start?.path === "nsenter") throw failed(`nsenter (util-linux): ${start.message}`, start);
  if (start !== undefined) {
    // An errno of the program's start; anything else (the helper gone before it started) is
    // the run's failure.
    if (typeof start.code === "string") throw startFailure(program, path, nsPath, start);
    throw failed(start.message, start);
  }
  if (outcome.error !== undefined) {
    // The run started and then failed (the helper died under it): how it ended is unknown.
    const { error } = outcome;
    throw failed(error instanceof Error ? error.message : String(error), error);
  }
  const text = new TextDecoder();
  return {
    exitCode: outcome.exitCode,
    signal: outcome.signal,
    timedOut: outcome.timedOut,
    aborted: outcome.aborted,
    stdout: text.decode(outcome.stdout),
    stderr: text.decode(outcome.stderr),
    truncated: outcome.overflow,
  };
}
