/**
 * One run of a plugin executable: spawn, feed stdin, collect output, and stop it when asked.
 *
 * The plugin is spawned detached so that it leads its own process group; stopping it means
 * SIGTERM to the group, then SIGKILL to the group once the grace period is over. The run ends
 * when the plugin's output pipes close, which a grandchild can delay forever by holding them:
 * after an abort the pipes are closed from this side once the group has been SIGKILLed, and
 * after a normal exit once the grace period has passed, so no call outlives its bounds.
 */
import { execa } from "execa";
import { BoundedSink } from "./bounded-sink.js";
import { groupHasLiveProcess, killGroup } from "./process-group.js";

/** What {@link runPlugin} needs beyond the path. */
export interface RunOptions {
  /** The environment; `undefined` inherits this process's. */
  env: Record<string, string> | undefined;
  /** Bytes for the plugin's stdin. */
  stdin: Uint8Array;
  /** Aborting stops the plugin's process group. */
  signal: AbortSignal | undefined;
  /** Milliseconds between SIGTERM and SIGKILL, and the longest wait for pipes after exit. */
  graceMs: number;
  /** The most bytes kept from each of stdout and stderr. */
  maxOutputBytes: number;
}

/** How a run ended. */
export interface RunOutcome {
  /** What the plugin wrote to stdout, up to the cap. */
  stdout: Uint8Array;
  /** What the plugin wrote to stderr, up to the cap. */
  stderr: Uint8Array;
  /** The exit code, when the plugin exited. */
  exitCode: number | undefined;
  /** The signal that ended the plugin, when one did. */
  signal: string | undefined;
  /** The error that kept the plugin from starting (ENOENT, EACCES, ETXTBSY, ...). */
  startError: NodeJS.ErrnoException | undefined;
  /** Any other error execa reported for a run that did start (a pipe failing, say). */
  error: unknown;
  /** True when the caller's signal fired during the run. */
  aborted: boolean;
  /** The stream that went past the output cap, if one did. */
  overflow: "stdout" | "stderr" | undefined;
}

// Once everything was SIGKILLed, a pipe still open is held by a process outside the group.
const afterKillSettleMs = 100;
const pollMs = 50;

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the plugin once. Never rejects: every way it can end is described in the outcome. */
export async function runPlugin(pluginPath: string, options: RunOptions): Promise<RunOutcome> {
  const { signal, graceMs } = options;
  const subprocess = execa(pluginPath, [], {
    env: options.env ?? {},
    extendEnv: options.env === undefined,
    input: options.stdin,
    buffer: false,
    encoding: "buffer",
    detached: true,
    cleanup: false,
    reject: false,
    forceKillAfterDelay: false,
    stdout: "pipe",
    stderr: "pipe",
  });
  const pid = subprocess.pid;

  const sinks = {
    stdout: new BoundedSink(options.maxOutputBytes),
    stderr: new BoundedSink(options.maxOutputBytes),
  };
  let overflow: RunOutcome["overflow"];
  let aborted = false;
  let terminating = false;
  let killed = false;
  const timers: NodeJS.Timeout[] = [];

  const closePipes = (): void => {
    subprocess.stdin?.destroy();
    subprocess.stdout?.destroy();
    subprocess.stderr?.destroy();
  };

  const terminate = (): void => {
    if (terminating || pid === undefined) return;
    terminating = true;
    killGroup(pid, "SIGTERM");
    timers.push(
      setTimeout(() => {
        killed = true;
        killGroup(pid, "SIGKILL");
        timers.push(setTimeout(closePipes, afterKillSettleMs));
      }, graceMs),
    );
  };

  for (const name of ["stdout", "stderr"] as const) {
    subprocess[name]?.on("data", (chunk: Uint8Array) => {
      if (!sinks[name].push(chunk) && overflow === undefined) {
        overflow = name;
        terminate();
      }
    });
  }

  const onAbort = (): void => {
    aborted = true;
    terminate();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();

  // A grandchild may hold the pipes after the plugin exited; give it the grace period, no more.
  subprocess.once("exit", () => {
    if (!terminating) timers.push(setTimeout(closePipes, graceMs));
  });

  try {
    const result = await subprocess;
    if (terminating && pid !== undefined) {
      // The plugin is gone but what it forked may not be: wait for the group to empty, up to
      // the SIGKILL, so that no process of this run outlives the call.
      while (!killed && (await groupHasLiveProcess(pid))) await delay(pollMs);
    }
    const startError =
      pid === undefined ? (result.cause as NodeJS.ErrnoException | undefined) : undefined;
    const error = pid === undefined ? undefined : result.cause;
    return {
      stdout: sinks.stdout.bytes(),
      stderr: sinks.stderr.bytes(),
      exitCode: result.exitCode,
      signal: result.signal,
      startError,
      error,
      aborted,
      overflow,
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    for (const timer of timers) clearTimeout(timer);
  }
}
