/**
 * fixupResultVersion on plugin output nested to Go's limit: decoded (and re-encoded when the
 * version is filled in) without a stack overflow; one level more is Go's error (issue 12).
 */
import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { CNIError } from "../../src/errors/index.js";
import { fixupResultVersion } from "../../src/version/fixup-result.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const conf = enc('{"cniVersion":"1.0.0","name":"n","type":"t"}');
const nest = (n: number, inner = "1"): string => "[".repeat(n) + inner + "]".repeat(n);

describe("fixupResultVersion at depth 10,000", () => {
  it("output without a version, nested 10,000 deep, gets the config's version written in", () => {
    const fixed = fixupResultVersion(conf, enc(`{"x":${nest(9_999)}}`));
    expect(fixed.version).toBe("1.0.0");
    expect(new TextDecoder().decode(fixed.bytes)).toBe(`{"cniVersion":"1.0.0","x":${nest(9_999)}}`);
    expect(marshal(fixed.value)).toBe(`{"cniVersion":"1.0.0","x":${nest(9_999)}}`);
  });

  it("output with a version is kept as is", () => {
    const out = enc(`{"cniVersion":"0.4.0","x":${nest(9_999)}}`);
    expect(fixupResultVersion(conf, out).bytes).toBe(out);
  });

  it("10,001 levels, or 1e400 deep inside: code 6 with Go's text", () => {
    for (const [inner, depth, text] of [
      ["1", 10_000, "invalid character '[' exceeded max depth"],
      ["1e400", 9_999, "json: cannot unmarshal number 1e400 into Go value of type float64"],
    ] as const) {
      let error: unknown;
      try {
        fixupResultVersion(conf, enc(`{"x":${nest(depth, inner)}}`));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(CNIError);
      expect((error as CNIError).code).toBe(6);
      expect((error as Error).message).toBe(`failed to unmarshal raw result: ${text}`);
    }
  });
});
