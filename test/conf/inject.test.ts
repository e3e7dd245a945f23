/**
 * Upstream's InjectConf and ConfListFromConf scenarios, with the exact bytes Go writes, plus
 * the golden written by Go's encoding/json for a list full of awkward keys and numbers.
 */
import { describe, expect, it } from "vitest";
import {
  confFromBytes,
  confListFromConf,
  injectConf,
  networkConfFromBytes,
  type PluginConfig,
} from "../../src/conf/index.js";
import { goStruct, toGoJSON } from "../../src/encoding/json.js";
import { ConfError } from "../../src/errors/index.js";
import { createResult } from "../../src/types/index.js";
import { bytesOf, golden, textOf } from "./helpers.js";

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfError);
    return (error as Error).message;
  }
  throw new Error("no error");
};

describe("InjectConf (upstream)", () => {
  const testNetConfig = (): PluginConfig => ({
    network: { cniVersion: "", name: "some-plugin", type: "foobar" },
    bytes: bytesOf(`{ "name": "some-plugin", "type": "foobar" }`),
  });

  describe("when function parameters are incorrect", () => {
    it("returns unmarshal error", () => {
      const conf: PluginConfig = {
        network: { cniVersion: "", name: "some-plugin", type: "" },
        bytes: bytesOf("{ cc cc cc}"),
      };
      expect(errorOf(() => injectConf(conf, { "": null }))).toBe(
        "unmarshal existing network bytes: invalid character 'c' looking for beginning of object key string",
      );
    });

    it("takes no new values (null, as Go's nil map) as none", () => {
      const conf = { ...testNetConfig(), bytes: bytesOf(`{"type":"t","b":1,"a":2}`) };
      const none = null as unknown as Record<string, unknown>;
      expect(new TextDecoder().decode(injectConf(conf, none).bytes)).toBe(
        `{"a":2,"b":1,"type":"t"}`,
      );
    });

    it("returns key error", () => {
      expect(errorOf(() => injectConf(testNetConfig(), { "": null }))).toBe("keys cannot be empty");
    });

    it("returns newValue error", () => {
      expect(errorOf(() => injectConf(testNetConfig(), { test: null }))).toBe(
        "key 'test' value must not be nil",
      );
      expect(errorOf(() => injectConf(testNetConfig(), { test: undefined }))).toBe(
        "key 'test' value must not be nil",
      );
    });
  });

  describe("when new string value added", () => {
    it("adds the new key & value to the config", () => {
      const result = injectConf(testNetConfig(), { test: "test" });
      expect(result).toEqual({
        network: { cniVersion: "", name: "some-plugin", type: "foobar" },
        bytes: bytesOf(`{"name":"some-plugin","test":"test","type":"foobar"}`),
      });
    });

    it("adds the new value for existing key", () => {
      let result = injectConf(testNetConfig(), { test: "test" });
      result = injectConf(result, { test: "changedValue" });
      expect(result).toEqual({
        network: { cniVersion: "", name: "some-plugin", type: "foobar" },
        bytes: bytesOf(`{"name":"some-plugin","test":"changedValue","type":"foobar"}`),
      });
    });

    it("adds existing key & value", () => {
      let result = injectConf(testNetConfig(), { test: "test" });
      result = injectConf(result, { test: "test" });
      expect(result).toEqual({
        network: { cniVersion: "", name: "some-plugin", type: "foobar" },
        bytes: bytesOf(`{"name":"some-plugin","test":"test","type":"foobar"}`),
      });
    });

    it("adds sub-fields of NetworkConfig.Network to the config", () => {
      // A Go struct (types.DNS) keeps its field order in the first marshal ...
      const dns = goStruct({ nameservers: ["server1", "server2"], domain: "local" });
      let result = injectConf(testNetConfig(), { dns });
      expect(textOf(result.bytes)).toBe(
        `{"dns":{"nameservers":["server1","server2"],"domain":"local"},"name":"some-plugin","type":"foobar"}`,
      );
      // ... and becomes a map, sorted, once re-read.
      result = injectConf(result, { type: "bridge" });
      expect(result).toEqual({
        network: {
          cniVersion: "",
          name: "some-plugin",
          type: "bridge",
          dns: { nameservers: ["server1", "server2"], domain: "local" },
        },
        bytes: bytesOf(
          `{"dns":{"domain":"local","nameservers":["server1","server2"]},"name":"some-plugin","type":"bridge"}`,
        ),
      });
    });
  });
});

