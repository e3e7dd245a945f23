// Upstream api_test.go: "Invoking a plugin list" (ADD, CHECK, DEL, validation, GC, STATUS) with
// three noop plugins: one reporting a result, one PASSTHROUGH, one INJECT-DNS.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, type RuntimeConf } from "../../src/api/index.js";
import type { NetworkConfigList } from "../../src/conf/index.js";
import { marshal } from "../../src/encoding/json.js";
import {
  CacheRecordRemoveError,
  CheckNotSupportedError,
  CNIError,
  ErrorCheckNotSupp,
  MultiError,
  PluginChainError,
} from "../../src/errors/index.js";
import {
  readCommandLog,
  readDebug,
  stdinText,
  writeDebug,
} from "../fixtures/plugins/noop-debug.js";
import {
  confList,
  failure,
  makePluginList,
  type PluginInfo,
  portMapping,
  type Sandbox,
  sandbox,
  writeCacheFile,
} from "./helpers.js";

let box: Sandbox;
let cni: CNIConfig;
let rt: RuntimeConf;
let list: NetworkConfigList;
let plugins: PluginInfo[];
const ipResult = `{"cniVersion": "1.1.0", "ips":[{"address": "10.1.2.3/24"}]}`;
const cacheName = "some-list-some-container-id-some-eth0";

beforeEach(async () => {
  box = sandbox();
  cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
  rt = {
    containerID: "some-container-id",
    netNS: "/some/netns/path",
    ifName: "some-eth0",
    args: [["FOO", "BAR"]],
    capabilityArgs: { portMappings: [portMapping(8080, 80, "tcp")], otherCapability: 33 },
  };
  ({ list, plugins } = await makePluginList(box, "1.1.0", ipResult));
});
afterEach(() => box.cleanup());

const q = (s: string): string => marshal(s);

/**
 * The exact stdin of plugin i, as Go's libcni builds it: the plugin's keys sorted, name and
 * cniVersion injected, prevResult when given, runtimeConfig from the declared capabilities.
 */
function stdinOf(i: number, version: string, prevResult: string | undefined): string {
  const p = plugins[i];
  const common = `"commandLog":${q(p.log)},"debugFile":${q(p.debug)},"name":"some-list"`;
  const prev = prevResult === undefined ? "" : `"prevResult":${prevResult},`;
  switch (i) {
    case 0:
      return (
        `{"capabilities":{"otherCapability":true,"portMappings":true},"cniVersion":"${version}",${common},${prev}` +
        `"runtimeConfig":{"otherCapability":33,"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},` +
        `"some-key":"some-value","type":"noop"}`
      );
    case 1:
      return (
        `{"capabilities":{"otherCapability":true},"cniVersion":"${version}",${common},${prev}` +
        `"runtimeConfig":{"otherCapability":33},"some-key":"some-other-value","type":"noop"}`
      );
    default:
      return `{"cniVersion":"${version}",${common},${prev}"some-key":"yet-another-value","type":"noop"}`;
  }
}

const sortedIpResult = '{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24"}]}';

const expectedCmdArgs = () => ({
  containerID: "some-container-id",
  netns: "/some/netns/path",
  ifName: "some-eth0",
  args: "FOO=BAR",
  path: box.binDir,
  netnsOverride: "",
});

