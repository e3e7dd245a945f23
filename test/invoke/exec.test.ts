/**
 * Executing a plugin, unit tests (upstream pkg/invoke/exec_test.go) with the fake executor,
 * plus fixupResultVersion's cases.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { CNIError } from "../../src/errors/index.js";
import { FakeCNIArgs, FakeExec } from "../../src/invoke/fake-exec.js";
import {
  execPluginWithoutResult,
  execPluginWithResult,
  getVersionInfo,
} from "../../src/invoke/index.js";
import { decodePluginResult } from "../../src/invoke/plugin-result.js";
import { ErrDecodingFailure } from "../../src/types/error-codes.js";
import { Result040, Result100 } from "../../src/types/index.js";
import { ipToString } from "../../src/types/ip.js";
import { fixupResultVersion } from "../../src/version/fixup-result.js";
import { current, pluginSupports } from "../../src/version/index.js";
import { rejection } from "./helpers.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("Executing a plugin, unit tests", () => {
  let pluginExec: FakeExec;
  let pluginPath: string;
  let netconf: Uint8Array;
  let cniargs: FakeCNIArgs;

  beforeEach(() => {
    pluginExec = new FakeExec();
    pluginExec.execPluginCall.returns.resultBytes = enc(
      '{ "cniVersion": "0.3.1", "ips": [ { "version": "4", "address": "1.2.3.4/24" } ] }',
    );
    pluginExec.decodeCall.returns.pluginInfo = pluginSupports("0.42.0");
    pluginPath = "/some/plugin/path";
    netconf = enc('{ "some": "stdin", "cniVersion": "0.3.1" }');
    cniargs = new FakeCNIArgs(["SOME=ENV"]);
  });

  describe("returning a result", () => {
    it("unmarshals the result bytes into the Result type", async () => {
      const r = await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec);
      const result = Result100.getResult(r);
      expect(result.ips).toHaveLength(1);
      expect(ipToString(result.ips[0].address.ip)).toBe("1.2.3.4");
    });

    it("passes its arguments through to the rawExec", async () => {
      const controller = new AbortController();
      await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec, {
        signal: controller.signal,
      });
      const { received } = pluginExec.execPluginCall;
      expect(received.pluginPath).toBe(pluginPath);
      expect(received.stdinData).toEqual(netconf);
      expect(received.environ).toEqual(["SOME=ENV"]);
      expect(received.signal).toBe(controller.signal);
    });

    it("returns the error when the rawExec fails", async () => {
      pluginExec.execPluginCall.returns.error = new Error("banana");
      await expect(execPluginWithResult(pluginPath, netconf, cniargs, pluginExec)).rejects.toThrow(
        /^banana$/,
      );
    });

    it("returns an error using the default exec interface", async () => {
      // The path does not exist: the error proves the default exec ran.
      const error = await rejection(execPluginWithResult(pluginPath, netconf, cniargs));
      expect(error.message).toBe(
        "netplugin failed with no error message: fork/exec /some/plugin/path: no such file or directory",
      );
    });

    it("assumes config version if result version is missing", async () => {
      pluginExec.execPluginCall.returns.resultBytes = enc(
        '{ "ips": [ { "version": "4", "address": "1.2.3.4/24" } ] }',
      );
      const r = await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec);
      expect(r.version()).toBe("0.3.1");
      expect(r).toBeInstanceOf(Result040);
      const result = Result100.getResult(r);
      expect(result.ips).toHaveLength(1);
      expect(ipToString(result.ips[0].address.ip)).toBe("1.2.3.4");
    });

    it("assumes config version if result version is empty", async () => {
      pluginExec.execPluginCall.returns.resultBytes = enc(
        '{ "cniVersion": "", "ips": [ { "version": "4", "address": "1.2.3.4/24" } ] }',
      );
      const r = await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec);
      expect(r.version()).toBe("0.3.1");
      expect(Result100.getResult(r).ips).toHaveLength(1);
    });

    it("assumes 0.1.0 if config and result version are empty", async () => {
      netconf = enc('{ "some": "stdin" }');
      pluginExec.execPluginCall.returns.resultBytes = enc('{ "some": "version-info" }');
      const r = await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec);
      expect(r.version()).toBe("0.1.0");
    });

    it("never converts: a result in another version than the config's stays in its own", async () => {
      pluginExec.execPluginCall.returns.resultBytes = enc('{ "cniVersion": "1.0.0" }');
      const r = await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec);
      expect(r.version()).toBe("1.0.0");
      expect(r).toBeInstanceOf(Result100);
    });

    it("takes `null` output as an empty result in the config's version", async () => {
      pluginExec.execPluginCall.returns.resultBytes = enc("null");
      const r = await execPluginWithResult(pluginPath, netconf, cniargs, pluginExec);
      expect(r.version()).toBe("0.3.1");
      expect(marshal(r)).toBe('{"cniVersion":"0.3.1","dns":{}}');
    });

    it("rejects non-JSON and partial output with Go's error texts", async () => {
      pluginExec.execPluginCall.returns.resultBytes = enc("hello");
      const e1 = await rejection(execPluginWithResult(pluginPath, netconf, cniargs, pluginExec));
      expect(e1.message).toBe(
        "failed to unmarshal raw result: invalid character 'h' looking for beginning of value",
      );
      expect(e1).toBeInstanceOf(CNIError);
      expect((e1 as CNIError).code).toBe(ErrDecodingFailure);

      pluginExec.execPluginCall.returns.resultBytes = enc('{"cniVersion":"0.3.1","ips":[');
      const e2 = await rejection(execPluginWithResult(pluginPath, netconf, cniargs, pluginExec));
      expect(e2.message).toBe("failed to unmarshal raw result: unexpected end of JSON input");

      pluginExec.execPluginCall.returns.resultBytes = new Uint8Array();
      const e3 = await rejection(execPluginWithResult(pluginPath, netconf, cniargs, pluginExec));
      expect(e3.message).toBe("failed to unmarshal raw result: unexpected end of JSON input");
    });

    it("rejects a config whose version does not decode", async () => {
      netconf = enc("{ not json");
      await expect(execPluginWithResult(pluginPath, netconf, cniargs, pluginExec)).rejects.toThrow(
        /^decoding version from network config: /,
      );
    });
  });

  describe("without returning a result", () => {
    it("passes its arguments through to the rawExec", async () => {
      await execPluginWithoutResult(pluginPath, netconf, cniargs, pluginExec);
      const { received } = pluginExec.execPluginCall;
      expect(received.pluginPath).toBe(pluginPath);
      expect(received.stdinData).toEqual(netconf);
      expect(received.environ).toEqual(["SOME=ENV"]);
    });

    it("returns the error when the rawExec fails", async () => {
      pluginExec.execPluginCall.returns.error = new Error("banana");
      await expect(
        execPluginWithoutResult(pluginPath, netconf, cniargs, pluginExec),
      ).rejects.toThrow(/^banana$/);
    });

    it("returns an error using the default exec interface", async () => {
      await expect(execPluginWithoutResult(pluginPath, netconf, cniargs)).rejects.toThrow(
        /no such file or directory/,
      );
    });

    it("ignores whatever the plugin prints", async () => {
      pluginExec.execPluginCall.returns.resultBytes = enc("not json at all");
      await expect(
        execPluginWithoutResult(pluginPath, netconf, cniargs, pluginExec),
      ).resolves.toBeUndefined();
    });
  });

  describe("discovering the plugin version", () => {
    beforeEach(() => {
      pluginExec.execPluginCall.returns.resultBytes = enc('{ "some": "version-info" }');
    });

    it("execs the plugin with the command VERSION", async () => {
      await getVersionInfo(pluginPath, pluginExec);
      const { received } = pluginExec.execPluginCall;
      expect(received.pluginPath).toBe(pluginPath);
      expect(received.environ).toContain("CNI_COMMAND=VERSION");
      expect(dec(received.stdinData)).toBe(`{"cniVersion":"${current()}"}`);
      expect(dec(received.stdinData)).toBe('{"cniVersion":"1.1.0"}');
    });

    it("decodes and returns the version info", async () => {
      const info = await getVersionInfo(pluginPath, pluginExec);
      expect(info.supportedVersions()).toEqual(["0.42.0"]);
      expect(JSON.parse(dec(pluginExec.decodeCall.received.jsonBytes))).toEqual({
        some: "version-info",
      });
    });

    it("returns the error when the rawExec fails", async () => {
      pluginExec.execPluginCall.returns.error = new Error("banana");
      await expect(getVersionInfo(pluginPath, pluginExec)).rejects.toThrow(/^banana$/);
    });

    describe("when the plugin is too old to recognize the VERSION command", () => {
      beforeEach(() => {
        pluginExec.execPluginCall.returns.error = new Error("unknown CNI_COMMAND: VERSION");
      });

      it("interprets the error as a 0.1.0 version", async () => {
        const info = await getVersionInfo(pluginPath, pluginExec);
        expect(info.supportedVersions()).toEqual(["0.1.0"]);
      });

      it("sets dummy values for env vars required by very old plugins", async () => {
        await getVersionInfo(pluginPath, pluginExec);
        const env = pluginExec.execPluginCall.received.environ;
        expect(env).toContain("CNI_NETNS=dummy");
        expect(env).toContain("CNI_IFNAME=dummy");
        expect(env).toContain("CNI_PATH=dummy");
        expect(env).toContain("CNI_CONTAINERID=");
        expect(env).toContain("CNI_ARGS=");
      });
    });

    it("only the exact text means an old plugin", async () => {
      pluginExec.execPluginCall.returns.error = new CNIError(
        4,
        "unknown CNI_COMMAND: VERSION",
        "extra",
      );
      await expect(getVersionInfo(pluginPath, pluginExec)).rejects.toThrow(
        "unknown CNI_COMMAND: VERSION; extra",
      );
    });
  });
});

describe("fixupResultVersion", () => {
  const conf = enc('{"cniVersion":"1.0.0"}');

  it("keeps the bytes untouched when the result has its own version", () => {
    const result = enc('{"cniVersion":"0.4.0", "z":1}');
    const fixed = fixupResultVersion(conf, result);
    expect(fixed.version).toBe("0.4.0");
    expect(fixed.bytes).toBe(result);
  });

  it("writes the config's version into a result without one, re-encoded as a Go map", () => {
    const fixed = fixupResultVersion(conf, enc('{"z":1,"a":"<x>","cniVersion":5}'));
    expect(fixed.version).toBe("1.0.0");
    expect(dec(fixed.bytes)).toBe('{"a":"\\u003cx\\u003e","cniVersion":"1.0.0","z":1}');
  });

  it("decodes a result without a version from its re-encoded bytes, as Go: of keys that fold together the last in sorted order", async () => {
    const cases: [string, (r: Result100) => unknown, unknown][] = [
      ['{"interfaces":[{"name":"eth0","Name":"ETH"}]}', (r) => r.interfaces[0]?.name, "eth0"],
      [
        '{"ips":[{"address":"10.0.0.2/24"}],"IPs":[{"address":"10.9.9.9/24"}]}',
        (r) => r.ips.length,
        1,
      ],
    ];
    for (const [stdout, read, want] of cases) {
      const result = await decodePluginResult(conf, enc(stdout));
      expect(read(result as Result100)).toBe(want);
    }
    const ips = (await decodePluginResult(conf, enc(cases[1][0]))) as Result100;
    expect(ipToString(ips.ips[0].address.ip)).toBe("10.0.0.2");
    await expect(decodePluginResult(conf, enc('{"cniversion":"0.4.0"}'))).rejects.toThrow(
      'result type supports [1.0.0 1.1.0] but unmarshalled CNIVersion is "0.4.0"',
    );
  });

  it("names the JSON kind Go names for a result that is not an object", () => {
    expect(() => fixupResultVersion(conf, enc("[1]"))).toThrow(
      "failed to unmarshal raw result: json: cannot unmarshal array into Go value of type map[string]interface {}",
    );
    expect(() => fixupResultVersion(conf, enc('"s"'))).toThrow(
      "json: cannot unmarshal string into Go value of type map[string]interface {}",
    );
    expect(() => fixupResultVersion(conf, enc("true"))).toThrow("cannot unmarshal bool");
    expect(() => fixupResultVersion(conf, enc("1"))).toThrow("cannot unmarshal number");
  });
});