describe("InjectConf: encoding and values", () => {
  const base = (text: string): PluginConfig => confFromBytes(text);

  it("embeds a value by its own Go encoding (a Result's [toGoJSON])", () => {
    const result = {
      [toGoJSON]: () => goStruct({ cniVersion: "0.4.0", ips: [], dns: {} }),
    };
    const out = injectConf(base(`{"type":"t"}`), { prevResult: result, cniVersion: "0.4.0" });
    expect(textOf(out.bytes)).toBe(
      `{"cniVersion":"0.4.0","prevResult":{"cniVersion":"0.4.0","ips":[],"dns":{}},"type":"t"}`,
    );
    expect(out.network.rawPrevResult).toEqual({ cniVersion: "0.4.0", ips: [], dns: {} });
  });

  it("embeds real results: 1.x with sorted keys and no empty dns, 0.x in struct order", () => {
    const v1 = createResult(
      `{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55","sandbox":"/var/run/netns/x"}],"ips":[{"address":"10.1.2.3/24","gateway":"10.1.2.1","interface":0}]}`,
    );
    const out1 = injectConf(base(`{"type":"t","cniVersion":"1.0.0"}`), { prevResult: v1 });
    expect(textOf(out1.bytes)).toBe(
      `{"cniVersion":"1.0.0","prevResult":{"cniVersion":"1.0.0","interfaces":[{"mac":"00:11:22:33:44:55","name":"eth0","sandbox":"/var/run/netns/x"}],"ips":[{"address":"10.1.2.3/24","gateway":"10.1.2.1","interface":0}]},"type":"t"}`,
    );
    const v04 = createResult(
      `{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.2.3/24","gateway":"10.1.2.1"}]}`,
    );
    const out04 = injectConf(base(`{"type":"t"}`), { prevResult: v04 });
    expect(textOf(out04.bytes)).toBe(
      `{"prevResult":{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.2.3/24","gateway":"10.1.2.1"}],"dns":{}},"type":"t"}`,
    );
    // Injecting again decodes the whole configuration into a map: now every key is sorted.
    expect(textOf(injectConf(out04, { name: "n" }).bytes)).toBe(
      `{"name":"n","prevResult":{"cniVersion":"0.4.0","dns":{},"ips":[{"address":"10.1.2.3/24","gateway":"10.1.2.1","version":"4"}]},"type":"t"}`,
    );
  });

  it("sorts keys by UTF-8 bytes and escapes as Go's HTML-safe encoder", () => {
    const out = injectConf(base(`{"type":"t","b":"<&>"}`), {
      "😀": 1,
      "\ue000": 2,
      "10": "x",
      "9": "y",
      s: "a\u2028b",
    });
    expect(textOf(out.bytes)).toBe(
      `{"10":"x","9":"y","b":"\\u003c\\u0026\\u003e","s":"a\\u2028b","type":"t","\ue000":2,"😀":1}`,
    );
  });

  it("takes a Map, in its order", () => {
    const out = injectConf(base(`{"type":"t"}`), new Map([["runtimeConfig", { b: 1, a: 2 }]]));
    expect(textOf(out.bytes)).toBe(`{"runtimeConfig":{"a":2,"b":1},"type":"t"}`);
  });

  it("makes __proto__ an ordinary key", () => {
    const values = JSON.parse(`{"__proto__": {"polluted": true}}`) as Record<string, unknown>;
    const out = injectConf(base(`{"type":"t"}`), values);
    expect(textOf(out.bytes)).toBe(`{"__proto__":{"polluted":true},"type":"t"}`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("re-parses the result: a wrong-typed well-known field or a lost type fails", () => {
    expect(errorOf(() => injectConf(base(`{"type":"t"}`), { capabilities: { x: "yes" } }))).toBe(
      "error parsing configuration: json: cannot unmarshal string into Go struct field PluginConf.capabilities of type bool",
    );
    expect(errorOf(() => injectConf(base(`{"type":"t"}`), { type: "" }))).toBe(
      "error parsing configuration: missing 'type'",
    );
  });

  it("reports what Go cannot encode as a ConfError", () => {
    expect(errorOf(() => injectConf(base(`{"type":"t"}`), { mtu: Number.NaN }))).toBe(
      "json: unsupported value: NaN",
    );
  });

  it("rejects a non-object configuration as Go does, and a null one", () => {
    const array: PluginConfig = { network: base(`{"type":"t"}`).network, bytes: bytesOf("[]") };
    expect(errorOf(() => injectConf(array, { a: 1 }))).toBe(
      "unmarshal existing network bytes: json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
    const nul: PluginConfig = { network: base(`{"type":"t"}`).network, bytes: bytesOf("null") };
    // Go panics (assignment to a nil map); an error here.
    expect(errorOf(() => injectConf(nul, { a: 1 }))).toBe(
      "cannot inject into a null network configuration",
    );
    // With nothing to inject Go marshals the nil map as null, which has no type.
    expect(errorOf(() => injectConf(nul, {}))).toBe("error parsing configuration: missing 'type'");
  });

  it("checks each key before its value, in order", () => {
    expect(errorOf(() => injectConf(base(`{"type":"t"}`), { a: null, "": 1 }))).toBe(
      "key 'a' value must not be nil",
    );
  });

  it("leaves the original untouched", () => {
    const original = base(`{"type":"t","x":1}`);
    const before = textOf(original.bytes);
    injectConf(original, { x: 2 });
    expect(textOf(original.bytes)).toBe(before);
  });
});

describe("InjectConf: the Go golden for awkward keys and numbers", () => {
  it("matches Go's bytes for each plugin, before and after injecting name and cniVersion", async () => {
    const list = networkConfFromBytes(await golden("unknown-fields.conflist"));
    const lines = (await golden("unknown-fields.golden")).toString().trimEnd().split("\n");
    expect(lines).toHaveLength(list.plugins.length * 2);
    list.plugins.forEach((plugin, i) => {
      expect(textOf(plugin.bytes)).toBe(lines[2 * i]);
      const injected = injectConf(plugin, { name: list.name, cniVersion: list.cniVersion });
      expect(textOf(injected.bytes)).toBe(lines[2 * i + 1]);
    });
    // Keys matched case-insensitively: "Type" and "Capabilities" are the plugin's.
    expect(list.plugins[1].network).toEqual({
      cniVersion: "",
      name: "",
      type: "portmap",
      capabilities: { portMappings: true, bandwidth: false },
    });
    expect(list.disableGC).toBe(false);
  });
});

describe("ConfListFromConf (upstream)", () => {
  it("correctly upconverts a NetworkConfig to a NetworkConfigList", () => {
    const testNetConfig = confFromBytes(
      `{"name":"some-plugin","cniVersion":"0.3.1", "type":"foobar"}`,
    );
    const ncl = confListFromConf(testNetConfig);
    const { bytes, ...rest } = ncl;
    expect({ ...rest, plugins: rest.plugins.map((x) => x.network) }).toEqual({
      name: "some-plugin",
      cniVersion: "0.3.1",
      disableCheck: false,
      disableGC: false,
      loadOnlyInlinedPlugins: false,
      plugins: [testNetConfig.network],
    });
    // The exact marshalling (upstream ignores it; Go's is this).
    expect(textOf(bytes)).toBe(
      `{"cniVersion":"0.3.1","name":"some-plugin","plugins":[{"cniVersion":"0.3.1","name":"some-plugin","type":"foobar"}]}`,
    );
    // The JSON unmarshals to the same data.
    const ncl2 = networkConfFromBytes(bytes);
    expect(ncl2).toEqual(ncl);
  });

  it("drops list-level flags a single file carries, as upstream", () => {
    const conf = confFromBytes(`{"name":"n","type":"t","disableCheck":true}`);
    const list = confListFromConf(conf);
    expect(list.disableCheck).toBe(false);
    expect(textOf(list.plugins[0].bytes)).toBe(`{"disableCheck":true,"name":"n","type":"t"}`);
  });

  it("returns the bare JSON error for broken bytes, as upstream", () => {
    const conf: PluginConfig = {
      network: { cniVersion: "", name: "n", type: "t" },
      bytes: bytesOf("{"),
    };
    expect(errorOf(() => confListFromConf(conf))).toBe("unexpected end of JSON input");
  });
});
