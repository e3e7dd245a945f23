/**
 * Working on a large document (a result near the 16 MiB output cap) without stalling the
 * event loop: between a verb's stages and inside each long one, every few milliseconds of
 * work, the loop gets a turn. Small documents never yield, so a small ADD keeps its cost.
 */

/** How long a slice works before it yields to the event loop. */
const sliceMs = 20;

/** True for a document large enough to be handled in slices: 1 MiB and more. */
export function isLargeDocument(bytes: number): boolean {
  return bytes >= 1024 * 1024;
}

/** Resolves on the next turn of the event loop, after pending I/O and timers. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Yields when `bytes` is a large document's length; resolves at once otherwise. */
export async function yieldIfLarge(bytes: number): Promise<void> {
  if (isLargeDocument(bytes)) await yieldToEventLoop();
}

/** One long piece of work cut in slices: `pauseIfDue` yields once a slice's time is spent. */
export class Slices {
  private sliceStart = performance.now();

  /** Yields to the event loop when the current slice has worked its time. */
  async pauseIfDue(): Promise<void> {
    if (performance.now() - this.sliceStart < sliceMs) return;
    await yieldToEventLoop();
    this.sliceStart = performance.now();
  }
}
