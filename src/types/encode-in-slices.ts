/**
 * What a verb hands the encoder for a large result (the cache record, the next plugin's
 * `prevResult`): its JSON text written beforehand in slices that yield to the event loop, in a
 * stand-in the encoder embeds as is. The bytes are those the encoder writes for the result
 * itself; a small result, or one of another version, is returned unchanged.
 */
import { goJSONText } from "../internal/go-json-text.js";
import { lazyListMinLength, pendingList } from "./lazy-list.js";
import type { Result } from "./result.js";
import { Result100 } from "./v100.js";
import { result100TextInSlices } from "./v100-text.js";

function isLong(r: Result100): boolean {
  // The lazy list is checked first: reading `routes` would decode it.
  return (
    pendingList(r, "routes") !== undefined ||
    pendingList(r, "interfaces") !== undefined ||
    r.routes.length >= lazyListMinLength ||
    r.interfaces.length >= lazyListMinLength
  );
}

/** The value to encode in `result`'s place: `result`, or its text prepared in slices. */
export async function encodableInSlices(result: Result): Promise<Result> {
  if (!(result instanceof Result100) || !isLong(result)) return result;
  const text = await result100TextInSlices(result, false);
  if (text === undefined) return result;
  // Only the encoder sees the stand-in (a Result100's text is also its map form).
  return { [goJSONText]: () => text } as unknown as Result;
}
