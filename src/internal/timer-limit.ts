/**
 * Durations a caller gives that become timers: the one place their range is decided. Node's
 * timers replace a delay over 2^31-1 ms by 1 ms, so a longer limit would fire at once; it is
 * refused where it enters (docs/reliability.md, "Time limits"). The guard that throws,
 * `assertDuration`, is src/errors/base.ts', beside InvalidArgumentError.
 */
/** The longest delay, in ms, a Node timer waits (2^31-1, about 24.8 days). */
export const MAX_TIMER_MS = 0x7fffffff;

function shown(value: unknown): string {
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value; // Cyclic: its kind is all the message needs.
  }
}

/**
 * What is wrong with `value` as a duration in ms (an integer from `min`, 0 or 1, to
 * {@link MAX_TIMER_MS}), in words that follow the option's name in the caller's own error;
 * undefined when nothing is.
 */
export function durationProblem(value: unknown, min: 0 | 1 = 0): string | undefined {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min) {
    return `must be a ${min === 0 ? "non-negative" : "positive"} integer, got ${shown(value)}`;
  }
  if (value > MAX_TIMER_MS) {
    return `must be at most ${MAX_TIMER_MS} ms (about 24.8 days, the longest a Node timer waits), got ${value}`;
  }
  return undefined;
}

/**
 * A signal that aborts when `signal` does (with its reason) or after `ms` (with `reason()`,
 * by default AbortSignal.timeout()'s), and `end()`, which clears the timer and the listener on
 * `signal`. Not AbortSignal.any: on Node 20 each of its signals stays listed on its sources for
 * as long as they live, and a runtime passes one shutdown signal to every call for days.
 */
export function limitedSignal(
  signal: AbortSignal | undefined,
  ms: number,
  reason = (): unknown =>
    new DOMException("The operation was aborted due to timeout", "TimeoutError"),
): { signal: AbortSignal; end(): void } {
  const limit = new AbortController();
  const forward = () => limit.abort(signal?.reason);
  const timer = setTimeout(() => limit.abort(reason()), ms);
  if (signal?.aborted) forward();
  else signal?.addEventListener("abort", forward, { once: true });
  const end = () => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", forward);
  };
  return { signal: limit.signal, end };
}
