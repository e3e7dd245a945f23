/**
 * createResultForVersion and createResult at Go's nesting limit: a result with an unknown field
 * nested 10,000 deep decodes; one level more is Go's `exceeded max depth`, typed (issue 12).
 */
import { describe, expect, it } from "vitest";
import { DecodeVersionError, JSONSyntaxError } from "../../src/errors/index.js";
import { createResult, createResultForVersion } from "../../src/types/index.js";

const deep = (depth: number, inner = "1"): string =>
  `{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24"}],"x":${"[".repeat(depth - 1)}${inner}${"]".repeat(depth - 1)}}`;

describe("result decoding at depth 10,000", () => {
  it("createResultForVersion decodes a result nested 10,000 deep", () => {
    const result = createResultForVersion("1.0.0", deep(10_000));
    expect(result.version()).toBe("1.0.0");
  });

  it("createResult decodes it too", () => {
    expect(createResult(deep(10_000)).version()).toBe("1.0.0");
  });

  it("10,001 levels: Go's exceeded max depth, as a typed error", () => {
    expect(() => createResultForVersion("1.0.0", deep(10_001))).toThrow(JSONSyntaxError);
    expect(() => createResultForVersion("1.0.0", deep(10_001))).toThrow("exceeded max depth");
    expect(() => createResult(deep(10_001))).toThrow(DecodeVersionError);
  });

  it("an out-of-range number 10,000 deep is a type error, not a stack overflow", () => {
    expect(() => createResultForVersion("1.0.0", deep(10_000, "1e400"))).toThrow(
      "json: cannot unmarshal number 1e400 into Go value of type float64",
    );
  });
});
