/**
 * Yielding to the event loop between the stages of a verb that handles a large document (a
 * result near the 16 MiB output cap): each stage (parse, decode, encode) then runs in its own
 * macrotask, so timers and I/O of the rest of the process run in between. Small documents do
 * not yield, so a small ADD keeps its cost.
 */

/** From this many bytes a document is large enough to yield between stages (1 MiB). */
export const largeDocumentBytes = 1024 * 1024;

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
