/**
 * A per-network time limit combined with the caller's AbortSignal. The limit aborts the
 * network's plugin (CNIConfig stops its process group) and the call rejects with a
 * NetworkTimeoutError that carries what the plugin run ended with as its `cause`.
 */
import { NetworkTimeoutError } from "../errors/runtime.js";

/** Runs `fn` with a signal that aborts on `signal` or after `timeout` ms (0: no limit). */
export async function withDeadline<T>(
  network: string,
  verb: string,
  timeout: number,
  signal: AbortSignal | undefined,
  fn: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  if (!(timeout > 0)) return fn(signal);
  const limit = new AbortController();
  const timer = setTimeout(
    () => limit.abort(new NetworkTimeoutError(network, verb, timeout)),
    timeout,
  );
  const combined = signal === undefined ? limit.signal : AbortSignal.any([signal, limit.signal]);
  try {
    return await fn(combined);
  } catch (error) {
    if (limit.signal.aborted && !signal?.aborted) {
      if (error instanceof NetworkTimeoutError) throw error;
      throw new NetworkTimeoutError(network, verb, timeout, error);
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
