/**
 * JSON output of a large result (near the 16 MiB output cap) written as bytes from pieces of
 * text, so that no flat string of the whole document is built on the way: a V8 string join
 * copies, and a record built as result text -> record text -> bytes held three copies at once.
 */
import { EncodedJSON } from "../encoding/json.js";

/** The UTF-8 bytes of the concatenation of `pieces`, written piece by piece. */
export function piecesToBytes(pieces: readonly string[]): Uint8Array {
  let total = 0;
  for (const piece of pieces) total += Buffer.byteLength(piece, "utf8");
  const out = Buffer.allocUnsafeSlow(total);
  let at = 0;
  // Lone surrogates become U+FFFD, as utf8Encode writes them; pieces never split a pair
  // (they are cut at JSON punctuation only).
  for (const piece of pieces) at += out.write(piece, at, "utf8");
  return out;
}

/**
 * The UTF-8 bytes of `encode(placeholder)` with the JSON object `pieces` spell in the
 * placeholder's place: the encoder writes a marker object there (random, without loading
 * node:crypto), and the bytes are the text around it with the pieces between. Undefined when
 * the marker is not in the output exactly once (the caller then encodes the plain way).
 */
export function encodeAroundPieces(
  encode: (placeholder: EncodedJSON) => string,
  pieces: readonly string[],
): Uint8Array | undefined {
  const marker = `{"libcni.pieces":"${Math.random().toString(36)}${Math.random().toString(36)}"}`;
  const text = encode(new EncodedJSON(marker));
  const at = text.indexOf(marker);
  if (at < 0 || text.indexOf(marker, at + 1) >= 0) return undefined;
  return piecesToBytes([text.slice(0, at), ...pieces, text.slice(at + marker.length)]);
}
