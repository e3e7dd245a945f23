/**
 * Working on a large document (a result near the 16 MiB output cap) without stalling the
 * event loop: between the stages of a verb (parse, decode, encode) and inside each long one,
 * every few milliseconds of work, the loop gets a turn, so timers and I/O of the rest of the
 * process run in between. Small documents never yield, so a small ADD keeps its cost.
 */

/** From this many bytes a document is large enough to be handled in slices (1 MiB). */
export const largeDocumentBytes = 1024 * 1024;

/** How long a slice works before it yields to the event loop. */
const sliceMs = 20;

/** True for a document large enough to be handled in slices. */
export function isLargeDocument(bytes: number): boolean {
  return bytes >= largeDocumentBytes;
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
