/**
 * Waiting for state that settles on its own time (IPv6 duplicate address detection, a veth
 * going away after its namespace, a route showing up): a fixed sleep is either too long or
 * flaky, so the check is retried until it passes or a deadline.
 */
import { setTimeout as delay } from "node:timers/promises";
import { assertOptions } from "../errors/base.js";
import { EventuallyError } from "../errors/testing.js";
import { messageOf } from "../internal/error-message.js";

/** Options of {@link eventually}. */
export interface EventuallyOptions {
  /** Give up after this many milliseconds. Default 5000; at most 2147483647 (a timer's longest). */
  timeoutMs?: number;
  /** Milliseconds between attempts. Default 100; at most 2147483647. */
  intervalMs?: number;
  /** Aborting stops the retries (the last error is thrown, as at the deadline). */
  signal?: AbortSignal;
}

/**
 * Calls `fn` until it returns without throwing (an assertion inside it, e.g. `expect`, is the
 * condition) and resolves to what it returned. At least one attempt is made, and one more at
 * the deadline.
 * @throws EventuallyError when the deadline passes (or `signal` aborts) while `fn` still
 *   throws: its message says how long it waited and how many attempts ran, with the last
 *   error's message; `cause` is that error.
 * @throws InvalidArgumentError, before the first attempt, for a `timeoutMs` or `intervalMs`
 *   that is not an integer from 0 to 2147483647.
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<T> {
  assertOptions(options, "timeoutMs", "intervalMs");
  const timeoutMs = options.timeoutMs ?? 5_000;
  const intervalMs = options.intervalMs ?? 100;
  const start = Date.now();
  let attempts = 0;
  for (;;) {
    attempts += 1;
    try {
      return await fn();
    } catch (error) {
      const elapsed = Date.now() - start;
      if (elapsed >= timeoutMs || options.signal?.aborted === true) {
        const why = options.signal?.aborted === true ? "aborted" : "still failing";
        const message = `eventually: ${why} after ${elapsed} ms (${attempts} attempts): ${messageOf(error)}`;
        throw new EventuallyError(message, elapsed, attempts, error);
      }
      // The last wait ends at the deadline, so one attempt runs there.
      const wait = Math.min(intervalMs, timeoutMs - elapsed);
      await delay(wait, undefined, { signal: options.signal }).catch(() => undefined);
    }
  }
}
