/**
 * Issue 11: the public paths that threw a plain Error/TypeError/RangeError now throw the
 * library's classes, with upstream's text unchanged (tests and the Go conformance suite compare
 * the text; the class is what changed).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CNIConfig } from "../src/api/cni-config.js";
import { cacheFilePath } from "../src/cache/results.js";
import { networkPluginConfFromBytes } from "../src/conf/index.js";
import {
  DecodeVersionError,
  InvalidArgumentError,
  LibcniError,
  PluginLookupError,
  PluginNotFoundError,
  PluginVersionError,
  PrevResultError,
  UnmarshalTypeError,
  UnsupportedValueError,
  VersionError,
} from "../src/errors/index.js";
import { findInPath } from "../src/invoke/index.js";
import { validateConfig } from "../src/skel/config.js";
import { cidrMask } from "../src/types/cidr.js";
import { CNIError, decodeVersion } from "../src/types/index.js";
import { ipMarshalText } from "../src/types/ip.js";
import { fixupResultVersion } from "../src/version/fixup-result.js";
import {
  decodePluginInfo,
  parsePrevResult,
  parseVersion,
  pluginSupports,
  versionsStartingFrom,
} from "../src/version/index.js";

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(LibcniError);
    return e as Error;
  }
  throw new Error("did not throw");
}

async function rejected(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(LibcniError);
    return e as Error;
  }
  throw new Error("did not reject");
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("version", () => {
  it("parseVersion throws VersionError with upstream's text, the strconv error as cause", () => {
    const e = thrown(() => parseVersion("1.2.3.4"));
    expect(e).toBeInstanceOf(VersionError);
    expect((e as VersionError).id).toBe("LIBCNI_ERR_VERSION");
    expect(e.message).toBe('invalid version "1.2.3.4": too many parts');
    const part = thrown(() => parseVersion("1.0.0-rc1"));
    expect(part).toBeInstanceOf(VersionError);
    expect(part.message).toBe(
      'failed to convert micro version part "0-rc1": strconv.Atoi: parsing "0-rc1": invalid syntax',
    );
    expect(part.cause).toBeInstanceOf(VersionError);
    expect(thrown(() => parseVersion("99999999999999999999")).message).toBe(
      'failed to convert major version part "99999999999999999999": strconv.Atoi: parsing "99999999999999999999": value out of range',
    );
  });

  it("decodePluginInfo, pluginSupports and versionsStartingFrom throw VersionError", () => {
    expect(thrown(() => decodePluginInfo(enc("{}")))).toBeInstanceOf(VersionError);
    expect(thrown(() => decodePluginInfo(enc("{}"))).message).toBe(
      "decoding version info: missing field cniVersion",
    );
    expect(thrown(() => decodePluginInfo(enc('{"cniVersion":"1.0.0"}'))).message).toBe(
      "decoding version info: missing field supportedVersions",
    );
    const bad = thrown(() => decodePluginInfo(enc("{")));
    expect(bad).toBeInstanceOf(VersionError);
    expect(bad.message).toMatch(/^decoding version info: /);
    expect(bad.cause).toBeInstanceOf(LibcniError);
    const none = thrown(() => pluginSupports());
    expect(none).toBeInstanceOf(VersionError);
    expect(none.message).toBe("programmer error: you must support at least one version");
    const unknown = thrown(() => versionsStartingFrom("9.9.9"));
    expect(unknown).toBeInstanceOf(VersionError);
    expect(unknown.message).toMatch(/^unknown CNI version "9\.9\.9": known versions are \[/);
  });

  it("parsePrevResult throws PrevResultError", () => {
    const e = thrown(() => parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: [1] }));
    expect(e).toBeInstanceOf(PrevResultError);
    expect((e as PrevResultError).id).toBe("LIBCNI_ERR_PREV_RESULT");
    expect(e.message).toBe(
      "could not parse prevResult: json: cannot unmarshal array into Go struct field PluginConf.prevResult of type map[string]interface {}",
    );
    const mismatch = thrown(() =>
      parsePrevResult({ cniVersion: "1.0.0", rawPrevResult: { cniVersion: "0.2.0" } }),
    );
    expect(mismatch).toBeInstanceOf(PrevResultError);
    expect(mismatch.message).toMatch(/^could not parse prevResult: result type supports/);
  });
});

describe("invoke", () => {
  it("findInPath throws PluginLookupError for a bad question, PluginNotFoundError for a missing plugin", async () => {
    for (const [plugin, paths, message] of [
      ["", ["/x"], "no plugin name provided"],
      ["a/b", ["/x"], "invalid plugin name: a/b"],
      ["p", [], "no paths provided"],
    ] as const) {
      const e = await rejected(findInPath(plugin, paths));
      expect(e).toBeInstanceOf(PluginLookupError);
      expect(e).not.toBeInstanceOf(PluginNotFoundError);
      expect((e as PluginLookupError).id).toBe("LIBCNI_ERR_PLUGIN_LOOKUP");
      expect(e.message).toBe(message);
    }
    const dir = await mkdtemp(join(tmpdir(), "e11-find-"));
    try {
      const e = await rejected(findInPath("nope", [dir, "/nonexistent-e11"]));
      expect(e).toBeInstanceOf(PluginNotFoundError);
      expect(e).toBeInstanceOf(PluginLookupError);
      const nf = e as PluginNotFoundError;
      expect(nf.id).toBe("LIBCNI_ERR_PLUGIN_NOT_FOUND");
      expect(nf.message).toBe(`failed to find plugin "nope" in path [${dir} /nonexistent-e11]`);
      expect(nf.plugin).toBe("nope");
      expect(nf.paths).toEqual([dir, "/nonexistent-e11"]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("fixupResultVersion's non-object result: code 6 with Go's type error as a typed cause", () => {
    const e = thrown(() => fixupResultVersion(enc('{"cniVersion":"1.0.0"}'), enc("[1]")));
    expect(e).toBeInstanceOf(CNIError);
    expect((e as CNIError).code).toBe(6);
    expect(e.message).toBe(
      "failed to unmarshal raw result: json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
    expect(e.cause).toBeInstanceOf(UnmarshalTypeError);
  });

  it("validatePlugin throws PluginVersionError", async () => {
    const exec = {
      async execPlugin(): Promise<Uint8Array> {
        return enc('{"cniVersion":"1.0.0","supportedVersions":["1.0.0"]}');
      },
      async findInPath(plugin: string): Promise<string> {
        return `/fake/${plugin}`;
      },
      decode: decodePluginInfo,
    };
    const cni = new CNIConfig({ path: ["/fake"], exec });
    const net = networkPluginConfFromBytes(enc('{"cniVersion":"1.1.0","name":"n","type":"t"}'));
    const e = await rejected(cni.validateNetwork(net));
    expect(e).toBeInstanceOf(PluginVersionError);
    expect((e as PluginVersionError).id).toBe("LIBCNI_ERR_PLUGIN_VERSION");
    expect(e.message).toBe('plugin t does not support config version "1.1.0"');
  });
});

describe("types and skel", () => {
  it("decodeVersion of a non-object: DecodeVersionError with a typed cause", () => {
    const e = thrown(() => decodeVersion(enc("[]")));
    expect(e).toBeInstanceOf(DecodeVersionError);
    expect(e.cause).toBeInstanceOf(UnmarshalTypeError);
    expect(e.message).toBe(
      'decoding version from network config: json: cannot unmarshal array into Go value of type struct { CNIVersion string "json:\\"cniVersion\\"" }',
    );
  });

  it("cidrMask out of range is an InvalidArgumentError; ipMarshalText of a bad length is UnsupportedValueError", () => {
    const mask = thrown(() => cidrMask(33, 32));
    expect(mask).toBeInstanceOf(InvalidArgumentError);
    expect(mask.message).toBe("invalid mask /33 of 32 bits");
    const ip = thrown(() => ipMarshalText(Uint8Array.from([1, 2, 3])));
    expect(ip).toBeInstanceOf(UnsupportedValueError);
    expect(ip.message).toBe(
      "json: error calling MarshalText for type net.IP: address 010203: invalid IP address",
    );
  });

  it("skel's config check: code 6 with a typed cause for a non-object config", () => {
    const e = validateConfig(enc("7"));
    expect(e).toBeInstanceOf(CNIError);
    expect(e?.code).toBe(6);
    expect(e?.cause).toBeInstanceOf(UnmarshalTypeError);
    expect(e?.message).toBe(
      'error unmarshall network config: json: cannot unmarshal number into Go value of type struct { Name string "json:\\"name\\"" }',
    );
  });
});

describe("api", () => {
  it("cacheFilePath with an empty part is an InvalidArgumentError naming it", () => {
    const e = thrown(() => cacheFilePath("/c", "net", "", "eth0"));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect((e as InvalidArgumentError).argument).toBe("containerID");
    expect(e.message).toBe(
      'cache file path requires network name ("net"), container ID (""), and interface name ("eth0")',
    );
  });
});
