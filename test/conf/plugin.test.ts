/**
 * networkPluginConfFromBytes and the PluginConf decoding with Go's struct rules. Every
 * expected message here was checked against Go's encoding/json.
 */
import { describe, expect, it } from "vitest";
import { confFromBytes, networkPluginConfFromBytes } from "../../src/conf/index.js";
import { ConfError } from "../../src/errors/index.js";
import { decodePluginConf } from "../../src/types/plugin-conf.js";
import { bytesOf } from "./helpers.js";

const errorOf = (input: string): string => {
  try {
    networkPluginConfFromBytes(input);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfError);
    return (error as Error).message;
  }
  throw new Error(`no error for ${input}`);
};

const p = "error parsing configuration: ";

describe("configuration input that is not bytes", () => {
  it("is a ConfError at once, never read by its length (an array-like could be 4 GiB long)", () => {
    for (const bad of [{ length: 2 ** 32 - 1 }, {}, 42, new ArrayBuffer(4)]) {
      expect(() => networkPluginConfFromBytes(bad as never)).toThrow(
        /^configuration must be a Uint8Array or a string, got /,
      );
    }
  });
});

describe("networkPluginConfFromBytes", () => {
  it("keeps the input bytes (the same object) and decodes the well-known fields", () => {
    const input = bytesOf(
      `{"cniVersion":"1.0.0","name":"n","type":"bridge","unknown":{"deep":[1,2]},` +
        `"capabilities":{"portMappings":true,"ips":false},"ipam":{"type":"host-local","ranges":[]},` +
        `"dns":{"nameservers":["10.0.0.1"],"domain":"d","search":["s"],"options":["o"]},` +
        `"prevResult":{"cniVersion":"1.0.0","ips":[]},` +
        `"cni.dev/valid-attachments":[{"containerID":"c","ifname":"eth0"}]}`,
    );
    const conf = networkPluginConfFromBytes(input);
    expect(conf.bytes).toBe(input);
    expect(conf.network).toEqual({
      cniVersion: "1.0.0",
      name: "n",
      type: "bridge",
      capabilities: { portMappings: true, ips: false },
      ipam: { type: "host-local" },
      dns: { nameservers: ["10.0.0.1"], domain: "d", search: ["s"], options: ["o"] },
      rawPrevResult: { cniVersion: "1.0.0", ips: [] },
      validAttachments: [{ containerID: "c", ifname: "eth0" }],
    });
  });

  it("requires a type", () => {
    expect(errorOf(`{"name":"n"}`)).toBe(`${p}missing 'type'`);
    expect(errorOf(`{"type":""}`)).toBe(`${p}missing 'type'`);
    expect(errorOf(`{"type":null}`)).toBe(`${p}missing 'type'`);
    expect(errorOf("null")).toBe(`${p}missing 'type'`);
  });

  it("matches keys case-insensitively, an exact match preferred", () => {
    const conf = networkPluginConfFromBytes(
      `{"TYPE":"t","cniversion":"1.0.0","NaMe":"n","IPAM":{"TYPE":"host-local"}}`,
    );
    expect(conf.network).toEqual({
      cniVersion: "1.0.0",
      name: "n",
      type: "t",
      ipam: { type: "host-local" },
    });
  });

  it("fails the whole parse for a wrong-typed field, with Go's message", () => {
    expect(errorOf(`{"type":"t","capabilities":{"x":"yes"}}`)).toBe(
      `${p}json: cannot unmarshal string into Go struct field PluginConf.capabilities of type bool`,
    );
    expect(errorOf(`{"type":"t","capabilities":[]}`)).toBe(
      `${p}json: cannot unmarshal array into Go struct field PluginConf.capabilities of type map[string]bool`,
    );
    expect(errorOf(`{"type":"t","ipam":{"type":5}}`)).toBe(
      `${p}json: cannot unmarshal number into Go struct field IPAM.ipam.type of type string`,
    );
    expect(errorOf(`{"type":"t","dns":{"nameservers":"a"}}`)).toBe(
      `${p}json: cannot unmarshal string into Go struct field DNS.dns.nameservers of type []string`,
    );
    expect(errorOf(`{"type":"t","prevResult":"x"}`)).toBe(
      `${p}json: cannot unmarshal string into Go struct field PluginConf.prevResult of type map[string]interface {}`,
    );
    expect(errorOf(`{"type":"t","cni.dev/valid-attachments":[{"containerID":1}]}`)).toBe(
      `${p}json: cannot unmarshal number into Go struct field GCAttachment.cni.dev/valid-attachments.containerID of type string`,
    );
    expect(errorOf(`{"type":["t"]}`)).toBe(
      `${p}json: cannot unmarshal array into Go struct field PluginConf.type of type string`,
    );
  });

  it("rejects a non-object with Go's message", () => {
    for (const [input, kind] of [
      ["[]", "array"],
      ["1", "number"],
      [`"s"`, "string"],
      ["true", "bool"],
    ]) {
      expect(errorOf(input)).toBe(
        `${p}json: cannot unmarshal ${kind} into Go value of type types.PluginConf`,
      );
    }
  });

  it("reports JSON syntax errors with Go's text", () => {
    expect(errorOf("{")).toBe(`${p}unexpected end of JSON input`);
    expect(errorOf(`{"type":"t"} x`)).toBe(`${p}invalid character 'x' after top-level value`);
    expect(errorOf(`{"type" "t"}`)).toBe(`${p}invalid character '"' after object key`);
  });

  it("leaves null fields at their zero value and a null capability false", () => {
    expect(
      networkPluginConfFromBytes(
        `{"type":"t","prevResult":null,"capabilities":null,"ipam":null,"dns":null,"name":null}`,
      ).network,
    ).toEqual({ cniVersion: "", name: "", type: "t" });
    expect(networkPluginConfFromBytes(`{"type":"t","capabilities":{"x":null}}`).network).toEqual({
      cniVersion: "",
      name: "",
      type: "t",
      capabilities: { x: false },
    });
  });

  it("stores a null inside a string list as Go's zero value", () => {
    expect(
      networkPluginConfFromBytes(`{"type":"t","dns":{"nameservers":["a",null],"search":[null]}}`)
        .network.dns,
    ).toEqual({ nameservers: ["a", ""], search: [""] });
  });

  it("folds keys as Go does, the long s and the Kelvin sign included", () => {
    expect(
      networkPluginConfFromBytes(`{"tyPE":"t","cniVer\u017fion":"1.0.0","\u212aey":1}`).network,
    ).toEqual({ cniVersion: "1.0.0", name: "", type: "t" });
  });

  it("takes the last duplicate key", () => {
    expect(networkPluginConfFromBytes(`{"type":"a","TYPE":"b"}`).network.type).toBe("b");
  });

  it("confFromBytes is networkPluginConfFromBytes", () => {
    const text = `{"type":"t","x":1}`;
    expect(confFromBytes(text)).toEqual(networkPluginConfFromBytes(text));
  });
});

describe("decodePluginConf", () => {
  it("decodes null as the zero configuration, as Go leaves the struct untouched", () => {
    expect(decodePluginConf(null)).toEqual({ cniVersion: "", name: "", type: "" });
  });

  it("fills a GC attachment's missing fields with Go's zero values", () => {
    expect(
      decodePluginConf({ type: "t", "cni.dev/valid-attachments": [{ containerID: "c" }] })
        .validAttachments,
    ).toEqual([{ containerID: "c", ifname: "" }]);
  });
});
