// Upstream api_test.go: "Capabilities" and "Invoking a single plugin", with the noop fixture.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, type RuntimeConf } from "../../src/api/index.js";
import type { PluginConfig } from "../../src/conf/index.js";
import { marshal } from "../../src/encoding/json.js";
import { CheckNotSupportedError, CNIError, ErrorCheckNotSupp } from "../../src/errors/index.js";
import { readDebug, stdinText, writeDebug } from "../fixtures/plugins/noop-debug.js";
import {
  debugFiles,
  failure,
  pluginConf,
  portMapping,
  type Sandbox,
  sandbox,
  writeCacheFile,
} from "./helpers.js";

const current = "1.1.0";
const b64 = (s: string): string => Buffer.from(s).toString("base64");

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

describe("Capabilities", () => {
  let debugPath: string;
  let netConfig: PluginConfig;
  let cni: CNIConfig;
  let rt: RuntimeConf;

  beforeEach(async () => {
    ({ debug: debugPath } = await debugFiles(box, {
      reportResult: `{"cniVersion": "${current}", "ips": [{"address": "10.1.2.3/24"}], "dns": {}}`,
    }));
    netConfig = pluginConf(`{
      "type": "noop",
      "name": "apitest",
      "cniVersion": "${current}",
      "capabilities": {
        "portMappings": true,
        "somethingElse": true,
        "noCapability": false
      }
    }`);
    cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
    rt = {
      containerID: "some-container-id",
      netNS: "/some/netns/path",
      ifName: "some-eth0",
      args: [["DEBUG", debugPath]],
      capabilityArgs: {
        portMappings: [portMapping(8080, 80, "tcp")],
        somethingElse: ["foobar", "baz"],
        noCapability: true,
        notAdded: [true, false],
      },
    };
  });

  it("adds correct runtime config for capabilities to stdin", async () => {
    await cni.addNetwork(netConfig, rt);
    const debug = await readDebug(debugPath);
    expect(debug.command).toBe("ADD");
    // Only the capabilities the plugin declares true, in Go's byte order; the struct keeps its order.
    expect(stdinText(debug)).toBe(
      `{"capabilities":{"noCapability":false,"portMappings":true,"somethingElse":true},"cniVersion":"1.1.0",` +
        `"name":"apitest","runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}],` +
        `"somethingElse":["foobar","baz"]},"type":"noop"}`,
    );
  });

  it("adds no runtimeConfig when the plugin advertises no used capabilities", async () => {
    rt.capabilityArgs = {
      portMappings22: [portMapping(8080, 80, "tcp")],
      somethingElse22: ["foobar", "baz"],
    };
    await cni.addNetwork(netConfig, rt);
    const debug = await readDebug(debugPath);
    expect(debug.command).toBe("ADD");
    expect(stdinText(debug)).not.toContain("runtimeConfig");
  });

  it("keeps a runtimeConfig already in the configuration when nothing is injected, replaces it otherwise", async () => {
    const withRc = pluginConf(
      `{"type":"noop","name":"apitest","cniVersion":"${current}","capabilities":{"portMappings":true},"runtimeConfig":{"mine":1}}`,
    );
    await cni.addNetwork(withRc, { ...rt, capabilityArgs: {} });
    expect(stdinText(await readDebug(debugPath))).toContain('"runtimeConfig":{"mine":1}');
    await cni.addNetwork(withRc, rt);
    expect(stdinText(await readDebug(debugPath))).toContain(
      '"runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]}',
    );
  });

  it("outputs correct capabilities for validate, sorted", async () => {
    expect(await cni.validateNetwork(netConfig)).toEqual(["portMappings", "somethingElse"]);
  });
});

