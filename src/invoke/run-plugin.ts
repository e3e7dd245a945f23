/**
 * One run of a plugin executable: spawn, feed stdin, collect output, and stop it when asked
 * (docs/deviations/invoke.md, "Better than upstream"). The plugin leads its own process group;
 * stopping it is SIGTERM to the group, then SIGKILL after the grace. A run is stopped only when
 * the caller's signal aborts or its output passes the cap, and then settles once no process of
 * the group runs. After a normal exit nothing is killed, as upstream (the conformance checker
 * reports what a plugin leaves), but what holds the pipes past the grace, which upstream's
 * `cmd.Run()` waits on forever; a process that left the group is beyond any group signal
 * (docs/reliability.md, "Process cleanup").
 *
 * Starts go through the {@link spawnGate} and the RawExec's launcher with nothing in between:
 * a wrapper such as execa would add its own cost per run and to the import (bench/HISTORY.md).
 */
import { setTimeout as delay } from "node:timers/promises";
import {
  type LaunchedChild,
  type PluginEnv,
  type PluginStarter,
  spawnGate,
} from "../engines/plugin-start.js";
import { asError } from "../internal/error-message.js";
import { groupHasLiveProcess, killGroup } from "../internal/process-group.js";
import { BoundedSink } from "./bounded-sink.js";

/** What {@link runPlugin} needs beyond the path. */
export interface RunOptions {
  env: PluginEnv;
  stdin: Uint8Array;
  /** Aborting stops the plugin's process group. */
  signal: AbortSignal | undefined;
  /** Milliseconds between SIGTERM and SIGKILL, and the longest wait for pipes after exit. */
  graceMs: number;
  /** The most bytes kept from each of stdout and stderr. */
  maxOutputBytes: number;
  launcher: PluginStarter;
  /** The arguments after the path (none for a plugin). */
  args?: readonly string[] | undefined;
  /** The network namespace to start the process in (a path); this process's by default. */
  netns?: string | undefined;
}

/** How a run ended. */
export interface RunOutcome {
  /** What the plugin wrote, up to the cap. */
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number | undefined;
  signal: string | undefined;
  /** The error that kept the plugin from starting (ENOENT, EACCES, ETXTBSY, ...). */
  startError: NodeJS.ErrnoException | undefined;
  /** Any other error of a run that did start (a pipe failing, say). */
  error: unknown;
  /** True when the caller's signal fired during the run (or while it waited to start). */
  aborted: boolean;
  /** The stream that went past the output cap, if one did. */
  overflow: "stdout" | "stderr" | undefined;
}

// Once everything was SIGKILLed, a pipe still open is held by a process outside the group.
const afterKillSettleMs = 100;
const pollMs = 50;
// How long (in polls) a call waits for its SIGKILLed group to be gone: a bound, not a policy.
const maxPollsAfterKill = 40;

/** The outcome of a run that never started: aborted while queued, or refused by the OS. */
function notStarted(aborted: boolean, startError?: NodeJS.ErrnoException): RunOutcome {
  return {
    stdout: new Uint8Array(),
    stderr: new Uint8Array(),
    exitCode: undefined,
    signal: undefined,
    startError,
    error: undefined,
    aborted,
    overflow: undefined,
  };
}

/**
 * Runs the plugin once. Never rejects: every way it can end is described in the outcome.
 * The start waits for its turn at the {@link spawnGate}; aborting while it waits means the
 * plugin is never started (Go's `exec.CommandContext` does not start one for a done context).
 */
export function runPlugin(pluginPath: string, options: RunOptions): Promise<RunOutcome> {
  const { signal } = options;
  if (signal?.aborted) return Promise.resolve(notStarted(true));
  return new Promise((resolve) => {
    const onQueuedAbort = (): void => {
      signal?.removeEventListener("abort", onQueuedAbort);
      if (cancel()) resolve(notStarted(true));
    };
    const cancel = spawnGate.enqueue(() => {
      signal?.removeEventListener("abort", onQueuedAbort);
      resolve(start(pluginPath, options));
    });
    signal?.addEventListener("abort", onQueuedAbort);
  });
}

