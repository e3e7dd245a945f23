/** Running a plugin executable and turning its failure into an error (upstream RawExec). */

import { setTimeout as delay } from "node:timers/promises";
import {
  envObject,
  type Launcher,
  type LauncherName,
  PluginEnv,
  type PluginStarter,
  pluginStarter,
  selectLauncher,
} from "../engines/plugin-start.js";
import {
  assertDuration,
  assertOptions,
  assertSpelled,
  InvalidArgumentError,
} from "../errors/base.js";
import { isTimeoutReason, PluginAbortedError, PluginExecError } from "../errors/invoke.js";
import { ExecTrace, execTraced } from "../internal/diagnostics.js";
import { errnoText } from "../internal/errno.js";
import { attempt, messageOf } from "../internal/error-message.js";
import { abortText, exitStatusText, signalText, startErrorText } from "../internal/exec-text.js";
import { paced } from "../internal/pacer.js";
import {
  normalizeTraceContext,
  type TraceContext,
  withTraceEnv,
} from "../internal/trace-context.js";
import { ErrIOFailure, ErrUnknown } from "../types/error-codes.js";
import { findInPath } from "./find.js";
import { netnsOption } from "./netns-option.js";
import { pluginErr } from "./plugin-error.js";
import { type RunOutcome, runPlugin } from "./run-plugin.js";

/** Where a successful plugin's stderr goes: anything with a `write` method, as process.stderr. */
export interface StderrSink {
  write(chunk: Uint8Array): unknown;
}

/** Options of {@link RawExec}. */
export interface RawExecOptions {
  /**
   * Receives the stderr of a plugin that succeeded (a failed plugin's stderr is in the error).
   * Default: `process.stderr`; `null` discards it.
   */
  stderr?: StderrSink | null;
  /**
   * Milliseconds between SIGTERM and SIGKILL when a run is stopped. Default 3000; at most
   * 2147483647 (the longest a Node timer waits: a longer value is refused).
   */
  graceMs?: number;
  /** The most bytes read from each of stdout and stderr before the plugin is stopped. Default 16 MiB. */
  maxOutputBytes?: number;
  /** How many times a start failing with "text file busy" is retried. Default 5, as upstream. */
  textBusyRetries?: number;
  /** Milliseconds between those retries. Default 1000, as upstream; at most 2147483647. */
  textBusyDelayMs?: number;
  /**
   * What starts plugin processes: `"auto"` (default: the posix_spawn helper on Linux when it
   * runs, else the direct spawn), `"spawner"` (the helper, or fail), `"direct"` (Node's
   * `child_process.spawn`), or a {@link Launcher}, each with the same exec semantics;
   * `LIBCNI_LAUNCHER` sets the default.
   */
  launcher?: LauncherName | Launcher;
  /**
   * The network namespace (a path, e.g. `/run/netns/host1`) plugins run in, rather than this
   * process's (docs/netns.md): the spawner helper enters it before the plugin starts, the direct
   * spawn goes through `nsenter --net=`. Needs CAP_SYS_ADMIN.
   */
  netns?: string;
}

/** The per-call options every exec takes: an AbortSignal in place of Go's context. */
export interface ExecOptions {
  /** Aborting stops the plugin (its whole process group) and rejects the call. */
  signal?: AbortSignal | undefined;
  /**
   * W3C trace context passed to the plugin as TRACEPARENT, TRACESTATE and BAGGAGE (upstream
   * main's injectTraceContext); dropped whole when the traceparent is malformed.
   */
  traceContext?: TraceContext | undefined;
}

/** The default grace between SIGTERM and SIGKILL. */
export const defaultGraceMs = 3000;
/** The default cap on each of a plugin's stdout and stderr. */
export const defaultMaxOutputBytes = 16 * 1024 * 1024;

/**
 * What stopped the run, appended to upstream's text: Go says only `signal: terminated` or
 * `context canceled`, which does not tell a caller that its own signal fired.
 */
function abortSuffix(signal: AbortSignal): string {
  return isTimeoutReason(signal.reason)
    ? " (timed out)"
    : ` (aborted: ${messageOf(signal.reason)})`;
}

