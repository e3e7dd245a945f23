/** Polling for kernel state that settles on its own time (IPv6 duplicate address detection). */

/** Calls `probe` every `intervalMs` until it returns true or `timeoutMs` passes; returns the last answer. */
export async function eventually(
  probe: () => Promise<boolean>,
  timeoutMs = 5_000,
  intervalMs = 200,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
