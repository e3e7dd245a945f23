/**
 * Bad input never crashes: non-JSON, wrong types, deep or huge JSON and invalid UTF-8 all give
 * one of the library's typed errors with a clear message (never a TypeError from deep inside).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { JSONSyntaxError, UnmarshalTypeError } from "../../src/errors/index.js";
import {
  ConversionError,
  createResult,
  createResultForVersion,
  DecodeVersionError,
  decodeVersion,
  ParseError,
  ResultVersionMismatchError,
  UnsupportedResultVersionError,
} from "../../src/types/index.js";
import { testResult020, testResult040, testResult100 } from "./fixtures.js";

const typedErrors = [
  ConversionError,
  JSONSyntaxError,
  UnmarshalTypeError,
  ParseError,
  DecodeVersionError,
  UnsupportedResultVersionError,
  ResultVersionMismatchError,
];

function outcome(run: () => unknown): "ok" | Error {
  try {
    run();
    return "ok";
  } catch (error) {
    return error as Error;
  }
}

function expectTypedOrOk(run: () => unknown): void {
  const result = outcome(run);
  if (result === "ok") return;
  expect(
    typedErrors.some((t) => result instanceof t),
    `${result.name}: ${result.message}`,
  ).toBe(true);
  expect(result.message.length).toBeGreaterThan(0);
}

const versions = ["", "0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];

describe("bad input gives typed errors", () => {
  it("non-JSON", () => {
    expect(() => createResult("not json")).toThrow(DecodeVersionError);
    expect(() => createResult("not json")).toThrow(
      "decoding version from network config: invalid character 'o' in literal null (expecting 'u')",
    );
    expect(() => createResultForVersion("1.0.0", "{")).toThrow(JSONSyntaxError);
    expect(() => createResultForVersion("1.0.0", "{")).toThrow("unexpected end of JSON input");
    expect(() => decodeVersion(new Uint8Array(0))).toThrow(
      "decoding version from network config: unexpected end of JSON input",
    );
  });

  it("wrong types name the Go field", () => {
    expect(() => createResult('{"cniVersion":"1.1.0","ips":[{"address":[]}]}')).toThrow(
      new UnmarshalTypeError("array", "string", "Result", "ips"),
    );
    expect(() => createResult('{"cniVersion":"0.4.0","interfaces":[{"name":{}}]}')).toThrow(
      "json: cannot unmarshal object into Go struct field Interface.interfaces.name of type string",
    );
  });

  it("a null entry in a list of pointers is rejected (upstream keeps a nil that later panics)", () => {
    expect(() => createResult('{"cniVersion":"1.1.0","ips":[null]}')).toThrow(
      "json: cannot unmarshal null into Go struct field Result.ips of type types100.IPConfig",
    );
    expect(() => createResult('{"cniVersion":"0.4.0","routes":[null]}')).toThrow(
      UnmarshalTypeError,
    );
    expect(() => createResult('{"cniVersion":"1.0.0","interfaces":[null]}')).toThrow(
      UnmarshalTypeError,
    );
  });

  it("deeply nested JSON", () => {
    const deep = `{"cniVersion":"1.1.0","x":${"[".repeat(20_000)}${"]".repeat(20_000)}}`;
    expect(() => createResult(deep)).toThrow(DecodeVersionError);
    expect(() => createResultForVersion("1.1.0", deep)).toThrow(JSONSyntaxError);
    const okDepth = `{"cniVersion":"1.1.0","x":${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    expect(createResult(okDepth).version()).toBe("1.1.0");
  });

  it("huge JSON", () => {
    const ips = Array.from({ length: 20_000 }, (_, i) => ({
      address: `10.${(i >> 8) & 255}.${i & 255}.1/16`,
      interface: 0,
    }));
    const result = createResult(JSON.stringify({ cniVersion: "1.1.0", ips }));
    expect(marshal(result).length).toBeGreaterThan(20_000 * 20);
    const bigString = "x".repeat(5_000_000);
    expect(
      createResult(`{"cniVersion":"1.1.0","interfaces":[{"name":"${bigString}"}]}`).version(),
    ).toBe("1.1.0");
  });

  it("invalid UTF-8 becomes U+FFFD, as Go decodes it", () => {
    const prefix = new TextEncoder().encode('{"cniVersion":"1.1.0","interfaces":[{"name":"a');
    const suffix = new TextEncoder().encode('"}]}');
    const bytes = new Uint8Array([...prefix, 0xff, 0xc3, ...suffix]);
    const result = createResult(bytes);
    expect(marshal(result)).toBe('{"cniVersion":"1.1.0","interfaces":[{"name":"a\ufffd\ufffd"}]}');
    const badVersion = new Uint8Array([
      ...new TextEncoder().encode('{"cniVersion":"1.1.0'),
      0xff,
      0x22,
      0x7d,
    ]);
    expect(() => createResult(badVersion)).toThrow(UnsupportedResultVersionError);
    expect(() => createResult(badVersion)).toThrow('unsupported CNI result version "1.1.0\ufffd"');
  });

  it("arbitrary bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom(...versions), (bytes, v) => {
        expectTypedOrOk(() => createResult(bytes));
        expectTypedOrOk(() => createResultForVersion(v, bytes));
        expectTypedOrOk(() => decodeVersion(bytes));
      }),
      { numRuns: 300 },
    );
  });

  it("arbitrary JSON values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(...versions), (value, v) => {
        const text = JSON.stringify(value) ?? "null";
        expectTypedOrOk(() => createResult(text));
        expectTypedOrOk(() => createResultForVersion(v, text));
      }),
      { numRuns: 300 },
    );
  });

  it("valid results with one field replaced by an arbitrary value", () => {
    const samples = [testResult020("0.2.0"), testResult040(), testResult100()].map((r) =>
      JSON.parse(marshal(r)),
    );
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, path: (string | number)[]) => {
      paths.push(path);
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, [...path, i]);
      } else if (v !== null && typeof v === "object") {
        for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
      }
    };
    for (const [i, s] of samples.entries()) walk(s, [i]);
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue(), (path, replacement) => {
        const doc = structuredClone(samples[path[0] as number]);
        let target: Record<string | number, unknown> = doc;
        for (const key of path.slice(1, -1))
          target = target[key] as Record<string | number, unknown>;
        const text =
          path.length === 1
            ? (JSON.stringify(replacement) ?? "null")
            : (() => {
                target[path[path.length - 1]] = replacement;
                return JSON.stringify(doc);
              })();
        expectTypedOrOk(() => createResult(text).getAsVersion("0.4.0"));
        expectTypedOrOk(() => {
          const r = createResult(text);
          return marshal(r) + r.print();
        });
      }),
      { numRuns: 500 },
    );
  });
});