function abortError(
  pluginPath: string,
  signal: AbortSignal,
  outcome?: RunOutcome,
): PluginAbortedError {
  return new PluginAbortedError(
    ErrUnknown,
    `netplugin failed with no error message: ${outcome === undefined ? abortText(signal) : runText(outcome, signal)}${abortSuffix(signal)}`,
    "",
    {
      pluginPath,
      exitCode: outcome?.exitCode,
      signal: outcome?.signal,
      stdout: outcome?.stdout ?? new Uint8Array(),
      stderr: outcome?.stderr ?? new Uint8Array(),
      cause: signal.reason,
    },
  );
}

/** Go's err.Error() for how a started run ended. */
function runText(outcome: RunOutcome, signal: AbortSignal | undefined): string {
  if (outcome.signal !== undefined) return signalText(outcome.signal);
  if (outcome.exitCode !== undefined && outcome.exitCode !== 0) {
    return exitStatusText(outcome.exitCode);
  }
  // Exited 0 although stopped: Go reports the context's error then.
  if (signal !== undefined) return abortText(signal);
  if (outcome.exitCode === 0) return exitStatusText(0);
  // Neither an exit nor a signal: an I/O failure of the run itself.
  return outcome.error instanceof Error ? outcome.error.message : "plugin run failed";
}

// A bad option would otherwise surface later as a confusing timer or buffer behaviour.
function count(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    const message = `RawExec option ${name} must be a non-negative integer, got ${value}`;
    throw new InvalidArgumentError(name, message);
  }
  return value;
}

/** A RawExec option that becomes a timer: a count, and no longer than a timer waits. */
function duration(name: string, value: number): number {
  assertDuration(name, value, { subject: `RawExec option ${name}` });
  return value;
}

/**
 * A run's environment: the call's list as it is (an env object is made only for a launcher
 * that takes one, plugin-env.ts), or with trace context, an object of it with the trace
 * variables added; `undefined` is this process's environment.
 */
function pluginEnv(env: string[] | undefined, traceContext: TraceContext | undefined): PluginEnv {
  if (traceContext === undefined) {
    return env === undefined ? PluginEnv.ofObject(process.env) : PluginEnv.ofList(env);
  }
  const traced = withTraceEnv(env === undefined ? undefined : envObject(env), traceContext);
  return PluginEnv.ofObject(traced ?? process.env);
}

/**
 * Runs plugin executables from disk: the config on stdin, the CNI_* environment, stdout back.
 * Beyond upstream (capped output, group-wide abort, "text file busy" retries that end in an
 * error, a {@link PluginExecError} with the whole story): docs/deviations/invoke.md.
 */
export class RawExec {
  /** Where a successful plugin's stderr is copied; null discards it. */
  readonly stderr: StderrSink | null;
  /** Milliseconds between SIGTERM and SIGKILL. */
  readonly graceMs: number;
  /** The cap on each of stdout and stderr. */
  readonly maxOutputBytes: number;
  /** Retries of a start failing with "text file busy". */
  readonly textBusyRetries: number;
  /** Milliseconds between those retries. */
  readonly textBusyDelayMs: number;
  /** What starts plugin processes. */
  readonly launcher: Launcher;
  /** The network namespace plugins run in; undefined: this process's. */
  readonly netns: string | undefined;
  // The launcher as runs start it: a custom one wrapped once, here.
  private readonly starter: PluginStarter;

  /**
   * @throws InvalidArgumentError for a negative or non-integer option, or a duration (`graceMs`,
   *   `textBusyDelayMs`) longer than a timer holds.
   */
  constructor(options: RawExecOptions = {}) {
    const keys = ["stderr", "graceMs", "maxOutputBytes", "textBusyRetries", "textBusyDelayMs"];
    assertOptions(options);
    assertSpelled(options, [...keys, "launcher", "netns"], "options");
    this.stderr = options.stderr === undefined ? process.stderr : options.stderr;
    this.graceMs = duration("graceMs", options.graceMs ?? defaultGraceMs);
    this.maxOutputBytes = count("maxOutputBytes", options.maxOutputBytes ?? defaultMaxOutputBytes);
    this.textBusyRetries = count("textBusyRetries", options.textBusyRetries ?? 5);
    this.textBusyDelayMs = duration("textBusyDelayMs", options.textBusyDelayMs ?? 1000);
    this.launcher = selectLauncher(options.launcher);
    this.starter = pluginStarter(this.launcher);
    this.netns = netnsOption(options.netns);
  }

