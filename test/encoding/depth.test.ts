/**
 * Nesting up to Go's limit (10,000 levels) encodes and decodes without touching the call
 * stack's limit; one level more is Go's own error, `invalid character '[' exceeded max depth`
 * (issue 12; text and offset as Go 1.19's scanner gives them).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goStruct, marshal, marshalAsMap, RawJSON, toGoJSON } from "../../src/encoding/json.js";
import { checkValid, parseJSON } from "../../src/encoding/parse.js";
import { JSONSyntaxError, UnmarshalTypeError } from "../../src/errors/index.js";

const arrays = (n: number, inner = "1"): string => "[".repeat(n) + inner + "]".repeat(n);
const objects = (n: number, inner = "1"): string => '{"a":'.repeat(n) + inner + "}".repeat(n);
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("depth 10,000", () => {
  it("parses arrays and objects nested 10,000 deep, and refuses 10,001 with Go's error", () => {
    for (const [make, bracket, offset] of [
      [arrays, "[", 10_001],
      [objects, "{", 50_001],
    ] as const) {
      expect(marshal(parseJSON(make(10_000)))).toBe(make(10_000));
      const error = (() => {
        try {
          parseJSON(make(10_001));
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(JSONSyntaxError);
      expect((error as Error).message).toBe(`invalid character '${bracket}' exceeded max depth`);
      expect((error as JSONSyntaxError).offset).toBe(offset);
    }
  });

  it("checkValid (the scanner) at 10,000 levels: valid, an error inside, too deep", () => {
    expect(checkValid(bytes(arrays(10_000)))).toBeUndefined();
    expect(checkValid(bytes(arrays(10_000, "x")))?.message).toBe(
      "invalid character 'x' looking for beginning of value",
    );
    expect(checkValid(bytes(`${"[".repeat(10_000)}`))?.message).toBe(
      "unexpected end of JSON input",
    );
    expect(checkValid(bytes(objects(10_000).replace('{"a":1', '{"a"1')))?.message).toBe(
      "invalid character '1' after object key",
    );
    expect(checkValid(bytes(arrays(10_001)))?.message).toBe(
      "invalid character '[' exceeded max depth",
    );
  });

  it("an out-of-range number deep inside is Go's type error, not a stack overflow", () => {
    expect(() => parseJSON(`{"x":${arrays(9_999, "1e400")}}`)).toThrow(UnmarshalTypeError);
    expect(() => parseJSON(`{"x":${arrays(9_999, "1e400")}}`)).toThrow(
      "json: cannot unmarshal number 1e400 into Go value of type float64",
    );
  });

  it("an escaped lone surrogate deep inside becomes U+FFFD, in values and keys", () => {
    const value = parseJSON(`{"x":${objects(9_998, '{"\\ud800":"\\udc00"}')}}`);
    let node = (value as Record<string, unknown>).x as Record<string, unknown>;
    for (let i = 0; i < 9_998; i++) node = node.a as Record<string, unknown>;
    expect(node).toEqual({ "\ufffd": "\ufffd" });
  });

  it("the encoder writes 10,000 levels of arrays, maps, structs and marshalers", () => {
    let value: unknown = 1;
    let expected = "1";
    for (let i = 0; i < 10_000; i++) {
      const inner = value;
      switch (i % 4) {
        case 0:
          value = [inner];
          expected = `[${expected}]`;
          break;
        case 1:
          value = { b: inner, a: true };
          expected = `{"a":true,"b":${expected}}`;
          break;
        case 2:
          value = goStruct({ b: inner, a: undefined });
          expected = `{"b":${expected}}`;
          break;
        default:
          value = { [toGoJSON]: () => new Map([["k", inner]]) };
          expected = `{"k":${expected}}`;
      }
    }
    expect(marshal(value)).toBe(expected);
    expect(marshal(parseJSON(marshal(value)))).toBe(expected);
  });

  it("a cycle deep inside is still Go's error", () => {
    const root: unknown[] = [];
    let node = root;
    for (let i = 0; i < 10_000; i++) {
      const next: unknown[] = [];
      node.push(next);
      node = next;
    }
    node.push(root);
    expect(() => marshal(root)).toThrow("json: unsupported value: encountered a cycle");
  });
});

describe("marshalAsMap", () => {
  it("equals marshal, unmarshal into interface{}, marshal again (upstream's cache record)", () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.uint8Array({ maxLength: 8 }),
    );
    const tree = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        leaf,
        fc.array(tie("node"), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie("node"), { maxKeys: 4 }),
        fc.dictionary(fc.string(), tie("node"), { maxKeys: 4 }).map((o) => goStruct(o)),
        fc.dictionary(fc.string(), tie("node"), { maxKeys: 3 }).map((o) => new RawJSON(marshal(o))),
      ),
    }));
    fc.assert(
      fc.property(tree.node, (value) => {
        expect(marshalAsMap(value)).toBe(marshal(parseJSON(marshal(value))));
      }),
      { numRuns: 500 },
    );
  });
});
