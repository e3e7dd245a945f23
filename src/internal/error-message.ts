/**
 * The message of any thrown value, as Go's `err.Error()`. Never throws: a call may reject with
 * anything a custom Exec threw (a null-prototype object does not print), and wrapping or
 * describing it must not change what the caller gets.
 */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "(a value that cannot be printed)";
  }
}

/** `f()`, or undefined when it throws (for a function that never returns undefined). */
export function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

/** A thrown value as an Error: itself when it is one, else an Error with its text. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** True for the reason `AbortSignal.timeout()` aborts with (a `TimeoutError` DOMException). */
export function isTimeoutReason(reason: unknown): boolean {
  return typeof reason === "object" && (reason as Error | null)?.name === "TimeoutError";
}
