/**
 * Polling for kernel state that settles on its own time (IPv6 duplicate address detection),
 * with libcni/testing's eventually underneath; the scenarios keep their boolean probes.
 */
import { EventuallyError, eventually as retry } from "../../../src/testing/index.js";

/** Thrown by an attempt whose probe said "not yet". */
class NotYet extends Error {}

/**
 * Calls `probe` every `intervalMs` until it returns true or `timeoutMs` passes; returns the
 * last answer. A probe that keeps throwing fails with its own error.
 */
export async function eventually(
  probe: () => Promise<boolean>,
  timeoutMs = 5_000,
  intervalMs = 200,
): Promise<boolean> {
  try {
    await retry(
      async () => {
        if (!(await probe())) throw new NotYet("not yet");
      },
      { timeoutMs, intervalMs },
    );
    return true;
  } catch (error) {
    if (!(error instanceof EventuallyError)) throw error;
    if (error.cause instanceof NotYet) return false;
    throw error.cause;
  }
}