describe("addNetworkList", () => {
  it("executes all plugins with command ADD, each result the next one's prevResult", async () => {
    const result = await cni.addNetworkList(list, rt);
    // IP from the first plugin, DNS injected by the last.
    expect(marshal(result)).toBe(
      '{"cniVersion":"1.1.0","dns":{"nameservers":["1.2.3.4"]},"ips":[{"address":"10.1.2.3/24"}]}',
    );
    const prevResults = [undefined, sortedIpResult, sortedIpResult];
    for (let i = 0; i < 3; i++) {
      const debug = await readDebug(plugins[i].debug);
      expect(debug.command).toBe("ADD");
      expect(stdinText(debug)).toBe(stdinOf(i, "1.1.0", prevResults[i]));
      const { stdinData: _, ...cmdArgs } = debug.cmdArgs;
      expect(cmdArgs).toEqual(expectedCmdArgs());
    }
  });

  it("writes the correct cached result and config, byte for byte", async () => {
    const result = await cni.addNetworkList(list, rt);
    expect(marshal(await cni.getNetworkListCachedResult(list, rt))).toBe(marshal(result));
    const cached = await cni.getNetworkListCachedConfig(list, rt);
    expect(cached?.config).toEqual(list.bytes);
    expect(cached?.rt.args).toEqual(rt.args);
    expect(marshal(cached?.rt.capabilityArgs)).toBe(
      '{"otherCapability":33,"portMappings":[{"containerPort":80,"hostPort":8080,"protocol":"tcp"}]}',
    );
    expect(readFileSync(join(box.cacheDir, "results", cacheName), "utf8")).toBe(
      `{"kind":"cniCacheV1","containerId":"some-container-id","config":"${Buffer.from(list.bytes).toString("base64")}",` +
        `"ifName":"some-eth0","networkName":"some-list","netns":"/some/netns/path","cniArgs":[["FOO","BAR"]],` +
        `"capabilityArgs":{"otherCapability":33,"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]},` +
        `"result":{"cniVersion":"1.1.0","dns":{"nameservers":["1.2.3.4"]},"ips":[{"address":"10.1.2.3/24"}]}}`,
    );
  });

  it("returns the error when finding a plugin fails, wrapped with the plugin", async () => {
    list.plugins[1].network.type = "does-not-exist";
    const error = await failure(cni.addNetworkList(list, rt));
    expect(error).toBeInstanceOf(PluginChainError);
    expect(error.message).toBe(
      `plugin type="does-not-exist" failed (add): failed to find plugin "does-not-exist" in path [${box.binDir}]`,
    );
  });

  const invalid: [string, (r: RuntimeConf, l: NetworkConfigList) => void, CNIError][] = [
    [
      "an invalid containerID",
      (r) => {
        r.containerID = "some-%%container-id";
      },
      new CNIError(4, "invalid characters in containerID", "some-%%container-id"),
    ],
    [
      "an invalid networkName",
      (_r, l) => {
        l.name = "invalid-%%-name";
      },
      new CNIError(7, "invalid characters found in network name", "invalid-%%-name"),
    ],
    [
      "an empty interface name",
      (r) => {
        r.ifName = "";
      },
      new CNIError(4, "interface name is empty"),
    ],
    [
      "a too long interface name",
      (r) => {
        r.ifName = "1234567890123456";
      },
      new CNIError(
        4,
        "interface name is too long",
        "interface name should be less than 16 characters",
      ),
    ],
    [
      "interface name .",
      (r) => {
        r.ifName = ".";
      },
      new CNIError(4, "interface name is . or .."),
    ],
    [
      "interface name ..",
      (r) => {
        r.ifName = "..";
      },
      new CNIError(4, "interface name is . or .."),
    ],
    ...["test/test", "test:test", "test test"].map(
      (name): [string, (r: RuntimeConf) => void, CNIError] => [
        `interface name ${name}`,
        (r) => {
          r.ifName = name;
        },
        new CNIError(4, "interface name contains / or : or whitespace characters"),
      ],
    ),
  ];
  for (const [what, mutate, expected] of invalid) {
    it(`returns upstream's error for ${what}, wrapped, before running any plugin`, async () => {
      mutate(rt, list);
      const error = await failure(cni.addNetworkList(list, rt));
      expect(error).toBeInstanceOf(PluginChainError);
      expect(error.message).toBe(`plugin type="noop" failed (add): ${expected.message}`);
      const cause = error.cause as CNIError;
      expect(cause).toBeInstanceOf(CNIError);
      expect(cause.toJSON()).toEqual(expected.toJSON());
      expect((await readDebug(plugins[0].debug)).command).toBe("");
      expect(existsSync(join(box.cacheDir, "results"))).toBe(false);
    });
  }

  it("when the second plugin errors: unwraps to the plugin's error, runs no further plugin, caches nothing", async () => {
    await writeDebug(plugins[1].debug, { reportError: "plugin error: banana" });
    const error = await failure(cni.addNetworkList(list, rt));
    expect(error.message).toBe('plugin type="noop" failed (add): plugin error: banana');
    expect(error.cause).toBeInstanceOf(CNIError);
    expect((error.cause as CNIError).message).toBe("plugin error: banana");
    expect((await readDebug(plugins[2].debug)).command).toBe("");
    expect(existsSync(join(box.cacheDir, "results", cacheName))).toBe(false);
  });

  it("returns an error when the results cache file cannot be written", async () => {
    writeFileSync(join(box.cacheDir, "results"), "afdsasdfasdf");
    const error = await failure(cni.addNetworkList(list, rt));
    // Go's text, exactly: os.MkdirAll's PathError for a path that is not a directory.
    expect(error.message).toBe(
      `failed to set network "some-list" cached result: mkdir ${join(box.cacheDir, "results")}: not a directory (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)`,
    );
  });

  it("ADD over a list without plugins returns no result and caches the attachment, as upstream", async () => {
    const empty = confList('{"name":"empty-net","cniVersion":"1.1.0"}');
    expect(await cni.addNetworkList(empty, rt)).toBeUndefined();
    const attachments = await cni.getCachedAttachments("some-container-id");
    expect(attachments.map((a) => a.network)).toEqual(["empty-net"]);
    expect(
      readFileSync(join(box.cacheDir, "results", "empty-net-some-container-id-some-eth0"), "utf8"),
    ).not.toContain('"result"');
  });
});

