/**
 * networkConfFromBytes: every rule of section B, and upstream's "NetworkConfFromBytes /
 * Version selection" scenarios.
 */
import { describe, expect, it } from "vitest";
import { selectCNIVersion } from "../../src/conf/cni-versions.js";
import { confListFromBytes, networkConfFromBytes } from "../../src/conf/index.js";
import { ConfError } from "../../src/errors/index.js";
import { bytesOf, textOf } from "./helpers.js";

const errorOf = (input: string): string => {
  try {
    networkConfFromBytes(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfError);
    return (error as Error).message;
  }
  throw new Error(`no error for ${input}`);
};

const p = "error parsing configuration list: ";

describe("NetworkConfFromBytes: version selection (upstream)", () => {
  const makeConfig = (...versions: string[]) =>
    `{"name": "test", "cniVersions": [${versions.map((v) => `"${v}"`).join(",")}], "plugins": [{"type": "foo"}]}`;

  it("correctly selects the maximum version", () => {
    expect(networkConfFromBytes(makeConfig("1.1.0", "0.4.0", "1.0.0")).cniVersion).toBe("1.1.0");
  });

  it("selects the highest version supported by libcni", () => {
    expect(networkConfFromBytes(makeConfig("99.0.0", "1.1.0", "0.4.0", "1.0.0")).cniVersion).toBe(
      "1.1.0",
    );
  });

  it("fails when invalid versions are specified", () => {
    expect(errorOf(makeConfig("1.1.0", "0.4.0", "1.0.f"))).toBe(
      `${p}invalid cniVersions entry 1.0.f at index 2: failed to convert micro version part "f": strconv.Atoi: parsing "f": invalid syntax`,
    );
  });

  it("falls back to cniVersion", () => {
    const conf = networkConfFromBytes(
      `{"name": "test", "cniVersion": "1.2.3", "plugins": [{"type": "foo"}]}`,
    );
    expect(conf.cniVersion).toBe("1.2.3");
  });

  it("merges cniVersions and cniVersion", () => {
    const conf = networkConfFromBytes(
      `{"name": "test", "cniVersion": "1.0.0", "cniVersions": ["0.1.0", "0.4.0"], "plugins": [{"type": "foo"}]}`,
    );
    expect(conf.cniVersion).toBe("1.0.0");
  });

  it("handles an empty cniVersions array", () => {
    const conf = networkConfFromBytes(
      `{"name": "test", "cniVersions": [], "plugins": [{"type": "foo"}]}`,
    );
    expect(conf.cniVersion).toBe("");
  });
});

describe("cniVersions: the remaining rules", () => {
  it("keeps a too-new cniVersion when every candidate is too new", () => {
    expect(selectCNIVersion(["2.0.0"], "9.9.9")).toBe("9.9.9");
    expect(selectCNIVersion([], "9.9.9")).toBe("9.9.9");
  });

  it("lets a cniVersions entry beat a lower cniVersion, and skips a too-new cniVersion", () => {
    expect(selectCNIVersion(["1.0.0"], "0.4.0")).toBe("1.0.0");
    expect(selectCNIVersion(["0.3.1"], "1.2.0")).toBe("0.3.1");
  });

  it("compares numerically, not as text", () => {
    expect(selectCNIVersion(["0.10.0", "0.9.0"], "")).toBe("0.10.0");
  });

  it("treats an empty entry as 0.1.0", () => {
    expect(selectCNIVersion(["", "0.2.0"], "")).toBe("0.2.0");
    expect(selectCNIVersion([""], "")).toBe("");
  });

  it("picks as Go's insertion sort does between equal versions spelled differently", () => {
    // Upstream's comparator says "less" both ways for "1.0" and "1.0.0"; Go's insertion sort
    // then moves each later entry before the earlier: the first one written ends up last.
    expect(selectCNIVersion(["1.0", "1.0.0"], "")).toBe("1.0");
    expect(selectCNIVersion(["1.0.0", "1.0"], "")).toBe("1.0.0");
  });

  it("rejects a non-array, a non-string entry and a bad cniVersion with upstream's text", () => {
    // Upstream prints the type of the failed assertion's zero value: always []interface {}.
    expect(errorOf(`{"name":"n","cniVersions":"1.0.0"}`)).toBe(
      `${p}invalid type for cniVersions: []interface {}`,
    );
    expect(errorOf(`{"name":"n","cniVersions":["1.0.0", 1]}`)).toBe(
      `${p}invalid type for cniVersions index 1: float64`,
    );
    expect(errorOf(`{"name":"n","cniVersions":[null]}`)).toBe(
      `${p}invalid type for cniVersions index 0: <nil>`,
    );
    expect(errorOf(`{"name":"n","cniVersion":"x.y","cniVersions":["1.0.0"]}`)).toBe(
      `${p}invalid cniVersion x.y: failed to convert major version part "x": strconv.Atoi: parsing "x": invalid syntax`,
    );
    expect(errorOf(`{"name":"n","cniVersions":["1.2.3.4"]}`)).toBe(
      `${p}invalid cniVersions entry 1.2.3.4 at index 0: invalid version "1.2.3.4": too many parts`,
    );
  });

  it("accepts any cniVersion string without cniVersions", () => {
    expect(networkConfFromBytes(`{"name":"n","cniVersion":"not a version"}`).cniVersion).toBe(
      "not a version",
    );
  });
});

