// A long route list of a result decoded from fresh JSON is kept as parsed and decoded on first
// read: these tests show it is indistinguishable from the eager decoding (same bytes from the
// encoder, same typed routes, same errors) and behaves as an ordinary property once read.
import { describe, expect, it } from "vitest";
import { marshal, marshalAsMap } from "../../src/encoding/json.js";
import { resultPiecesInSlices } from "../../src/large-documents/result100.js";
import { createResult, Result100 } from "../../src/types/index.js";
import { lazyListMinLength } from "../../src/types/lazy-list.js";

/** Routes of every shape the writer handles, in forms that print differently than written. */
function routeJSON(i: number): string {
  switch (i % 6) {
    case 0:
      return `{"dst":"10.${(i >> 8) & 255}.${i & 255}.0/24","gw":"10.0.0.1"}`;
    case 1:
      return `{"dst":"::FFFF:10.0.${i & 255}.1/128","mtu":1400,"advmss":1360}`;
    case 2:
      return `{"dst":"2001:DB8:0:0::${(i & 0xffff).toString(16)}/064","gw":"fe80::1","priority":5}`;
    case 3:
      return `{"DST":"10.1.2.3/32","table":0,"scope":253,"extra":[1,2]}`;
    case 4:
      return `{"dst":"10.1.2.3/32","gw":"","mtu":0,"table":-0}`;
    default:
      return "{}";
  }
}

const count = lazyListMinLength + 500;
const json = `{"cniVersion":"1.0.0","dns":{"nameservers":["1.1.1.1"]},"ips":[{"address":"10.0.0.2/24"}],"routes":[${Array.from({ length: count }, (_, i) => routeJSON(i)).join(",")}]}`;
const eager = (): Result100 => Result100.fromValue(JSON.parse(json));

describe("a long route list decoded on first read", () => {
  it("encodes to the bytes of the eager decoding, before and after it is read", async () => {
    const expected = marshal(eager());
    const lazy = createResult(json) as Result100;
    expect(marshal(lazy)).toBe(expected);
    expect(marshalAsMap(lazy)).toBe(marshalAsMap(eager()));
    expect((await resultPiecesInSlices(lazy, false))?.join("")).toBe(expected);
    expect((await resultPiecesInSlices(lazy, true))?.join("")).toBe(marshalAsMap(eager()));
    expect(lazy.routes).toHaveLength(count);
    expect(marshal(lazy)).toBe(expected);
  });

  it("reads as the eager routes, an own enumerable property, a data property once read", () => {
    const lazy = createResult(json) as Result100;
    expect(Object.keys(lazy)).toContain("routes");
    expect(lazy.routes).toEqual(eager().routes);
    const descriptor = Object.getOwnPropertyDescriptor(lazy, "routes");
    expect(descriptor?.writable).toBe(true);
    expect(lazy.routes).toBe(lazy.routes);
    expect(lazy).toEqual(eager());
  });

  it("can be replaced before it is read; the encoder then writes the new list", () => {
    const lazy = createResult(json) as Result100;
    lazy.routes = [];
    expect(lazy.routes).toEqual([]);
    expect(marshal(lazy)).not.toContain('"routes"');
  });

  it("converts to another version as the eager result does", () => {
    const lazy = createResult(json);
    expect(marshal(lazy.getAsVersion("0.4.0"))).toBe(marshal(eager().getAsVersion("0.4.0")));
  });

  it("fails at creation with the eager decoder's error for a bad or null entry", () => {
    const bad = json
      .replace('"routes":[', '"routes":[{"dst":"10.0.0.0/8"},')
      .replace(/\{\}\]\}$/, '{"dst":"10.1.2.x/32"},null]}');
    expect(() => Result100.fromValue(JSON.parse(bad))).toThrow("invalid CIDR address: 10.1.2.x/32");
    expect(() => createResult(bad)).toThrow("invalid CIDR address: 10.1.2.x/32");
    const nullEntry = json.replace(/\{\}\]\}$/, "null]}");
    const message = (() => {
      try {
        Result100.fromValue(JSON.parse(nullEntry));
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain("Result.routes");
    expect(() => createResult(nullEntry)).toThrow(message);
  });

  it("stays eager for a value the caller passed in (Result100.fromValue)", () => {
    const r = eager();
    expect(Object.getOwnPropertyDescriptor(r, "routes")?.get).toBeUndefined();
  });
});

describe("a long interface list decoded on first read", () => {
  const shapes = [
    '{"name":"eth0","mac":"00:11:22:33:44:55","mtu":1500,"sandbox":"/ns","socketPath":"/s","pciID":"0000:00:01.0"}',
    '{"NAME":"veth<&>","Mtu":0}',
    "{}",
    '{"name":null,"mac":""}',
  ];
  const items = Array.from({ length: lazyListMinLength + 100 }, (_, i) => shapes[i % 4]);
  const text = `{"cniVersion":"1.1.0","interfaces":[${items.join(",")}],"ips":[{"interface":0,"address":"10.0.0.2/24"}]}`;
  const eagerIfs = (): Result100 => Result100.fromValue(JSON.parse(text));

  it("encodes and reads as the eager decoding", async () => {
    const lazy = createResult(text) as Result100;
    expect(marshal(lazy)).toBe(marshal(eagerIfs()));
    expect((await resultPiecesInSlices(lazy, false))?.join("")).toBe(marshal(eagerIfs()));
    expect(lazy.interfaces).toEqual(eagerIfs().interfaces);
    expect(marshal(lazy)).toBe(marshal(eagerIfs()));
  });

  it("fails with the eager decoder's first error (an entry's type error before a null entry)", () => {
    const errorOf = (f: () => unknown): string => {
      try {
        f();
      } catch (error) {
        return `${(error as Error).constructor.name}: ${(error as Error).message}`;
      }
      return "no error";
    };
    for (const bad of [
      text.replace('"interfaces":[', '"interfaces":[null,{"name":5},'),
      text.replace('"interfaces":[', '"interfaces":[null,'),
      text.replace('"interfaces":[', '"routes":[{"dst":5}],"interfaces":[{"mtu":"x"},'),
      text.replace('"interfaces":[', '"ips":7,"interfaces":[{"mtu":"x"},'),
      text.replace('"interfaces":[', '"Interfaces":[{"mtu":"x"}],"interfaces":['),
      // Go folds the long s (U+017F) to "s": this key is decoded into the interfaces too.
      text.replace('"interfaces":[', '"interface\u017f":[{"mtu":"x"}],"interfaces":['),
    ]) {
      const want = errorOf(() => Result100.fromValue(JSON.parse(bad)));
      expect(want).not.toBe("no error");
      expect(errorOf(() => createResult(bad))).toBe(want);
    }
  });
});
