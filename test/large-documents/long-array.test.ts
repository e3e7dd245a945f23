// The large-document parser (issue 12, amplification): what it keeps as text must read back
// exactly as parseJSON reads the whole document, and anything it cannot read exactly must be
// left to parseJSON (undefined), so that Go's errors stay the exact path's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJSON } from "../../src/encoding/parse.js";
import {
  LongJSONArray,
  longArraysOf,
  materializeLongArrays,
  parseKeepingLongArrays,
} from "../../src/large-documents/long-array.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const paths = [["routes"], ["result", "interfaces"]] as const;

/** Parsed with long arrays (4 entries and more) kept, then materialized: must be parseJSON's. */
async function roundTrip(input: Uint8Array): Promise<unknown> {
  const value = await parseKeepingLongArrays(input, paths, 4);
  expect(value).toBeDefined();
  materializeLongArrays(value, paths);
  return value;
}

const tricky = [
  '{"dst":"10.0.0.0/8","gw":"10.0.0.1"}',
  ' { "dst" : "a]},{\\"b" , "x" : [ 1 , { "y" : [ ] } ] } ',
  '{"name":"\u00fc\u4e16\ud83d\ude00","esc":"\\u00fc\\ud83d\\ude00","lone":"\\ud800x"}',
  '{"__proto__":{"polluted":true},"n":-0,"f":1.5,"big":12345678901234567890,"e":-1.5E-3}',
  `{"digits":${"9".repeat(308)},"exp":1e308}`,
  '{"k":"dup","k":"last","t":true,"f":false,"z":null}',
  '{"\\ud800key":1,"deep":{"a":{"b":{"c":[[[[1]]]]}}}}',
];

describe("parseKeepingLongArrays", () => {
  it("keeps a long array of objects at a listed path, each entry parsed as parseJSON does", async () => {
    const text = `{"cniVersion":"1.0.0","routes":[${tricky.join(",")}],"ips":[${tricky.join(",")}]}`;
    const value = await parseKeepingLongArrays(bytes(text), paths, 4);
    expect(value?.routes).toBeInstanceOf(LongJSONArray);
    // Not at a listed path: parsed as usual.
    expect(Array.isArray(value?.ips)).toBe(true);
    const array = value?.routes as LongJSONArray;
    expect(array.length).toBe(tricky.length);
    const whole = parseJSON(text) as { routes: unknown[] };
    for (let i = 0; i < array.length; i++) expect(array.parse(i)).toEqual(whole.routes[i]);
    expect(await roundTrip(bytes(text))).toEqual(whole);
    // A "__proto__" key stays a key.
    expect(Object.getPrototypeOf(array.parse(3))).toBe(Object.prototype);
  });

  it("follows a path through nested objects (a cache record's result)", async () => {
    const text = `{"kind":"cniCacheV1","result":{"cniVersion":"1.0.0","interfaces":[${tricky.join(",")}]}}`;
    const value = await parseKeepingLongArrays(bytes(text), paths, 4);
    expect(longArraysOf(value, paths).map((f) => f.path)).toEqual([["result", "interfaces"]]);
    expect(await roundTrip(bytes(text))).toEqual(parseJSON(text));
  });

  it("parses short arrays, arrays holding non-objects and other keys' arrays as usual", async () => {
    for (const text of [
      '{"routes":[{"a":1},{"b":2}]}',
      '{"routes":[{"a":1},{"b":2},{"c":3},null,{"d":4}]}',
      '{"routes":[1,2,3,4,5,6]}',
      '{"Routes":[{},{},{},{},{}]}',
      '{"routes":[]}',
      "{}",
    ]) {
      const value = await parseKeepingLongArrays(bytes(text), paths, 4);
      expect(longArraysOf(value, paths)).toEqual([]);
      expect(value).toEqual(parseJSON(text));
    }
  });

  it("reads invalid UTF-8 in an entry as parseJSON does (Go's U+FFFD per bad byte)", async () => {
    const head = bytes('{"routes":[{"a":"x'),
      tail = bytes('y"},{},{},{},{}]}');
    const input = new Uint8Array([...head, 0xe2, 0x82, 0xff, 0xc0, ...tail]);
    expect(await roundTrip(input)).toEqual(parseJSON(input));
  });

  it("leaves to parseJSON what it cannot read exactly: invalid, out of range, deep, not an object", async () => {
    const entries = "{},{},{},{}";
    for (const text of [
      `{"routes":[${entries},]}`,
      `{"routes":[${entries} {}]}`,
      `{"routes":[${entries},{"a":1,}]}`,
      `{"routes":[${entries},{"a":[}]}`,
      `{"routes":[${entries}]`,
      `{"routes":[${entries}]} x`,
      `{"routes":[${entries},{"a":"\u0001"}]}`,
      `{"routes":[${entries},{"mtu":1e400}]}`,
      `{"routes":[${entries},{"mtu":${"9".repeat(400)}}]}`,
      `{"mtu":1E400,"routes":[${entries}]}`,
      `{"routes":[${entries},{"a":${"[".repeat(600)}${"]".repeat(600)}}]}`,
      // Nesting is Go's to judge on the whole document (10,000 levels counted from its top).
      `{"x":${"[".repeat(10_000)}${"]".repeat(10_000)},"routes":[${entries}]}`,
      `{"result":{"x":${'{"a":'.repeat(600)}1${"}".repeat(600)}},"routes":[${entries}]}`,
      `[${entries}]`,
      '"routes"',
      "",
      `{"routes" [${entries}]}`,
    ]) {
      expect(
        await parseKeepingLongArrays(bytes(text), paths, 4),
        text.slice(0, 60),
      ).toBeUndefined();
    }
  });

  it("agrees with parseJSON on any object entries (property)", async () => {
    const entry = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 4, maxLength: 12 }), async (items) => {
        const text = `{"x":1,"routes":${JSON.stringify(items, null, items.length % 2 ? 1 : 0)}}`;
        const value = await parseKeepingLongArrays(bytes(text), paths, 4);
        expect(value?.routes).toBeInstanceOf(LongJSONArray);
        materializeLongArrays(value, paths);
        expect(value).toEqual(parseJSON(text));
      }),
      { numRuns: 200 },
    );
  });
});