describe("checkNetworkList", () => {
  it("executes all plugins with command CHECK, each with the cached result", async () => {
    writeCacheFile(box, cacheName, ipResult);
    await cni.checkNetworkList(list, rt);
    for (let i = 0; i < 3; i++) {
      const debug = await readDebug(plugins[i].debug);
      expect(debug.command).toBe("CHECK");
      expect(stdinText(debug)).toBe(stdinOf(i, "1.1.0", sortedIpResult));
      const { stdinData: _, ...cmdArgs } = debug.cmdArgs;
      expect(cmdArgs).toEqual(expectedCmdArgs());
    }
  });

  it("uses a record the caller read (cachedRecord) and reads none", async () => {
    // The file holds another result, never read: CHECK and the cached result use the one given.
    writeCacheFile(box, cacheName, `{"cniVersion": "1.1.0", "ips":[{"address": "10.9.9.9/24"}]}`);
    const cachedRecord = new TextEncoder().encode(
      marshal({ kind: "cniCacheV1", result: JSON.parse(ipResult) }),
    );
    await cni.checkNetworkList(list, rt, { cachedRecord });
    expect(stdinText(await readDebug(plugins[0].debug))).toBe(stdinOf(0, "1.1.0", sortedIpResult));
    const result = await cni.getNetworkListCachedResult(list, rt, { cachedRecord });
    expect(JSON.stringify(result)).toBe(sortedIpResult);
  });

  it("does not execute plugins when disableCheck is true", async () => {
    list.disableCheck = true;
    await cni.checkNetworkList(list, rt);
    for (const p of plugins) expect((await readDebug(p.debug)).command).toBe("");
  });

  it("passes a 0.4.0 cached result to the first plugin at 0.4.0", async () => {
    const result040 = `{"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`;
    writeCacheFile(box, cacheName, result040);
    ({ list, plugins } = await makePluginList(box, "0.4.0", result040));
    await cni.checkNetworkList(list, rt);
    // Plugin 0 gets a runtimeConfig, so its prevResult went through a map (sorted); plugin 2 none.
    expect(stdinText(await readDebug(plugins[0].debug))).toBe(
      stdinOf(
        0,
        "0.4.0",
        '{"cniVersion":"0.4.0","dns":{},"ips":[{"address":"10.1.2.3/24","version":"4"}]}',
      ),
    );
    expect(stdinText(await readDebug(plugins[2].debug))).toBe(
      stdinOf(
        2,
        "0.4.0",
        '{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.2.3/24"}],"dns":{}}',
      ),
    );
  });

  it("fails below 0.4.0 as CHECK is not supported, even with disableCheck", async () => {
    const old = confList(
      marshal({
        ...(JSON.parse(Buffer.from(list.bytes).toString()) as object),
        cniVersion: "0.3.1",
      }),
    );
    for (const disableCheck of [false, true]) {
      old.disableCheck = disableCheck;
      const error = await failure(cni.checkNetworkList(old, rt));
      expect(error).toBeInstanceOf(CheckNotSupportedError);
      expect(error.message).toBe(
        'configuration version "0.3.1" does not support the CHECK command',
      );
      expect(error.cause).toBe(ErrorCheckNotSupp);
    }
  });

  it("returns the error when finding a plugin fails", async () => {
    list.plugins[1].network.type = "does-not-exist";
    await expect(cni.checkNetworkList(list, rt)).rejects.toThrow(
      `failed to find plugin "does-not-exist"`,
    );
  });

  it("returns the second plugin's error unwrapped and stops there", async () => {
    await writeDebug(plugins[1].debug, { reportError: "plugin error: banana" });
    const error = await failure(cni.checkNetworkList(list, rt));
    expect(error).toBeInstanceOf(CNIError);
    expect(error.message).toBe("plugin error: banana");
    expect((await readDebug(plugins[0].debug)).command).toBe("CHECK");
    expect((await readDebug(plugins[2].debug)).command).toBe("");
  });

  // Upstream's "when the cached result is invalid": CHECK fails, no plugin runs.
  it("fails on a record that is not JSON, with upstream's error, running no plugin", async () => {
    writeCacheFile(box, cacheName, "adfadsfasdfasfdsafaf");
    expect((await failure(cni.checkNetworkList(list, rt))).message).toBe(
      `failed to get network "some-list" cached result: decoding version from network config: invalid character 'a' looking for beginning of value`,
    );
    for (let i = 0; i < 3; i++) expect((await readDebug(plugins[i].debug)).command).toBe("");
    // CHECK only reads: the record stays for DEL to deal with.
    expect(readFileSync(join(box.cacheDir, "results", cacheName), "utf8")).toBe(
      "adfadsfasdfasfdsafaf",
    );
  });
});

