/**
 * One bounded run of an executable outside a verb, for the callers that are not RawExec:
 * `execInNetns` (any program, in a namespace) and the conformance checker (a plugin, every
 * `CNI_*` variable under its control). Both take an env object, a per-run time limit and the
 * caller's AbortSignal, and both say whether the run timed out; this builds their
 * {@link runPlugin} call once, so "timed out" means one thing for both, as it does for
 * PluginAbortedError: a time limit stopped the run (this call's `timeoutMs`, or a caller's
 * signal that aborted with a `TimeoutError`, as `AbortSignal.timeout()` does), not any abort.
 */

import { PluginEnv, type PluginStarter } from "../engines/plugin-start.js";
import { assertDuration } from "../errors/base.js";
import { isTimeoutReason } from "../errors/invoke.js";
import { defaultGraceMs, defaultMaxOutputBytes } from "./raw-exec.js";
import { type RunOutcome, runPlugin } from "./run-plugin.js";

/** What {@link callPlugin} runs with. */
export interface PluginCallOptions {
  /** The whole environment (nothing is inherited). */
  env: NodeJS.ProcessEnv;
  /** Bytes, or text as UTF-8, for its stdin. Default: none (stdin closed at once). */
  stdin?: Uint8Array | string | undefined;
  /** The caller's signal: aborting stops the run's process group. */
  signal?: AbortSignal | undefined;
  /** Stops the run after this many milliseconds (at most 2147483647). Default: no limit. */
  timeoutMs?: number | undefined;
  /** Milliseconds between SIGTERM and SIGKILL (at most 2147483647). Default RawExec's `defaultGraceMs`. */
  graceMs?: number | undefined;
  /** The most bytes kept of each of stdout and stderr. Default RawExec's `defaultMaxOutputBytes`. */
  maxOutputBytes?: number | undefined;
  /** What starts the process (the caller's choice of launcher). */
  launcher: PluginStarter;
  /** The arguments after the path. */
  args?: readonly string[] | undefined;
  /** The network namespace to start it in (a path); this process's by default. */
  netns?: string | undefined;
}

/** How a {@link callPlugin} run ended: the run's outcome, and whether a time limit ended it. */
export interface PluginCallOutcome extends RunOutcome {
  /**
   * True when a time limit stopped the run: `timeoutMs`, or the caller's signal aborting with
   * a `TimeoutError`. A caller's other abort is `aborted` alone.
   */
  timedOut: boolean;
}

/**
 * Runs `path` once, bounded. Every way the run ends is in the outcome; it rejects only for a
 * limit no timer can hold, before anything starts: its callers check their own options first,
 * and this is the last line against a limit that would otherwise fire at once (a run reported
 * as timed out in its first millisecond).
 * @throws InvalidArgumentError for a `timeoutMs` or `graceMs` that is not an integer from 0 to
 *   2147483647.
 */
export async function callPlugin(
  path: string,
  options: PluginCallOptions,
): Promise<PluginCallOutcome> {
  assertDuration("timeoutMs", options.timeoutMs);
  assertDuration("graceMs", options.graceMs);
  const limit =
    options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const signals = [options.signal, limit].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
  const outcome = await runPlugin(path, {
    env: PluginEnv.ofObject(options.env),
    stdin:
      typeof options.stdin === "string"
        ? new TextEncoder().encode(options.stdin)
        : (options.stdin ?? new Uint8Array()),
    signal,
    graceMs: options.graceMs ?? defaultGraceMs,
    maxOutputBytes: options.maxOutputBytes ?? defaultMaxOutputBytes,
    launcher: options.launcher,
    args: options.args,
    netns: options.netns,
  });
  // AbortSignal.any takes the reason of the first signal that fired.
  return { ...outcome, timedOut: outcome.aborted && isTimeoutReason(signal?.reason) };
}