describe("NetworkConfFromBytes: name and cniVersion", () => {
  it("requires a JSON object", () => {
    expect(errorOf("{")).toBe(`${p}unexpected end of JSON input`);
    expect(errorOf("")).toBe(`${p}unexpected end of JSON input`);
    expect(errorOf("nope")).toBe(`${p}invalid character 'o' in literal null (expecting 'u')`);
    expect(errorOf("x")).toBe(`${p}invalid character 'x' looking for beginning of value`);
    expect(errorOf(`{"name":"n",}`)).toBe(
      `${p}invalid character '}' looking for beginning of object key string`,
    );
    expect(errorOf("[]")).toBe(
      `${p}json: cannot unmarshal array into Go value of type map[string]interface {}`,
    );
    expect(errorOf(`"s"`)).toBe(
      `${p}json: cannot unmarshal string into Go value of type map[string]interface {}`,
    );
    expect(errorOf("1")).toBe(
      `${p}json: cannot unmarshal number into Go value of type map[string]interface {}`,
    );
    expect(errorOf("true")).toBe(
      `${p}json: cannot unmarshal bool into Go value of type map[string]interface {}`,
    );
  });

  it("reads JSON null as an empty map (Go's nil map), so the name is missing", () => {
    expect(errorOf("null")).toBe(`${p}no name`);
  });

  it("requires a string name, accepting an empty one", () => {
    expect(errorOf(`{}`)).toBe(`${p}no name`);
    expect(errorOf(`{"name": 5}`)).toBe(`${p}invalid name type float64`);
    expect(errorOf(`{"name": null}`)).toBe(`${p}invalid name type <nil>`);
    expect(errorOf(`{"name": ["a"]}`)).toBe(`${p}invalid name type []interface {}`);
    expect(errorOf(`{"name": {}}`)).toBe(`${p}invalid name type map[string]interface {}`);
    expect(errorOf(`{"name": true}`)).toBe(`${p}invalid name type bool`);
    expect(networkConfFromBytes(`{"name": ""}`).name).toBe("");
  });

  it("matches list keys exactly (a map, not a struct): Name is not name", () => {
    expect(errorOf(`{"Name": "n"}`)).toBe(`${p}no name`);
  });

  it("requires a string cniVersion when present", () => {
    expect(errorOf(`{"name":"n","cniVersion": 1.0}`)).toBe(`${p}invalid cniVersion type float64`);
    expect(networkConfFromBytes(`{"name":"n"}`).cniVersion).toBe("");
  });

  it("takes the last of duplicate keys, as Go", () => {
    expect(networkConfFromBytes(`{"name":"a","name":"b"}`).name).toBe("b");
  });
});

describe("NetworkConfFromBytes: list flags", () => {
  const flags = ["disableCheck", "disableGC", "loadOnlyInlinedPlugins"] as const;
  const base = (key: string, value: string) =>
    `{"name":"n","plugins":[{"type":"t"}],"${key}":${value}}`;

  for (const key of flags) {
    it(`${key}: JSON bool or "true"/"false" in any case`, () => {
      expect(networkConfFromBytes(base(key, "true"))[key]).toBe(true);
      expect(networkConfFromBytes(base(key, "false"))[key]).toBe(false);
      expect(networkConfFromBytes(base(key, `"TRUE"`))[key]).toBe(true);
      expect(networkConfFromBytes(base(key, `"fAlSe"`))[key]).toBe(false);
      expect(networkConfFromBytes(`{"name":"n","plugins":[{"type":"t"}]}`)[key]).toBe(false);
    });

    it(`${key}: any other type or string is an error`, () => {
      expect(errorOf(base(key, "null"))).toBe(`${p}invalid type <nil> for ${key}`);
      expect(errorOf(base(key, "1"))).toBe(`${p}invalid type float64 for ${key}`);
      expect(errorOf(base(key, "[]"))).toBe(`${p}invalid type []interface {} for ${key}`);
      expect(errorOf(base(key, "{}"))).toBe(`${p}invalid type map[string]interface {} for ${key}`);
      // The value is lowercased before it is quoted, as upstream.
      expect(errorOf(base(key, `"YES"`))).toBe(`${p}invalid value "yes" for ${key}`);
      expect(errorOf(base(key, `" true"`))).toBe(`${p}invalid value " true" for ${key}`);
      expect(errorOf(base(key, `"a\\tb\\u0000\\u00a0"`))).toBe(
        `${p}invalid value "a\\tb\\x00\\u00a0" for ${key}`,
      );
    });
  }

  it("reads the flags in upstream's order: disableCheck first", () => {
    expect(errorOf(`{"name":"n","disableGC":1,"disableCheck":2}`)).toBe(
      `${p}invalid type float64 for disableCheck`,
    );
  });
});