describe("delNetworkList", () => {
  it("executes all the plugins in reverse order with command DEL, and removes the cache", async () => {
    await cni.addNetworkList(list, rt);
    const shared = join(box.work, "shared-log");
    writeFileSync(shared, "");
    // One command log for all three plugins shows the order of the calls.
    const sharedList = confList(
      Buffer.from(list.bytes)
        .toString()
        .replace(/"commandLog": "[^"]*"/g, `"commandLog": ${q(shared)}`),
    );
    await cni.delNetworkList(sharedList, rt);
    const calls = await readCommandLog(shared);
    expect(
      calls.map((c) => `${c.command} ${/"some-key":"([^"]*)"/.exec(stdinText(c))?.[1]}`),
    ).toEqual(["DEL yet-another-value", "DEL some-other-value", "DEL some-value"]);
    const final =
      '{"cniVersion":"1.1.0","dns":{"nameservers":["1.2.3.4"]},"ips":[{"address":"10.1.2.3/24"}]}';
    for (let i = 0; i < 3; i++) {
      const debug = await readDebug(plugins[i].debug);
      expect(debug.command).toBe("DEL");
      // Every plugin gets the chain's final result, cached by ADD.
      expect(stdinText(debug)).toBe(
        stdinOf(i, "1.1.0", final).replace(q(plugins[i].log), q(shared)),
      );
      const { stdinData: _, ...cmdArgs } = debug.cmdArgs;
      expect(cmdArgs).toEqual(expectedCmdArgs());
    }
    expect(await cni.getNetworkListCachedResult(list, rt)).toBeUndefined();
    expect(await cni.getNetworkListCachedConfig(list, rt)).toBeUndefined();
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([]);
  });

  it("runs every plugin without a cache, as upstream", async () => {
    await cni.delNetworkList(list, rt);
    for (let i = 0; i < 3; i++) {
      const debug = await readDebug(plugins[i].debug);
      expect(debug.command).toBe("DEL");
      expect(stdinText(debug)).toBe(stdinOf(i, "1.1.0", i === 0 ? undefined : sortedIpResult));
    }
  });

  it("passes on a record the caller read (cachedRecord) and reads none", async () => {
    // A record the caller read earlier; the file now holds another result, never read.
    const read = new TextEncoder().encode(
      marshal({ kind: "cniCacheV1", result: JSON.parse(ipResult) }),
    );
    writeCacheFile(box, cacheName, `{"cniVersion": "1.1.0", "ips":[{"address": "10.9.9.9/24"}]}`);
    await cni.delNetworkList(list, rt, { cachedRecord: read });
    expect(stdinText(await readDebug(plugins[0].debug))).toBe(stdinOf(0, "1.1.0", sortedIpResult));
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([]);
  });

  it("refuses a cachedRecord that is no bytes before any plugin runs, and keeps the record", async () => {
    // A parsed record (a JavaScript caller's) read as a bad one: removed, DEL run without it.
    const path = writeCacheFile(box, cacheName, marshal({ kind: "cniCacheV1", result: {} }));
    const parsed = { kind: "cniCacheV1", result: JSON.parse(ipResult) } as never;
    const error = await failure(cni.delNetworkList(list, rt, { cachedRecord: parsed }));
    expect(error.message).toBe("options.cachedRecord must be a Uint8Array, got an object");
    for (let i = 0; i < 3; i++) expect((await readDebug(plugins[i].debug)).command).toBe("");
    expect(existsSync(path)).toBe(true);
  });

  it("rejects when the record stays after the plugins and requireRecordRemoved is set", async () => {
    // A directory at the record's path: unlink fails (EISDIR), as on a read-only disk.
    const path = writeCacheFile(box, cacheName, "");
    const { rmSync, mkdirSync } = await import("node:fs");
    rmSync(path);
    mkdirSync(join(path, "kept"), { recursive: true });
    const record = new TextEncoder().encode(ipResult);
    const error = await failure(
      cni.delNetworkList(list, rt, { cachedRecord: record, requireRecordRemoved: true }),
    );
    expect(error).toBeInstanceOf(CacheRecordRemoveError);
    expect(error.message).toContain(path);
    // Upstream's default: the removal's failure is ignored.
    await cni.delNetworkList(list, rt, { cachedRecord: record });
    expect(existsSync(path)).toBe(true);
  });

  it("passes a 0.4.0 cached result at 0.4.0, and none below", async () => {
    const result040 = `{"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`;
    writeCacheFile(box, cacheName, result040);
    ({ list, plugins } = await makePluginList(box, "0.4.0", result040));
    await cni.delNetworkList(list, rt);
    expect(stdinText(await readDebug(plugins[0].debug))).toBe(
      stdinOf(
        0,
        "0.4.0",
        '{"cniVersion":"0.4.0","dns":{},"ips":[{"address":"10.1.2.3/24","version":"4"}]}',
      ),
    );

    const result031 = result040.replace("0.4.0", "0.3.1");
    writeCacheFile(box, cacheName, result031);
    ({ list, plugins } = await makePluginList(box, "0.3.1", result031));
    await cni.delNetworkList(list, rt);
    const text = stdinText(await readDebug(plugins[0].debug));
    expect(text).toBe(stdinOf(0, "0.3.1", undefined));
  });

  it("returns the error when finding a plugin fails", async () => {
    list.plugins[1].network.type = "does-not-exist";
    await expect(cni.delNetworkList(list, rt)).rejects.toThrow(
      `failed to find plugin "does-not-exist"`,
    );
  });

  it("wraps a plugin's error as (delete), stops there and keeps the cache for a retry", async () => {
    await cni.addNetworkList(list, rt);
    await writeDebug(plugins[1].debug, { reportError: "plugin error: banana" });
    const error = await failure(cni.delNetworkList(list, rt));
    expect(error).toBeInstanceOf(PluginChainError);
    expect(error.message).toBe('plugin type="noop" failed (delete): plugin error: banana');
    expect((error.cause as CNIError).message).toBe("plugin error: banana");
    expect((await readDebug(plugins[2].debug)).command).toBe("DEL");
    expect((await readDebug(plugins[0].debug)).command).toBe("ADD");
    expect(existsSync(join(box.cacheDir, "results", cacheName))).toBe(true);
  });

  it("tolerates an invalid cached result", async () => {
    writeCacheFile(box, cacheName, "adfadsfasdfasfdsafaf");
    await cni.delNetworkList(list, rt);
    expect((await readDebug(plugins[0].debug)).command).toBe("DEL");
    expect(existsSync(join(box.cacheDir, "results", cacheName))).toBe(false);
  });
});

