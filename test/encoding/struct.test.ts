import { describe, expect, it } from "vitest";
import { defineStruct } from "../../src/encoding/struct.js";
import { UnmarshalTypeError } from "../../src/errors/index.js";

interface Conf {
  type?: string;
  mtu?: number;
  index?: number;
  capabilities?: Record<string, boolean>;
  ipam?: { type?: string };
  list?: string[];
  prevResult?: unknown;
  extra?: unknown;
}

const decoder = defineStruct<Conf>("types.NetConf", {
  fields: {
    type: { type: "string" },
    mtu: { type: "int" },
    index: { type: "uint" },
    capabilities: { type: "map", values: { type: "bool" } },
    ipam: {
      type: "struct",
      goName: "types.IPAM",
      struct: { fields: { type: { type: "string" } } },
    },
    list: { type: "array", items: { type: "string" } },
    prevResult: { type: "raw" },
    extra: { type: "any" },
  },
});

describe("defineStruct: Go's decoding rules", () => {
  it("matches keys case-insensitively, prefers an exact match, ignores unknown keys", () => {
    expect(
      decoder.decode({ TYPE: "a", Mtu: 1500, unknown: 1, IPAM: { Type: "host-local" } }),
    ).toEqual({
      type: "a",
      mtu: 1500,
      ipam: { type: "host-local" },
    });
  });

  it("folds the Kelvin sign and the long s as Go does, and no other non-ASCII rune", () => {
    expect(decoder.decode({ "li\u017ft": ["long-s"], "cApabilitie\u017f": { x: true } })).toEqual({
      list: ["long-s"],
      capabilities: { x: true },
    });
    const kinds = defineStruct<{ kind?: string }>("T", { fields: { kind: { type: "string" } } });
    expect(kinds.decode({ "\u212aind": "kelvin" })).toEqual({ kind: "kelvin" });
    expect(decoder.decode({ tÿpe: "x", "ty\u0070e\u0301": "y" })).toEqual({});
  });

  it("lets the last of two case-variants win", () => {
    expect(decoder.decode({ Type: "first", type: "second" })).toEqual({ type: "second" });
    expect(decoder.decode({ type: "first", TYPE: "second" })).toEqual({ type: "second" });
  });

  it("treats null as Go does: no-op for values, nil for maps, slices and interfaces", () => {
    expect(decoder.decode({ type: null, capabilities: null, list: null, extra: null })).toEqual({});
    expect(decoder.decode({ prevResult: null })).toEqual({ prevResult: null });
    expect(decoder.decode({ capabilities: { a: null, b: true } })).toEqual({
      capabilities: { a: false, b: true },
    });
    expect(decoder.decode({ list: ["a", null] })).toEqual({ list: ["a", ""] });
  });

  it("names the field and the Go type of a wrong type", () => {
    const cases: [unknown, string][] = [
      [
        { type: 1 },
        "json: cannot unmarshal number into Go struct field NetConf.type of type string",
      ],
      [
        { capabilities: { x: "yes" } },
        "json: cannot unmarshal string into Go struct field NetConf.capabilities of type bool",
      ],
      [
        { mtu: 1.5 },
        "json: cannot unmarshal number 1.5 into Go struct field NetConf.mtu of type int",
      ],
      [
        { index: -1 },
        "json: cannot unmarshal number -1 into Go struct field NetConf.index of type uint",
      ],
      // Past Go's int64 and uint64 (the bounds as doubles pass: they may be the last ones,
      // see "decodes the bounds of int64 and uint64").
      [
        { mtu: 1e21 },
        "json: cannot unmarshal number 1e+21 into Go struct field NetConf.mtu of type int",
      ],
      [
        { mtu: -9.3e18 },
        "json: cannot unmarshal number -9300000000000000000 into Go struct field NetConf.mtu of type int",
      ],
      [
        { index: 2 ** 64 * 2 },
        "json: cannot unmarshal number 36893488147419103000 into Go struct field NetConf.index of type uint",
      ],
      [
        { index: -0 },
        "json: cannot unmarshal number -0 into Go struct field NetConf.index of type uint",
      ],
      [
        { ipam: { type: [] } },
        "json: cannot unmarshal array into Go struct field IPAM.ipam.type of type string",
      ],
      [
        { ipam: "x" },
        "json: cannot unmarshal string into Go struct field NetConf.ipam of type types.IPAM",
      ],
      [
        { list: [1] },
        "json: cannot unmarshal number into Go struct field NetConf.list of type string",
      ],
      [
        { list: {} },
        "json: cannot unmarshal object into Go struct field NetConf.list of type []string",
      ],
      [[1], "json: cannot unmarshal array into Go value of type types.NetConf"],
      ["s", "json: cannot unmarshal string into Go value of type types.NetConf"],
    ];
    for (const [value, message] of cases) {
      expect(() => decoder.decode(value)).toThrow(UnmarshalTypeError);
      expect(() => decoder.decode(value)).toThrow(message);
    }
  });

  it("keeps a map key named __proto__ as a key", () => {
    const decoded = decoder.decode(JSON.parse('{"capabilities":{"__proto__":true,"x":false}}'));
    expect(Object.keys(decoded.capabilities ?? {})).toEqual(["__proto__", "x"]);
    expect(Object.getPrototypeOf(decoded.capabilities)).toBe(Object.prototype);
  });

  it("decodes the bounds of int64 and uint64 (a double there may stand for the last one)", () => {
    expect(decoder.decode({ mtu: -(2 ** 63), index: 2 ** 64 })).toEqual({
      mtu: -(2 ** 63),
      index: 2 ** 64,
    });
    expect(decoder.decode({ mtu: 2 ** 63 }).mtu).toBe(2 ** 63);
  });

  it("decodes -0 into an integer field as 0", () => {
    expect(Object.is(decoder.decode({ mtu: -0 }).mtu, 0)).toBe(true);
  });

  it("keeps raw and any fields as parsed", () => {
    const prev = { cniVersion: "1.0.0", ips: [{ address: "10.0.0.2/24" }] };
    expect(decoder.decode({ prevResult: prev, extra: [1, "a"] })).toEqual({
      prevResult: prev,
      extra: [1, "a"],
    });
  });
});

describe("defineStruct: document order and element zero values", () => {
  it("reports Go's first error in document order, even for a value a later key replaces", () => {
    expect(() => decoder.decode({ type: [], Type: "t" })).toThrow(
      "json: cannot unmarshal array into Go struct field NetConf.type of type string",
    );
    expect(() => decoder.decode({ list: "x", mtu: "y" })).toThrow("NetConf.list of type []string");
    expect(() => decoder.decode({ mtu: "y", list: "x" })).toThrow("NetConf.mtu of type int");
  });

  it("gives a null struct element the zero struct, and a null pointer element nil", () => {
    const items = {
      type: "struct",
      goName: "T",
      struct: { fields: { a: { type: "string" } } },
    } as const;
    const lists = defineStruct<{ values?: unknown[]; pointers?: unknown[] }>("L", {
      fields: {
        values: { type: "array", items },
        pointers: { type: "array", items: { ...items, pointer: true } },
      },
    });
    expect(lists.decode({ values: [null, { A: "x" }], pointers: [null] })).toEqual({
      values: [{}, { a: "x" }],
      pointers: [null],
    });
  });
});