  /**
   * Runs the plugin at `pluginPath` with `stdin` and `env` (`undefined`: this process's
   * environment) and resolves to its stdout. Rejects with a {@link PluginExecError} when it
   * cannot start, exits non-zero, dies by a signal, floods its output or is aborted.
   */
  async execPlugin(
    pluginPath: string,
    stdin: Uint8Array,
    env: string[] | undefined,
    options: ExecOptions = {},
  ): Promise<Uint8Array> {
    assertOptions(options);
    const { signal } = options;
    // Caught here, before a run is queued: a wrong one would fail that run's listeners later.
    if (!(stdin instanceof Uint8Array))
      throw new InvalidArgumentError("stdin", "stdin must be a Uint8Array");
    if (signal !== undefined && !(signal instanceof AbortSignal))
      throw new InvalidArgumentError("signal", "signal must be an AbortSignal");
    // Diagnostics (libcni:exec, NODE_DEBUG): src/internal/diagnostics.ts; none without a subscriber.
    const traceContext = normalizeTraceContext(options.traceContext);
    // The start's own synchronous work (its environment) is a paced step like the stdin's:
    // a burst of calls spreads it over turns instead of holding the caller's turn.
    const runEnv = await paced(() => pluginEnv(env, traceContext));
    if (!execTraced()) return this.run(pluginPath, stdin, runEnv, signal, undefined);
    const trace = new ExecTrace(pluginPath, runEnv.object(), traceContext, stdin);
    return trace.run(() => this.run(pluginPath, stdin, runEnv, signal, trace), signal);
  }

  private async run(
    pluginPath: string,
    stdin: Uint8Array,
    env: PluginEnv,
    signal: AbortSignal | undefined,
    trace: ExecTrace | undefined,
  ): Promise<Uint8Array> {
    for (let tries = 0; ; tries++) {
      if (signal?.aborted) throw abortError(pluginPath, signal);
      const outcome = await runPlugin(pluginPath, {
        env,
        stdin,
        signal,
        graceMs: this.graceMs,
        maxOutputBytes: this.maxOutputBytes,
        launcher: this.starter,
        netns: this.netns,
      });
      trace?.ended(outcome);
      const busy = outcome.startError?.code === "ETXTBSY";
      // The plugin file is being written (an upgrade in progress): wait for the writer to finish.
      if (busy && tries < this.textBusyRetries) {
        const waited = await delay(this.textBusyDelayMs, true, { signal }).catch(() => false);
        if (!waited && signal !== undefined) throw abortError(pluginPath, signal);
        continue;
      }
      return this.finish(pluginPath, outcome, signal);
    }
  }

  private finish(
    pluginPath: string,
    outcome: RunOutcome,
    signal: AbortSignal | undefined,
  ): Uint8Array {
    const { stdout, stderr } = outcome;
    if (outcome.startError !== undefined) {
      const error = outcome.startError;
      throw pluginErr({
        pluginPath,
        stdout,
        stderr,
        // An errno of the start, or the spawner helper that could not run or enter the run's
        // namespace (no code), or nsenter missing for the direct spawn into a namespace.
        reason:
          error.code === undefined
            ? `fork/exec ${pluginPath}: ${error.message}`
            : this.netns !== undefined && error.path === "nsenter"
              ? `fork/exec ${pluginPath}: enter network namespace ${this.netns}: nsenter (util-linux): ${errnoText(error.code, error.errno)}`
              : startErrorText(pluginPath, error.code, error.errno),
        cause: error,
      });
    }
    if (outcome.aborted && signal !== undefined) throw abortError(pluginPath, signal, outcome);
    const info = { pluginPath, exitCode: outcome.exitCode, signal: outcome.signal, stdout, stderr };
    if (outcome.overflow !== undefined) {
      const message = `netplugin failed: its ${outcome.overflow} exceeded the ${this.maxOutputBytes}-byte limit and it was stopped: ${runText(outcome, undefined)}`;
      throw new PluginExecError(ErrIOFailure, message, "", info);
    }
    if (outcome.signal !== undefined || outcome.exitCode !== 0) {
      throw pluginErr({ ...info, reason: runText(outcome, undefined), cause: outcome.error });
    }
    // Upstream copies a successful plugin's stderr to the caller; it is only informational (a
    // broken sink must not fail a plugin that succeeded).
    const sink = this.stderr;
    if (sink !== null && stderr.length > 0) attempt(() => sink.write(stderr));
    return stdout;
  }

  /** Upstream's FindInPath, so that a RawExec serves as the lookup half of an Exec too. */
  findInPath(plugin: string, paths: readonly string[]): Promise<string> {
    return findInPath(plugin, paths);
  }
}