describe("NetworkConfFromBytes: plugins", () => {
  it("gives zero plugins without a plugins key", () => {
    const conf = networkConfFromBytes(`{"name":"n"}`);
    expect(conf.plugins).toEqual([]);
  });

  it("requires a non-empty array", () => {
    expect(errorOf(`{"name":"n","plugins":[]}`)).toBe(`${p}no plugins in list`);
    expect(errorOf(`{"name":"n","plugins":{}}`)).toBe(
      `${p}invalid 'plugins' type map[string]interface {}`,
    );
    expect(errorOf(`{"name":"n","plugins":null}`)).toBe(`${p}invalid 'plugins' type <nil>`);
    expect(errorOf(`{"name":"n","plugins":"bridge"}`)).toBe(`${p}invalid 'plugins' type string`);
  });

  it("checks loadOnlyInlinedPlugins against a missing plugins key", () => {
    expect(errorOf(`{"name":"n","loadOnlyInlinedPlugins":"True"}`)).toBe(
      `${p}\`loadOnlyInlinedPlugins\` is true, and no 'plugins' key`,
    );
  });

  it("re-marshals each plugin as Go does and parses it as a plugin", () => {
    const conf = networkConfFromBytes(
      `{"name":"n","cniVersion":"1.0.0","plugins":[{"type":"a","z":1,"b":[1,"x"],"m":{"y":1,"c":null}},{"Type":"b","NAME":"p"}]}`,
    );
    expect(conf.plugins.map((x) => textOf(x.bytes))).toEqual([
      `{"b":[1,"x"],"m":{"c":null,"y":1},"type":"a","z":1}`,
      `{"NAME":"p","Type":"b"}`,
    ]);
    // The plugin's own name and version are its own (injection later replaces them).
    expect(conf.plugins[1].network).toEqual({ cniVersion: "", name: "p", type: "b" });
  });

  it("fails the whole list for a plugin without type or with a wrong-typed field", () => {
    expect(errorOf(`{"name":"n","plugins":[{"type":"a"},{"name":"x"}]}`)).toBe(
      "failed to parse plugin config 1: error parsing configuration: missing 'type'",
    );
    expect(errorOf(`{"name":"n","plugins":[null]}`)).toBe(
      "failed to parse plugin config 0: error parsing configuration: missing 'type'",
    );
    expect(errorOf(`{"name":"n","plugins":["bridge"]}`)).toBe(
      "failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal string into Go value of type types.PluginConf",
    );
    expect(errorOf(`{"name":"n","plugins":[{"type":"a","capabilities":{"x":"yes"}}]}`)).toBe(
      "failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal string into Go struct field PluginConf.capabilities of type bool",
    );
    expect(errorOf(`{"name":"n","plugins":[{"type":7}]}`)).toBe(
      "failed to parse plugin config 0: error parsing configuration: json: cannot unmarshal number into Go struct field PluginConf.type of type string",
    );
  });

  it("keeps the input as the list's bytes, the same object when given bytes", () => {
    const input = bytesOf(`{"name":"n", "unknown": {"kept": true}, "plugins":[{"type":"t"}]}`);
    const conf = networkConfFromBytes(input);
    expect(conf.bytes).toBe(input);
    expect(networkConfFromBytes(textOf(input)).bytes).toEqual(input);
  });

  it("confListFromBytes is networkConfFromBytes", () => {
    const text = `{"name":"n","cniVersion":"0.4.0","plugins":[{"type":"t","x":1}]}`;
    expect(confListFromBytes(text)).toEqual(networkConfFromBytes(text));
  });
});
