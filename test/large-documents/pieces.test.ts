// Output written from pieces (large results): the bytes of the joined text, encoded as
// utf8Encode encodes it, and the marker found exactly once or not used at all.
import { describe, expect, it } from "vitest";
import { EncodedJSON, marshal } from "../../src/encoding/json.js";
import { utf8Encode } from "../../src/internal/bytes.js";
import { encodeAroundPieces, piecesToBytes } from "../../src/large-documents/pieces.js";

describe("piecesToBytes", () => {
  it("writes the UTF-8 of the joined pieces, a lone surrogate as U+FFFD like utf8Encode", () => {
    const pieces = ["{", '"a":"\u00fc\u4e16"', ",", '"b":"\ud83d\ude00\ud800"', "}", ""];
    expect(Buffer.compare(piecesToBytes(pieces), utf8Encode(pieces.join("")))).toBe(0);
  });
});

describe("encodeAroundPieces", () => {
  const pieces = ['{"cniVersion":"1.0.0",', '"routes":[', '{"dst":"10.0.0.0/8"}', "]}"];

  it("puts the pieces where the encoder wrote the placeholder", () => {
    const encode = (placeholder: EncodedJSON): string =>
      marshal({ name: "n", prevResult: placeholder, type: "t" });
    const bytes = encodeAroundPieces(encode, pieces);
    const want = marshal({ name: "n", prevResult: new EncodedJSON(pieces.join("")), type: "t" });
    expect(bytes && Buffer.from(bytes).toString()).toBe(want);
  });

  it("is undefined when the encoder does not write the marker exactly once", () => {
    expect(encodeAroundPieces(() => "{}", pieces)).toBeUndefined();
    const twice = (p: EncodedJSON): string => marshal([p, p]);
    expect(encodeAroundPieces(twice, pieces)).toBeUndefined();
  });
});
