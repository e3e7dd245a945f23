import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkValid, parseJSON } from "../../src/encoding/parse.js";
import { JSONSyntaxError, UnmarshalTypeError } from "../../src/errors/index.js";
import { goQuoteRune as quoteChar } from "../../src/internal/go-quote.js";

describe("parseJSON: Go's syntax error texts", () => {
  const cases: [string, string][] = [
    ["", "unexpected end of JSON input"],
    ["   ", "unexpected end of JSON input"],
    ["{", "unexpected end of JSON input"],
    ['{"a":', "unexpected end of JSON input"],
    ["tru", "invalid character ' ' in literal true (expecting 'e')"],
    ["nul", "invalid character ' ' in literal null (expecting 'l')"],
    ["-", "invalid character ' ' in numeric literal"],
    ["1.", "invalid character ' ' after decimal point in numeric literal"],
    ['"\\', "invalid character ' ' in string escape code"],
    ['"\\u12', "invalid character ' ' in \\u hexadecimal character escape"],
    ['"abc', "unexpected end of JSON input"],
    ["[1", "unexpected end of JSON input"],
    ["x", "invalid character 'x' looking for beginning of value"],
    ["[1,]", "invalid character ']' looking for beginning of value"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ["[1 2]", "invalid character '2' after array element"],
    ["{1:2}", "invalid character '1' looking for beginning of object key string"],
    ["{,}", "invalid character ',' looking for beginning of object key string"],
    ['{"a":1}x', "invalid character 'x' after top-level value"],
    ["1 2", "invalid character '2' after top-level value"],
    ['"\u0001"', "invalid character '\\x01' in string literal"],
    ['"a\nb"', "invalid character '\\n' in string literal"],
    ['"\\x"', "invalid character 'x' in string escape code"],
    ['"\\u12g4"', "invalid character 'g' in \\u hexadecimal character escape"],
    ["-a", "invalid character 'a' in numeric literal"],
    ["1.e", "invalid character 'e' after decimal point in numeric literal"],
    ["1e+", "invalid character ' ' in exponent of numeric literal"],
    ["1ex", "invalid character 'x' in exponent of numeric literal"],
    ["01", "invalid character '1' after top-level value"],
    ["trUe", "invalid character 'U' in literal true (expecting 'u')"],
    ["fals0", "invalid character '0' in literal false (expecting 'e')"],
    ["nil", "invalid character 'i' in literal null (expecting 'u')"],
    ["'a'", "invalid character '\\'' looking for beginning of value"],
    ["\ufeff{}", "invalid character 'ï' looking for beginning of value"],
  ];
  for (const [input, message] of cases) {
    it(`${JSON.stringify(input)} → ${message}`, () => {
      let thrown: unknown;
      try {
        parseJSON(input);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(JSONSyntaxError);
      expect((thrown as Error).message).toBe(message);
    });
  }

  it("limits nesting to Go's 10,000 levels", () => {
    expect(() => parseJSON(`${"[".repeat(10_001)}${"]".repeat(10_001)}`)).toThrow(
      "exceeded max depth",
    );
    expect(parseJSON(`${"[".repeat(10_000)}${"]".repeat(10_000)}`)).toBeInstanceOf(Array);
  });

  it("quotes bytes as Go's quoteChar", () => {
    expect(quoteChar(0x27)).toBe("'\\''");
    expect(quoteChar(0x22)).toBe("'\"'");
    expect(quoteChar(0x09)).toBe("'\\t'");
    expect(quoteChar(0x7f)).toBe("'\\x7f'");
    expect(quoteChar(0x85)).toBe("'\\u0085'");
    expect(quoteChar(0xe9)).toBe("'é'");
  });
});

describe("parseJSON: bytes", () => {
  it("replaces each invalid UTF-8 byte with U+FFFD, as Go does", () => {
    const bytes = new Uint8Array([0x22, 0x61, 0xe2, 0x82, 0x62, 0xff, 0xc3, 0xa9, 0x22]);
    expect(parseJSON(bytes)).toBe("a\ufffd\ufffdb\ufffdé");
  });

  it("decodes valid UTF-8 bytes", () => {
    expect(parseJSON(Buffer.from('{"k":"😀"}'))).toEqual({ k: "😀" });
  });
});

/** True when a number JSON.parse made anywhere in `value` is not finite (1e400 is Infinity). */
function nestsNonFinite(value: unknown): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "object" || value === null) return false;
  return Object.values(value).some(nestsNonFinite);
}

