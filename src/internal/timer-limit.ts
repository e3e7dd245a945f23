/**
 * Durations a caller gives that become timers (a per-call limit, a grace, a retry delay, a
 * debounce): the one place their range is decided.
 *
 * Node's timers (setTimeout, setInterval, timers/promises, AbortSignal.timeout) hold at most
 * 2^31-1 ms; a longer delay is replaced by 1 ms with only a TimeoutOverflowWarning, so a limit
 * of about 24.8 days or more would fire at once (a passing plugin reported as hung, every ADD
 * timed out). The library's one rule: such a duration is refused where it enters, with the
 * entry's own typed error naming the option and the maximum (docs/reliability.md, "Time
 * limits"). Refusing, not reading it as "no limit": a caller who wrote a limit wanted one. The
 * guard that throws it, `assertDuration`, is src/errors/base.ts', beside InvalidArgumentError.
 */
/** The longest delay, in ms, a Node timer waits (2^31-1, about 24.8 days). */
export const MAX_TIMER_MS = 0x7fffffff;

function shown(value: unknown): string {
  return typeof value === "number" ? String(value) : (JSON.stringify(value) ?? String(value));
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
