/**
 * One bounded run of an executable outside a verb, for the callers that are not RawExec:
 * `execInNetns` and the conformance checker. It builds their {@link runPlugin} call once, so
 * "timed out" means one thing for both, as for PluginAbortedError: a time limit stopped the run
 * (`timeoutMs`, or a caller's signal aborting with a `TimeoutError`), not any abort.
 */

import { PluginEnv, type PluginStarter } from "../engines/plugin-start.js";
import { assertOptions } from "../errors/base.js";
import { isTimeoutReason } from "../errors/invoke.js";
import { toBytes } from "../internal/bytes.js";
import { limitedSignal } from "../internal/timer-limit.js";
import { defaultGraceMs, defaultMaxOutputBytes } from "./raw-exec.js";
import { type RunOutcome, runPlugin } from "./run-plugin.js";

/** What {@link callPlugin} runs with. */
export interface PluginCallOptions {
  /** The whole environment (nothing is inherited). */
  env: NodeJS.ProcessEnv;
  /** Bytes, or text as UTF-8, for its stdin. Default: none (stdin closed at once). */
  stdin?: Uint8Array | string | undefined;
  signal?: AbortSignal | undefined;
  /** Stops the run after this many milliseconds. Default: no limit. */
  timeoutMs?: number | undefined;
  // As RunOptions' (run-plugin.ts); the two limits default to RawExec's.
  graceMs?: number | undefined;
  maxOutputBytes?: number | undefined;
  launcher: PluginStarter;
  args?: readonly string[] | undefined;
  netns?: string | undefined;
}

/** How a {@link callPlugin} run ended, and whether a time limit ended it. */
export interface PluginCallOutcome extends RunOutcome {
  timedOut: boolean;
}

/**
 * Runs `path` once, bounded. Every way the run ends is in the outcome; it rejects only for a
 * limit no timer can hold, before anything starts (its callers check their options first; this
 * is the last line against a limit that would fire at once).
 * @throws InvalidArgumentError for a `timeoutMs` or `graceMs` that is not an integer from 0 to
 *   2147483647.
 */
export async function callPlugin(
  path: string,
  options: PluginCallOptions,
): Promise<PluginCallOutcome> {
  assertOptions(options, "timeoutMs", "graceMs");
  const limit =
    options.timeoutMs === undefined ? undefined : limitedSignal(options.signal, options.timeoutMs);
  const signal = limit?.signal ?? options.signal;
  const outcome = await runPlugin(path, {
    env: PluginEnv.ofObject(options.env),
    stdin: toBytes(options.stdin ?? new Uint8Array()),
    signal,
    graceMs: options.graceMs ?? defaultGraceMs,
    maxOutputBytes: options.maxOutputBytes ?? defaultMaxOutputBytes,
    launcher: options.launcher,
    args: options.args,
    netns: options.netns,
  }).finally(() => limit?.end());
  // The limit's signal takes the reason of whichever fired first.
  return { ...outcome, timedOut: outcome.aborted && isTimeoutReason(signal?.reason) };
}