describe("property: the Go scanner and V8 agree on what is JSON", () => {
  it("for arbitrary strings", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'{}[],:"\\ 0123456789.eE+-truefalsnl\n\tx') }),
        (text) => {
          let v8Valid = true;
          try {
            JSON.parse(text);
          } catch {
            v8Valid = false;
          }
          expect(checkValid(Buffer.from(text)) === undefined).toBe(v8Valid);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it("parseJSON throws only its two typed errors, each where it is due, and nothing for JSON", () => {
    const seen = { values: 0, syntaxErrors: 0 };
    // Numbers beyond float64, nested (Go's type error) or alone (left to the caller).
    const overflows = fc.constantFrom('{"a":[1,1e400]}', "[-1e999]", "1e400", '{"a":2e308}');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), fc.json(), overflows), (text) => {
        let v8: unknown;
        let v8Valid = true;
        try {
          v8 = JSON.parse(text);
        } catch {
          v8Valid = false;
        }
        let thrown: unknown;
        try {
          parseJSON(text);
        } catch (e) {
          thrown = e;
        }
        if (!v8Valid) {
          seen.syntaxErrors++;
          expect(thrown).toBeInstanceOf(JSONSyntaxError);
        } else if (typeof v8 === "object" && nestsNonFinite(v8)) {
          expect(thrown).toBeInstanceOf(UnmarshalTypeError);
        } else {
          seen.values++;
          expect(thrown).toBeUndefined();
        }
      }),
    );
    // Both kinds of input were tried.
    expect(seen.values).toBeGreaterThan(10);
    expect(seen.syntaxErrors).toBeGreaterThan(10);
  });
});

describe("parseJSON: values Go's interface{} cannot hold as V8 does", () => {
  it("rejects a number beyond float64's range with Go's type error", () => {
    expect(() => parseJSON('{"a":[1,1e400]}')).toThrow(UnmarshalTypeError);
    expect(() => parseJSON('{"a":[1,1e400]}')).toThrow(
      "json: cannot unmarshal number 1e400 into Go value of type float64",
    );
    expect(() => parseJSON(`[-${"9".repeat(400)}]`)).toThrow(
      `cannot unmarshal number -${"9".repeat(400)}`,
    );
    // Past the range by its digits, not its exponent (each was taken as Infinity).
    for (const n of [
      "89816413261806378887e291",
      "17976931348623159e292",
      `1${"0".repeat(250)}e60`,
    ]) {
      expect(() => parseJSON(`{"x":${n}}`)).toThrow(`cannot unmarshal number ${n} into`);
    }
    // The number is the one that overflows, not a number's text in a string or a key before it.
    expect(() => parseJSON('{"note":"max is 1e309","1e999":2e308}')).toThrow(
      "cannot unmarshal number 2e308 into",
    );
    // A later duplicate key hides the number from JSON.parse's value, not from Go's decoder.
    for (const text of ['{"a":1e400,"a":1}', '{"p":[{"mtu":{"x":[2e308]},"mtu":1}]}']) {
      expect(() => parseJSON(text)).toThrow(/cannot unmarshal number (1e400|2e308) into/);
    }
    expect(parseJSON('{"x":1.7976931348623157e308}')).toEqual({ x: Number.MAX_VALUE });
    // Alone, it is left to the caller's type check, which Go applies first.
    expect(parseJSON("1e400")).toBe(Number.POSITIVE_INFINITY);
    expect(parseJSON("[1e300, 5e-400]")).toEqual([1e300, 0]);
  });

  it("property: any number V8 reads as Infinity is refused, whatever its digits and exponent", () => {
    const literal = fc
      .tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 400 }))
      .map(([digits, exp]) => `9${"7".repeat(digits - 1)}e${exp}`);
    fc.assert(
      fc.property(literal, (n) => {
        const parse = () => parseJSON(`{"a":[${n}]}`);
        if (Number.isFinite(Number(n))) expect(parse()).toEqual({ a: [Number(n)] });
        else expect(parse).toThrow(`cannot unmarshal number ${n} into`);
      }),
      { numRuns: 2000 },
    );
  });

  it("decodes an escaped lone surrogate as U+FFFD, keys included; pairs stay", () => {
    expect(parseJSON('{"\\ud800k":"a\\udc00b","p":"\\ud83d\\ude00"}')).toEqual({
      "\ufffdk": "a\ufffdb",
      p: "😀",
    });
  });
});
