import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compact,
  goStruct,
  indent,
  marshal,
  marshalIndent,
  quoteString,
  RawJSON,
  toGoJSON,
} from "../../src/encoding/json.js";
import { parseJSON } from "../../src/encoding/parse.js";
import { UnsupportedValueError } from "../../src/errors/index.js";

describe("marshal: Go maps", () => {
  it("sorts keys by UTF-8 bytes at every level; integer-like keys are not special", () => {
    const value = { b: 1, "10": 2, "9": 3, Z: 4, a: { y: 1, x: [{ d: 1, c: 2 }] }, é: 5, z: 6 };
    expect(marshal(value)).toBe(
      '{"10":2,"9":3,"Z":4,"a":{"x":[{"c":2,"d":1}],"y":1},"b":1,"z":6,"é":5}',
    );
  });

  it("orders astral characters after U+E000..U+FFFF, as their UTF-8 bytes do", () => {
    // UTF-16 would put U+1F600 (a surrogate pair, 0xD83D...) before U+FF21.
    expect(marshal({ "\u{1F600}": 1, "\uFF21": 2 })).toBe('{"Ａ":2,"😀":1}');
  });

  it("escapes as Go: HTML characters, U+2028/9, control characters, lone surrogates", () => {
    expect(marshal("<a href='x'>&</a>")).toBe(
      "\"\\u003ca href='x'\\u003e\\u0026\\u003c/a\\u003e\"",
    );
    expect(marshal("\u2028\u2029")).toBe('"\\u2028\\u2029"');
    expect(marshal('"\\\n\r\t\b\f\u0001\u001f\u007f')).toBe(
      '"\\"\\\\\\n\\r\\t\\b\\f\\u0001\\u001f\u007f"',
    );
    expect(marshal("a\ud800b\udc00c\ud83d\ude00")).toBe('"a\ufffdb\ufffdc😀"');
  });

  it("formats numbers as Go's float64 encoder", () => {
    const cases: [number, string][] = [
      [0, "0"],
      [-0, "-0"],
      [1, "1"],
      [-1.5, "-1.5"],
      [0.1, "0.1"],
      [1e20, "100000000000000000000"],
      [1e21, "1e+21"],
      [0.000001, "0.000001"],
      [1e-7, "1e-7"],
      [1.23456789e-7, "1.23456789e-7"],
      [Number("12345678901234567890"), "12345678901234567000"],
      [Number.MAX_VALUE, "1.7976931348623157e+308"],
      [5e-324, "5e-324"],
    ];
    for (const [n, text] of cases) expect(marshal(n)).toBe(text);
  });

  it("rejects what Go cannot encode, with Go's message", () => {
    expect(() => marshal(Number.NaN)).toThrow(
      new UnsupportedValueError("json: unsupported value: NaN"),
    );
    expect(() => marshal({ a: Number.POSITIVE_INFINITY })).toThrow("json: unsupported value: +Inf");
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(() => marshal(cycle)).toThrow(UnsupportedValueError);
  });

  it("writes bytes as base64, drops undefined fields, and encodes Map as a Go map", () => {
    expect(marshal({ b: new Uint8Array([0, 1, 254, 255]), u: undefined })).toBe('{"b":"AAH+/w=="}');
    expect(
      marshal(
        new Map([
          ["b", 1],
          ["a", 2],
        ]),
      ),
    ).toBe('{"a":2,"b":1}');
    expect(marshal([undefined, null, true])).toBe("[null,null,true]");
  });
});

describe("marshal: structs, raw fragments and marshalers", () => {
  it("keeps a goStruct's insertion order, nested maps still sorted", () => {
    const record = goStruct({ kind: "k", z: 1, a: { b: 1, a: 2 }, omitted: undefined });
    expect(marshal(record)).toBe('{"kind":"k","z":1,"a":{"a":2,"b":1}}');
  });

  it("embeds a RawJSON compacted and HTML-escaped, keeping its key order", () => {
    const raw = new RawJSON('{ "z" : 1,\n "a" : "<&>", "s": "a \\" b" }');
    expect(marshal({ x: raw })).toBe('{"x":{"z":1,"a":"\\u003c\\u0026\\u003e","s":"a \\" b"}}');
  });

  it("uses a value's own encoding through toGoJSON", () => {
    const result = { [toGoJSON]: () => goStruct({ cniVersion: "0.4.0", dns: {} }) };
    expect(marshal({ prevResult: result, name: "n" })).toBe(
      '{"name":"n","prevResult":{"cniVersion":"0.4.0","dns":{}}}',
    );
  });
});

describe("marshalIndent / indent / compact", () => {
  it("indents as Go's MarshalIndent, empty containers kept compact", () => {
    expect(marshalIndent(goStruct({ code: 7, msg: "m", a: [], o: {}, l: [1, { k: "v" }] }))).toBe(
      '{\n    "code": 7,\n    "msg": "m",\n    "a": [],\n    "o": {},\n    "l": [\n        1,\n        {\n            "k": "v"\n        }\n    ]\n}',
    );
    expect(marshalIndent({ a: 1 }, ">", "\t")).toBe('{\n>\t"a": 1\n>}');
    expect(marshalIndent("x: {[,]}")).toBe('"x: {[,]}"');
  });

  it("round-trips through indent and compact for any JSON value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = marshal(value);
        expect(compact(indent(text, "", "  "))).toBe(text);
      }),
    );
  });
});

describe("property: parse(marshal(x)) equals x", () => {
  it("holds for any JSON value with full Unicode strings", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary" }), (value) => {
        expect(parseJSON(marshal(value))).toStrictEqual(value);
      }),
    );
  });

  it("writes every object's keys in UTF-8 byte order", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: "binary" }), fc.integer()), (dict) => {
        const keys = Object.keys(dict).sort((a, b) =>
          Buffer.compare(Buffer.from(a), Buffer.from(b)),
        );
        const expected = `{${keys.map((k) => `${quoteString(k)}:${dict[k]}`).join(",")}}`;
        expect(marshal(dict)).toBe(expected);
      }),
    );
  });
});