describe("validateNetworkList", () => {
  it("checks that all plugins exist, and returns the capabilities sorted", async () => {
    expect(await cni.validateNetworkList(list)).toEqual(["otherCapability", "portMappings"]);
    list.plugins[1].network.type = "nope";
    const error = await failure(cni.validateNetworkList(list));
    expect(error).toBeInstanceOf(MultiError);
    expect(error.message).toBe(`[failed to find plugin "nope" in path [${box.binDir}]]`);
  });

  it("checks that the plugins support the needed version, reporting every plugin", async () => {
    list.cniVersion = "broken";
    const error = await failure(cni.validateNetworkList(list));
    expect(error.message).toBe(
      '[plugin noop does not support config version "broken" plugin noop does not support config version "broken" plugin noop does not support config version "broken"]',
    );
    expect((error as MultiError).errors).toHaveLength(3);
  });
});

describe("gcNetworkList", () => {
  it("issues a DEL and GC as necessary", async () => {
    await cni.addNetworkList(list, rt);

    list.disableGC = true;
    await cni.gcNetworkList(list, {});
    expect(await readCommandLog(plugins[0].log)).toHaveLength(1); // ADD

    list.disableGC = false;
    await cni.gcNetworkList(list, {
      validAttachments: [{ containerID: rt.containerID, ifname: rt.ifName }],
    });
    // No valid attachments (Go: a nil slice): the cached attachment is stale.
    await cni.gcNetworkList(list, { validAttachments: undefined });

    const calls = await readCommandLog(plugins[0].log);
    expect(calls.map((c) => c.command)).toEqual(["ADD", "GC", "DEL", "GC"]);
    const base = `"capabilities":{"otherCapability":true,"portMappings":true}`;
    const tail = `"cniVersion":"1.1.0","commandLog":${q(plugins[0].log)},"debugFile":${q(plugins[0].debug)},"name":"some-list","some-key":"some-value","type":"noop"}`;
    const valid = '[{"containerID":"some-container-id","ifname":"some-eth0"}]';
    expect(stdinText(calls[1])).toBe(
      `{${base},"cni.dev/attachments":${valid},"cni.dev/valid-attachments":${valid},${tail}`,
    );
    expect(stdinText(calls[3])).toBe(
      `{${base},"cni.dev/attachments":null,"cni.dev/valid-attachments":null,${tail}`,
    );
    // GC runs with the attachment variables empty; the stale DEL with the cached ones.
    for (const gc of [calls[1], calls[3]]) {
      expect(gc.env.CNI_CONTAINERID).toBe("");
      expect(gc.env.CNI_IFNAME).toBe("");
      expect(gc.env.CNI_NETNS).toBe("");
      expect(gc.env.CNI_ARGS).toBe("");
      expect(gc.env.CNI_PATH).toBe(box.binDir);
    }
    expect(calls[2].cmdArgs).toMatchObject(expectedCmdArgs());
    expect(stdinText(calls[2])).toContain(
      '"runtimeConfig":{"otherCapability":33,"portMappings":[{"containerPort":80',
    );
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([]);
  });

  it("without args deletes every attachment of the network, and sends no attachment keys", async () => {
    await cni.addNetworkList(list, rt);
    await cni.addNetworkList(list, { ...rt, ifName: "eth1" });
    const other = confList(
      '{"name":"other-net","cniVersion":"1.1.0","plugins":[]}'.replace(
        "[]",
        `[${plugins[2].config}]`,
      ),
    );
    await cni.addNetworkList(other, rt);
    await cni.gcNetworkList(list);
    const calls = await readCommandLog(plugins[0].log);
    expect(calls.map((c) => `${c.command}:${c.cmdArgs.ifName}`)).toEqual([
      "ADD:some-eth0",
      "ADD:eth1",
      "DEL:eth1",
      "DEL:some-eth0",
      "GC:",
    ]);
    expect(stdinText(calls[4])).not.toContain("cni.dev/");
    // The other network's attachment is not touched.
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([
      "other-net-some-container-id-some-eth0",
    ]);
  });

  it("does not GC plugins below 1.1.0, but still deletes stale attachments", async () => {
    const result040 = `{"cniVersion": "0.4.0", "ips": [{"version": "4", "address": "10.1.2.3/24"}], "dns": {}}`;
    ({ list, plugins } = await makePluginList(box, "0.4.0", result040));
    await cni.addNetworkList(list, rt);
    await cni.gcNetworkList(list, { validAttachments: [] });
    expect((await readCommandLog(plugins[0].log)).map((c) => c.command)).toEqual(["ADD", "DEL"]);
  });

  it("collects every error, one per line, and keeps going", async () => {
    await cni.addNetworkList(list, rt);
    await writeDebug(plugins[2].debug, { reportError: "plugin 2 fails" });
    await writeDebug(plugins[1].debug, { reportError: "plugin 1 fails", reportErrorCode: 11 });
    const error = await failure(cni.gcNetworkList(list, {}));
    expect(error).toBeInstanceOf(MultiError);
    expect(error.message).toBe(
      [
        'failed to delete stale attachment some-container-id some-eth0: plugin type="noop" failed (delete): plugin 2 fails',
        "failed to GC plugin noop: plugin 1 fails",
        "failed to GC plugin noop: plugin 2 fails",
      ].join("\n"),
    );
    // Every plugin was still GC'd.
    expect((await readDebug(plugins[0].debug)).command).toBe("GC");
    expect((await readDebug(plugins[2].debug)).command).toBe("GC");
    const gcError = (error as MultiError).errors[1] as Error;
    expect((gcError.cause as CNIError).code).toBe(11);
  });

  it("reports a results directory it cannot list (upstream #1165; main: success, nothing done) and still GCs plugins", async () => {
    writeFileSync(join(box.cacheDir, "results"), "not a directory");
    const error = await failure(cni.gcNetworkList(list, {}));
    expect(error.message).toMatch(/^failed to list cached attachments: .*ENOTDIR/);
    expect((await readDebug(plugins[0].debug)).command).toBe("GC");
  });

  it("reports a version that does not parse (upstream: silently no GC)", async () => {
    list.cniVersion = "1.x";
    const error = await failure(cni.gcNetworkList(list, {}));
    expect(error.message).toMatch(/^failed to convert minor version part "x"/);
    expect((await readDebug(plugins[0].debug)).command).toBe("");
  });
});

