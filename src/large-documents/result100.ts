/**
 * What a verb encodes for a large result (the cache record, the next plugin's `prevResult`):
 * its JSON text written beforehand in slices that yield to the event loop, as pieces the
 * output bytes are written from (encoding/pieces.ts). The bytes are those the encoder writes
 * for the result itself; a small result, or one of another version, has none (the encoder
 * writes it as usual).
 */
import { lazyListMinLength, pendingList } from "./lazy-list.js";
import type { Result } from "./result.js";
import { Result100 } from "./v100.js";
import { result100PiecesInSlices } from "./v100-text.js";

function isLong(r: Result100): boolean {
  // The lazy list is checked first: reading `routes` would decode it.
  return (
    pendingList(r, "routes") !== undefined ||
    pendingList(r, "interfaces") !== undefined ||
    pendingList(r, "ips") !== undefined ||
    r.routes.length >= lazyListMinLength ||
    r.interfaces.length >= lazyListMinLength ||
    r.ips.length >= lazyListMinLength
  );
}

/** True for a result written beforehand in slices (a 1.x result with a long list). */
export function isLongResult(result: Result): boolean {
  return result instanceof Result100 && isLong(result);
}

/**
 * The JSON of a long result as pieces (its own encoding, or with `asMap` its map form's, as
 * `marshalAsMap` writes it); undefined for any other result, or one of an unexpected shape.
 */
export async function resultPiecesInSlices(
  result: Result,
  asMap: boolean,
): Promise<string[] | undefined> {
  if (!(result instanceof Result100) || !isLong(result)) return undefined;
  return result100PiecesInSlices(result, asMap);
}
