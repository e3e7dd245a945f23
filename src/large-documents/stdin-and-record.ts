/**
 * The api side's entry to large documents (plugin-output.ts is invoke's): a long result written
 * into a plugin's stdin or a cache record in slices, as pieces (pieces.ts), never one flat
 * string; a large record read with its result's long lists kept as text (long-array.ts). The
 * bytes and values are the ones the small path gives.
 */
import { EncodedJSON } from "../encoding/json.js";
import { utf8Encode } from "../internal/bytes.js";
import { createResultFromValue, resultVersionOf } from "../types/create.js";
import type { Result } from "../types/result.js";
import { type LongArrayPath, parseKeepingLongArrays } from "./long-array.js";
import { encodeAroundPieces } from "./pieces.js";
import { decodeKeptResult, longListPaths100, resultPiecesInSlices } from "./result100.js";
import { yieldToEventLoop } from "./slices.js";

export { isLongResult } from "./result100.js";
export { isLargeDocument, yieldIfLarge } from "./slices.js";

/**
 * The bytes of a document holding the long result `result`: `encode` writes the document with
 * the JSON it is given in the result's place; the result's JSON (its map form with `asMap`) is
 * written in slices and spliced in. Undefined when the result cannot be written that way (an
 * unexpected shape): the caller encodes the document as usual.
 */
export async function encodeWithLongResult(
  result: Result,
  asMap: boolean,
  encode: (resultJSON: EncodedJSON) => string,
): Promise<Uint8Array | undefined> {
  const pieces = await resultPiecesInSlices(result, asMap);
  if (pieces === undefined) return undefined;
  return encodeAroundPieces(encode, pieces) ?? utf8Encode(encode(new EncodedJSON(pieces.join(""))));
}

/**
 * A large document holding a result under the top-level key `resultKey` (a cache record),
 * parsed with the result's long lists kept as text; undefined when it cannot be read exactly
 * that way (the caller parses it whole, for the exact outcome). Yields to the event loop after.
 */
export async function parseLargeDocument(
  bytes: Uint8Array,
  resultKey: string,
): Promise<Record<string, unknown> | undefined> {
  const paths: LongArrayPath[] = longListPaths100.map((p) => [resultKey, ...p]);
  const value = await parseKeepingLongArrays(bytes, paths);
  await yieldToEventLoop();
  return value;
}

/**
 * `createResultFromValue` of a result value `parseLargeDocument` gave (nobody else's), its long
 * lists decoded from their kept text. Yields to the event loop after.
 */
export async function resultOfLargeDocument(value: unknown): Promise<Result> {
  const result =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? await decodeKeptResult(value as Record<string, unknown>, resultVersionOf(value))
      : createResultFromValue(value);
  await yieldToEventLoop();
  return result;
}