describe("getStatusNetworkList", () => {
  it("issues a STATUS request to every plugin, with name and cniVersion injected", async () => {
    await cni.getStatusNetworkList(list);
    for (let i = 0; i < 3; i++) {
      const debug = await readDebug(plugins[i].debug);
      expect(debug.command).toBe("STATUS");
      expect(debug.env.CNI_CONTAINERID).toBe("");
      expect(debug.env.CNI_IFNAME).toBe("");
      expect(debug.env.CNI_PATH).toBe(box.binDir);
    }
    expect(stdinText(await readDebug(plugins[2].debug))).toBe(
      `{"cniVersion":"1.1.0","commandLog":${q(plugins[2].log)},"debugFile":${q(plugins[2].debug)},"name":"some-list",` +
        `"prevResult":${sortedIpResult},"some-key":"yet-another-value","type":"noop"}`,
    );
  });

  it("correctly reports an error with its code, and stops the chain", async () => {
    await writeDebug(plugins[1].debug, {
      reportError: "plugin error: banana",
      reportErrorCode: 50,
    });
    const error = await failure(cni.getStatusNetworkList(list));
    expect(error).toBeInstanceOf(CNIError);
    expect((error as CNIError).code).toBe(50);
    expect(error.message).toBe("plugin error: banana");
    expect((await readDebug(plugins[0].debug)).command).toBe("STATUS");
    expect((await readDebug(plugins[1].debug)).command).toBe("STATUS");
    expect((await readDebug(plugins[2].debug)).command).toBe("");
  });

  it("succeeds without running anything below 1.1.0, as upstream", async () => {
    ({ list, plugins } = await makePluginList(box, "1.0.0", ipResult.replace("1.1.0", "1.0.0")));
    await cni.getStatusNetworkList(list);
    expect((await readDebug(plugins[0].debug)).command).toBe("");
  });

  it("reports a version that does not parse (upstream: success)", async () => {
    list.cniVersion = "one";
    await expect(cni.getStatusNetworkList(list)).rejects.toThrow(
      /^failed to convert major version part "one"/,
    );
  });
});