describe("Invoking a single plugin", () => {
  let debugPath: string;
  let pluginConfig: string;
  let netConfig: PluginConfig;
  let cni: CNIConfig;
  let rt: RuntimeConf;
  // The exact stdin Go's libcni sends: name and cniVersion injected, runtimeConfig added, keys sorted.
  const expectedStdin =
    `{"capabilities":{"portMappings":true},"cniVersion":"1.1.0","name":"apitest",` +
    `"runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},` +
    `"some-key":"some-value","type":"noop"}`;

  beforeEach(async () => {
    ({ debug: debugPath } = await debugFiles(box, {
      reportResult: `{"cniVersion": "${current}", "ips": [{"address": "10.1.2.3/24"}], "dns": {}}`,
    }));
    pluginConfig = `{
      "type": "noop",
      "name": "apitest",
      "some-key": "some-value",
      "cniVersion": "${current}",
      "capabilities": { "portMappings": true }
    }`;
    cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
    netConfig = pluginConf(pluginConfig);
    rt = {
      containerID: "some-container-id",
      netNS: "/some/netns/path",
      ifName: "some-eth0",
      args: [["DEBUG", debugPath]],
      capabilityArgs: { portMappings: [portMapping(8080, 80, "tcp")] },
    };
  });

  const expectedCmdArgs = () => ({
    containerID: "some-container-id",
    netns: "/some/netns/path",
    ifName: "some-eth0",
    args: `DEBUG=${debugPath}`,
    path: box.binDir,
    netnsOverride: "",
  });

  const cachePath = () => join(box.cacheDir, "results", "apitest-some-container-id-some-eth0");

  describe("addNetwork", () => {
    it("executes the plugin with command ADD, and caches result, config, args and capability args", async () => {
      const result = await cni.addNetwork(netConfig, rt);
      expect(result.version()).toBe("1.1.0");
      expect(marshal(result)).toBe('{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}');

      const debug = await readDebug(debugPath);
      expect(debug.command).toBe("ADD");
      const { stdinData: _, ...cmdArgs } = debug.cmdArgs;
      expect(cmdArgs).toEqual(expectedCmdArgs());
      expect(stdinText(debug)).toBe(expectedStdin);

      // The record, byte for byte as Go writes it.
      expect(readFileSync(cachePath(), "utf8")).toBe(
        `{"kind":"cniCacheV1","containerId":"some-container-id","config":"${b64(pluginConfig)}","ifName":"some-eth0",` +
          `"networkName":"apitest","netns":"/some/netns/path","cniArgs":[["DEBUG",${marshal(debugPath)}]],` +
          `"capabilityArgs":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},` +
          `"result":{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}}`,
      );
      expect(statSync(cachePath()).mode & 0o777).toBe(0o600);
      expect(statSync(join(box.cacheDir, "results")).mode & 0o777).toBe(0o700);

      const cached = await cni.getNetworkCachedConfig(netConfig, rt);
      expect(Buffer.from(cached!.config!).toString()).toBe(pluginConfig);
      expect(cached!.rt.args).toEqual(rt.args);
      expect(marshal(cached!.rt.capabilityArgs)).toBe(
        '{"portMappings":[{"containerPort":80,"hostPort":8080,"protocol":"tcp"}]}',
      );

      const cachedResult = await cni.getNetworkCachedResult(netConfig, rt);
      expect(marshal(cachedResult)).toBe(marshal(result));

      for (const containerID of ["", rt.containerID]) {
        const attachments = await cni.getCachedAttachments(containerID);
        expect(attachments).toHaveLength(1);
        expect({
          ...attachments[0],
          config: Buffer.from(attachments[0].config!).toString(),
        }).toEqual({
          containerID: rt.containerID,
          network: "apitest",
          netNS: rt.netNS,
          ifName: rt.ifName,
          config: pluginConfig,
          cniArgs: rt.args,
          capabilityArgs: {
            portMappings: [{ containerPort: 80, hostPort: 8080, protocol: "tcp" }],
          },
        });
      }
    });

    it("returns the error when finding the plugin fails", async () => {
      netConfig.network.type = "does-not-exist";
      await expect(cni.addNetwork(netConfig, rt)).rejects.toThrow(
        `failed to find plugin "does-not-exist"`,
      );
    });

    it("unmarshals and returns the plugin's error, and caches nothing", async () => {
      await writeDebug(debugPath, { reportError: "plugin error: banana" });
      const error = await cni.addNetwork(netConfig, rt).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CNIError);
      expect((error as CNIError).message).toBe("plugin error: banana");
      expect((error as CNIError).code).toBe(999);
      expect(existsSync(cachePath())).toBe(false);
    });

    it("returns an error when the cache directory cannot be accessed", async () => {
      writeFileSync(join(box.cacheDir, "results"), "afdsasdfasdf");
      await expect(cni.addNetwork(netConfig, rt)).rejects.toThrow(
        `failed to set network "apitest" cached result: mkdir ${join(box.cacheDir, "results")}: not a directory (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)`,
      );
    });
  });

  describe("checkNetwork", () => {
    const cachedJson = `{"cniVersion": "${current}", "ips": [{"address": "10.1.2.3/24"}]}`;

    it("executes the plugin with command CHECK and the cached result (legacy format) as prevResult", async () => {
      writeCacheFile(box, "apitest-some-container-id-some-eth0", cachedJson);
      await cni.checkNetwork(netConfig, rt);
      const debug = await readDebug(debugPath);
      expect(debug.command).toBe("CHECK");
      expect(stdinText(debug)).toBe(
        `{"capabilities":{"portMappings":true},"cniVersion":"1.1.0","name":"apitest",` +
          `"prevResult":{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]},` +
          `"runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},` +
          `"some-key":"some-value","type":"noop"}`,
      );
      const { stdinData: _, ...cmdArgs } = debug.cmdArgs;
      expect(cmdArgs).toEqual(expectedCmdArgs());
    });

    it("returns the error when finding the plugin fails", async () => {
      netConfig.network.type = "does-not-exist";
      await expect(cni.checkNetwork(netConfig, rt)).rejects.toThrow(
        `failed to find plugin "does-not-exist"`,
      );
    });

    it("unmarshals and returns the plugin's error", async () => {
      await writeDebug(debugPath, { reportError: "plugin error: banana" });
      const error = await failure(cni.checkNetwork(netConfig, rt));
      expect(error).toBeInstanceOf(CNIError);
      expect(error.message).toBe("plugin error: banana");
    });

    it("fails before 0.4.0 as CHECK is not supported, without running the plugin", async () => {
      const old = pluginConf(`{"type": "noop", "name": "apitest", "cniVersion": "0.3.1"}`);
      const error = await cni.checkNetwork(old, rt).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CheckNotSupportedError);
      expect((error as Error).message).toBe(
        'configuration version "0.3.1" does not support the CHECK command',
      );
      expect((error as Error).cause).toBe(ErrorCheckNotSupp);
      expect((await readDebug(debugPath)).command).toBe("");
    });

    it("passes only a prevResult (not the record's other fields) from a record ADD wrote", async () => {
      await cni.addNetwork(netConfig, rt);
      await cni.checkNetwork(netConfig, rt);
      const text = stdinText(await readDebug(debugPath));
      expect(text).toContain(
        '"prevResult":{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}',
      );
      expect(text).not.toContain('"config":');
      expect(text).not.toContain('"kind":');
    });

    it("passes a 0.4.0 prevResult in 0.4.0's struct order at 0.4.0, re-sorted when runtimeConfig is injected", async () => {
      const ipResult = `{"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`;
      writeCacheFile(box, "apitest-some-container-id-some-eth0", ipResult);
      const conf040 = pluginConf(
        `{"type": "noop", "name": "apitest", "cniVersion": "0.4.0", "capabilities": {"portMappings": true, "somethingElse": true, "noCapability": false}}`,
      );
      await writeDebug(debugPath, { reportResult: ipResult });
      await cni.checkNetwork(conf040, rt);
      // The second injection (runtimeConfig) re-reads the prevResult as a map: keys sorted, as Go.
      expect(stdinText(await readDebug(debugPath))).toContain(
        '"prevResult":{"cniVersion":"0.4.0","dns":{},"ips":[{"address":"10.1.2.3/24","version":"4"}]}',
      );
      // Without a runtimeConfig the prevResult keeps the 0.4.0 struct order.
      await cni.checkNetwork(conf040, { ...rt, capabilityArgs: undefined });
      expect(stdinText(await readDebug(debugPath))).toBe(
        `{"capabilities":{"noCapability":false,"portMappings":true,"somethingElse":true},"cniVersion":"0.4.0",` +
          `"name":"apitest","prevResult":{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.2.3/24"}],` +
          `"dns":{}},"type":"noop"}`,
      );
    });

    it("converts a cached result whose version differs from the config's", async () => {
      writeCacheFile(
        box,
        "apitest-some-container-id-some-eth0",
        `{"cniVersion": "0.3.1", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`,
      );
      await cni.checkNetwork(netConfig, rt);
      expect(stdinText(await readDebug(debugPath))).toContain(
        '"prevResult":{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}',
      );
    });

    it("returns an error when the cached result cannot be converted", async () => {
      writeCacheFile(
        box,
        "apitest-some-container-id-some-eth0",
        `{"cniVersion": "0.4567.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`,
      );
      expect((await failure(cni.checkNetwork(netConfig, rt))).message).toBe(
        'failed to get network "apitest" cached result: unsupported CNI result version "0.4567.0"',
      );
      expect((await readDebug(debugPath)).command).toBe("");
    });

    // Upstream's CheckNetwork "is invalid JSON": CHECK fails and runs nothing (DEL tolerates it).
    it.each([
      [
        "invalid JSON",
        "adfadsfasdfasfdsafaf",
        "decoding version from network config: invalid character 'a' looking for beginning of value",
      ],
      [
        "a zero-byte file",
        "",
        "decoding version from network config: unexpected end of JSON input",
      ],
      [
        "a torn record",
        '{"kind":"cniCacheV1","containerId":"some-cont',
        "decoding version from network config: unexpected end of JSON input",
      ],
    ])("fails on %s with upstream's error, running nothing", async (_what, content, cause) => {
      writeCacheFile(box, "apitest-some-container-id-some-eth0", content);
      expect((await failure(cni.checkNetwork(netConfig, rt))).message).toBe(
        `failed to get network "apitest" cached result: ${cause}`,
      );
      expect((await readDebug(debugPath)).command).toBe("");
      // CHECK only reads: the record stays for DEL to deal with.
      expect(readFileSync(cachePath(), "utf8")).toBe(content);
    });
  });

  describe("delNetwork", () => {
    const cachedJson = `{"cniVersion": "${current}", "ips": [{"address": "10.1.2.3/24"}]}`;

    it("executes the plugin with command DEL and the cached result, then removes the record", async () => {
      writeCacheFile(box, "apitest-some-container-id-some-eth0", cachedJson);
      await cni.delNetwork(netConfig, rt);
      const debug = await readDebug(debugPath);
      expect(debug.command).toBe("DEL");
      expect(stdinText(debug)).toBe(
        `{"capabilities":{"portMappings":true},"cniVersion":"1.1.0","name":"apitest",` +
          `"prevResult":{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]},` +
          `"runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},` +
          `"some-key":"some-value","type":"noop"}`,
      );
      const { stdinData: _, ...cmdArgs } = debug.cmdArgs;
      expect(cmdArgs).toEqual(expectedCmdArgs());
      expect(await cni.getNetworkCachedResult(netConfig, rt)).toBeUndefined();
      expect(await cni.getNetworkCachedConfig(netConfig, rt)).toBeUndefined();
      for (const containerID of ["", rt.containerID]) {
        expect(await cni.getCachedAttachments(containerID)).toEqual([]);
      }
    });

    it("returns the error when finding the plugin fails", async () => {
      netConfig.network.type = "does-not-exist";
      await expect(cni.delNetwork(netConfig, rt)).rejects.toThrow(
        `failed to find plugin "does-not-exist"`,
      );
    });

    it("unmarshals and returns the plugin's error, keeping the record for a retry", async () => {
      writeCacheFile(box, "apitest-some-container-id-some-eth0", cachedJson);
      await writeDebug(debugPath, { reportError: "plugin error: banana" });
      const error = await failure(cni.delNetwork(netConfig, rt));
      expect(error).toBeInstanceOf(CNIError);
      expect(error.message).toBe("plugin error: banana");
      expect(readFileSync(cachePath(), "utf8")).toBe(cachedJson);
    });

    it("deletes the cached result after the first DEL, and a second DEL succeeds", async () => {
      writeCacheFile(
        box,
        "apitest-some-container-id-some-eth0",
        `{"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`,
      );
      await cni.delNetwork(netConfig, rt);
      expect(existsSync(cachePath())).toBe(false);
      await cni.delNetwork(netConfig, rt);
      const debug = await readDebug(debugPath);
      expect(debug.command).toBe("DEL");
      expect(stdinText(debug)).toBe(expectedStdin);
    });

    it("does not pass a prevResult below 0.4.0", async () => {
      writeCacheFile(
        box,
        "apitest-some-container-id-some-eth0",
        `{"cniVersion": "0.3.1", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`,
      );
      const old = pluginConf(`{"type": "noop", "name": "apitest", "cniVersion": "0.3.1"}`);
      await cni.delNetwork(old, rt);
      const debug = await readDebug(debugPath);
      expect(debug.command).toBe("DEL");
      expect(stdinText(debug)).toBe('{"cniVersion":"0.3.1","name":"apitest","type":"noop"}');
    });

    it("passes a prevResult at 0.4.0", async () => {
      writeCacheFile(
        box,
        "apitest-some-container-id-some-eth0",
        `{"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`,
      );
      await cni.delNetwork(
        pluginConf(`{"type": "noop", "name": "apitest", "cniVersion": "0.4.0"}`),
        rt,
      );
      expect(stdinText(await readDebug(debugPath))).toBe(
        '{"cniVersion":"0.4.0","name":"apitest","prevResult":{"cniVersion":"0.4.0",' +
          '"ips":[{"version":"4","address":"10.1.2.3/24"}],"dns":{}},"type":"noop"}',
      );
    });

    it.each([
      ["invalid JSON", "adfadsfasdfasfdsafaf"],
      ["a zero-byte file", ""],
      ["an unconvertible version", `{"cniVersion": "0.4567.0", "ips": [], "dns": {}}`],
    ])("tolerates %s: DEL runs without prevResult and the record is removed", async (_what, content) => {
      writeCacheFile(box, "apitest-some-container-id-some-eth0", content);
      await cni.delNetwork(netConfig, rt);
      const debug = await readDebug(debugPath);
      expect(debug.command).toBe("DEL");
      expect(stdinText(debug)).toBe(expectedStdin);
      expect(existsSync(cachePath())).toBe(false);
    });

    it("removes a corrupt record before running the plugin, as upstream, even when the plugin fails", async () => {
      writeCacheFile(box, "apitest-some-container-id-some-eth0", "");
      await writeDebug(debugPath, { reportError: "plugin error: banana" });
      expect((await failure(cni.delNetwork(netConfig, rt))).message).toBe("plugin error: banana");
      expect(existsSync(cachePath())).toBe(false);
    });

    it("succeeds when the cached result can be converted", async () => {
      writeCacheFile(
        box,
        "apitest-some-container-id-some-eth0",
        `{"cniVersion": "0.3.1", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`,
      );
      await cni.delNetwork(netConfig, rt);
      expect(stdinText(await readDebug(debugPath))).toContain(
        '"prevResult":{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}',
      );
    });

    it("fails on a version that does not parse, before anything runs", async () => {
      await expect(
        cni.delNetwork(pluginConf(`{"type": "noop", "name": "apitest", "cniVersion": "1.x"}`), rt),
      ).rejects.toThrow();
      expect((await readDebug(debugPath)).command).toBe("");
    });
  });

  describe("getVersionInfo", () => {
    it("executes the plugin with the command VERSION", async () => {
      const info = await cni.getVersionInfo("noop");
      expect(info.supportedVersions()).toEqual([
        "0.-42.0",
        "0.1.0",
        "0.2.0",
        "0.3.0",
        "0.3.1",
        "0.4.0",
        "1.0.0",
        "1.1.0",
      ]);
    });

    it("returns the error when finding the plugin fails", async () => {
      await expect(cni.getVersionInfo("does-not-exist")).rejects.toThrow(
        `failed to find plugin "does-not-exist"`,
      );
    });
  });

  describe("validateNetwork", () => {
    it("validates a good configuration", async () => {
      expect(await cni.validateNetwork(netConfig)).toEqual(["portMappings"]);
    });

    it("catches non-existent plugins", async () => {
      netConfig.network.type = "nope";
      expect((await failure(cni.validateNetwork(netConfig))).message).toBe(
        `failed to find plugin "nope" in path [${box.binDir}]`,
      );
    });

    it("catches unsupported versions", async () => {
      netConfig.network.cniVersion = "broken";
      expect((await failure(cni.validateNetwork(netConfig))).message).toBe(
        'plugin noop does not support config version "broken"',
      );
    });

    it("allows version to be omitted", async () => {
      netConfig.network.cniVersion = "";
      await expect(cni.validateNetwork(netConfig)).resolves.toEqual(["portMappings"]);
    });
  });

  it("writes nothing outside results/ and leaves no temporary file", async () => {
    await cni.addNetwork(netConfig, rt);
    await cni.checkNetwork(netConfig, rt);
    expect(readdirSync(box.cacheDir)).toEqual(["results"]);
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([
      "apitest-some-container-id-some-eth0",
    ]);
    await cni.delNetwork(netConfig, rt);
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([]);
  });
});