/** Spawns the plugin and wires everything in the same tick, before any event can be missed. */
function start(pluginPath: string, options: RunOptions): Promise<RunOutcome> {
  let launched: LaunchedChild | Promise<LaunchedChild>;
  try {
    launched = options.launcher.start(pluginPath, options.env, {
      stdin: options.stdin,
      maxOutputBytes: options.maxOutputBytes,
      args: options.args,
      netns: options.netns,
      signal: options.signal,
    });
  } catch (error) {
    // Node throws at once for start errors it does not expect at run time (ETXTBSY, ENOTDIR,
    // ENOEXEC...), and reports ENOENT or EACCES as an "error" event on the next tick instead.
    return Promise.resolve(notStarted(false, asError(error)));
  }
  // The spawner helper answers later, with the child started (or the start's errno).
  if (launched instanceof Promise) {
    return launched.then(
      (child) => supervise(child, options),
      // Aborted while the launcher queued it (the helper's slots all taken): never started.
      (error: unknown) =>
        options.signal?.aborted ? notStarted(true) : notStarted(false, asError(error)),
    );
  }
  return supervise(launched, options);
}

interface End {
  exitCode: number | undefined;
  signal: string | undefined;
  startError: NodeJS.ErrnoException | undefined;
}

// An async function runs synchronously up to its first await: every listener below is in place
// in the tick of the spawn.
async function supervise(child: LaunchedChild, options: RunOptions): Promise<RunOutcome> {
  const { signal, graceMs } = options;
  const pid = child.pid;
  let runError: unknown;

  const ended = new Promise<End>((resolve) => {
    child.on("error", (error) => {
      // Without a pid the process never started; any later error is kept for the record.
      if (child.pid === undefined)
        resolve({ exitCode: undefined, signal: undefined, startError: error });
      else runError ??= error;
    });
    child.once("close", (code: number | null, sig: NodeJS.Signals | null) => {
      resolve({ exitCode: code ?? undefined, signal: sig ?? undefined, startError: undefined });
    });
  });

  // A plugin may exit without reading its stdin: the write then fails with EPIPE, which Go's
  // exec ignores (skipStdinCopyError) and so does this. Any other failure is recorded.
  child.stdin?.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") runError ??= error;
  });
  child.stdin?.end(options.stdin);

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
    child.stdin?.destroy();
    child.stdout?.destroy();
    child.stderr?.destroy();
  };

  // Once the plugin is reaped its pid may be another process's: killGroup then spares that one.
  let exited = false;
  const terminate = (): void => {
    if (terminating || pid === undefined) return;
    terminating = true;
    killGroup(pid, "SIGTERM", exited);
    timers.push(
      setTimeout(() => {
        killed = true;
        killGroup(pid, "SIGKILL", exited);
        timers.push(setTimeout(closePipes, afterKillSettleMs));
      }, graceMs),
    );
  };

  for (const name of ["stdout", "stderr"] as const) {
    const stream = child[name];
    stream?.on("data", (chunk: Uint8Array) => {
      if (!sinks[name].push(chunk) && overflow === undefined) {
        overflow = name;
        terminate();
      }
    });
    stream?.on("error", (error: Error) => {
      runError ??= error;
    });
  }

  const onAbort = (): void => {
    aborted = true;
    terminate();
  };
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) onAbort();

  // A grandchild may hold the pipes after the plugin exited: after the grace, what is left of
  // the group is SIGKILLed and the pipes closed from this side. When the pipes close first,
  // this timer is cleared: what the plugin left without its pipes is not the call's to end.
  let lingered = false;
  child.once("exit", () => {
    exited = true;
    if (terminating || pid === undefined) return;
    timers.push(
      setTimeout(() => {
        if (terminating) return;
        lingered = true;
        killGroup(pid, "SIGKILL", true);
        timers.push(setTimeout(closePipes, afterKillSettleMs));
      }, graceMs),
    );
  });

  try {
    const end = await ended;
    if (end.startError !== undefined) return notStarted(aborted, end.startError);
    if (terminating && pid !== undefined) {
      // The plugin is gone but what it forked may not be: wait for the group to empty, up to
      // the SIGKILL, so that no process of this run outlives the call.
      while (!killed && (await groupHasLiveProcess(pid, exited))) await delay(pollMs);
    }
    if ((lingered || killed) && pid !== undefined) {
      // SIGKILL cannot be ignored, but the kernel takes a moment to end a process (longer in
      // uninterruptible sleep): wait for the group to be gone, within a bound.
      for (let i = 0; i < maxPollsAfterKill && (await groupHasLiveProcess(pid, exited)); i++) {
        await delay(pollMs);
      }
    }
    return {
      stdout: sinks.stdout.bytes(),
      stderr: sinks.stderr.bytes(),
      exitCode: end.exitCode,
      signal: end.signal,
      startError: undefined,
      error: runError,
      aborted,
      overflow,
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
    for (const timer of timers) clearTimeout(timer);
  }
}
