/**
 * Hostile inputs on the api's paths (issue 12): plugin output, configs and cache records nested
 * to Go's limit; records that are not regular files (a symlink, a FIFO, a device); names whose
 * cache file cannot exist. Each ends in a result or a typed error, in bounded time, and never
 * runs a plugin it should not.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/cni-config.js";
import { readRecord } from "../../src/cache/read.js";
import { decodeCacheRecord } from "../../src/cache/record.js";
import { CNIError, CorruptCacheRecordError, JSONSyntaxError } from "../../src/errors/index.js";
import { DefaultExec } from "../../src/invoke/exec.js";
import { confList, failure, pluginConf, type Sandbox, sandbox } from "./helpers.js";

const nest = (n: number, inner = "1"): string => "[".repeat(n) + inner + "]".repeat(n);
const ipResult = '"ips":[{"address":"10.1.2.3/24"}]';
const rt = { containerID: "hardening-cid", netNS: "/some/netns", ifName: "eth0" };

let box: Sandbox;
let cni: CNIConfig;
let plugin: string;

/** The plugin's stdin for a command, or undefined when it did not run. */
function stdinOf(command: string): string | undefined {
  const path = `${plugin}.${command}.stdin`;
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

function pluginPrints(output: string): void {
  writeFileSync(`${plugin}.out`, output);
}

const list = (name = "hardnet"): ReturnType<typeof confList> =>
  confList(`{"name":"${name}","cniVersion":"1.0.0","plugins":[{"type":"hardening-cat"}]}`);

function recordPath(name = "hardnet", id = rt.containerID, ifName = rt.ifName): string {
  return join(box.cacheDir, "results", `${name}-${id}-${ifName}`);
}

function writeRecord(text: string): string {
  mkdirSync(join(box.cacheDir, "results"), { recursive: true });
  writeFileSync(recordPath(), text);
  return recordPath();
}

beforeEach(() => {
  box = sandbox();
  // A shell plugin (fast to start): keeps its stdin per command, prints `<itself>.out` on ADD.
  plugin = join(box.binDir, "hardening-cat");
  writeFileSync(
    plugin,
    '#!/bin/sh\ncat > "$0.$CNI_COMMAND.stdin"\n[ "$CNI_COMMAND" = ADD ] && cat "$0.out"\nexit 0\n',
  );
  chmodSync(plugin, 0o755);
  pluginPrints(`{"cniVersion":"1.0.0",${ipResult}}`);
  cni = new CNIConfig({
    path: [box.binDir],
    cacheDir: box.cacheDir,
    exec: new DefaultExec({ stderr: null, graceMs: 200 }),
  });
});

afterEach(() => box.cleanup());

describe("depth 10,000 on the api's paths", () => {
  it("addNetwork: plugin output nested 10,000 deep without a version is fixed up and cached", async () => {
    pluginPrints(`{${ipResult},"x":${nest(9_999)}}`);
    const result = await cni.addNetworkList(list(), rt);
    expect(result?.version()).toBe("1.0.0");
    const cached = await cni.getNetworkListCachedResult(list(), rt);
    expect(cached?.version()).toBe("1.0.0");
  });

  it("addNetwork: a prevResult nested 10,000 deep in the config reaches the plugin as Go writes it", async () => {
    const net = pluginConf(
      `{"cniVersion":"1.0.0","name":"hardnet","type":"hardening-cat","prevResult":{"x":${nest(9_998)}}}`,
    );
    await cni.addNetwork(net, rt);
    expect(stdinOf("ADD")).toBe(
      `{"cniVersion":"1.0.0","name":"hardnet","prevResult":{"x":${nest(9_998)}},"type":"hardening-cat"}`,
    );
  });

  it("addNetwork: 1e400 10,000 deep in the output is code 6, not a stack overflow; nothing cached", async () => {
    pluginPrints(`{"cniVersion":"1.0.0","x":${nest(9_999, "1e400")}}`);
    const error = await failure(cni.addNetworkList(list(), rt));
    expect(error.cause).toBeInstanceOf(CNIError);
    expect((error.cause as CNIError).code).toBe(6);
    expect(existsSync(recordPath())).toBe(false);
  });

  it("getNetworkListCachedResult and decodeCacheRecord: a record nested 10,000 deep", async () => {
    const record = `{"kind":"cniCacheV1","containerId":"${rt.containerID}","ifName":"eth0","networkName":"hardnet","result":{"cniVersion":"1.0.0",${ipResult},"x":${nest(9_998)}}}`;
    writeRecord(record);
    expect(decodeCacheRecord(new TextEncoder().encode(record)).kind).toBe("cniCacheV1");
    const cached = await cni.getNetworkListCachedResult(list(), rt);
    expect(cached?.version()).toBe("1.0.0");
    const deeper = record.replace(nest(9_998), nest(9_999));
    writeRecord(deeper);
    expect(() => decodeCacheRecord(new TextEncoder().encode(deeper))).toThrow(JSONSyntaxError);
    const error = await failure(cni.getNetworkListCachedResult(list(), rt));
    expect(error.message).toContain("exceeded max depth");
  });
});

describe("records that are not regular files", () => {
  const outside = (): string => join(box.work, "outside");

  function symlinkRecord(target: string): string {
    mkdirSync(join(box.cacheDir, "results"), { recursive: true });
    symlinkSync(target, recordPath());
    return recordPath();
  }

  function fifoRecord(path = recordPath()): string {
    mkdirSync(join(box.cacheDir, "results"), { recursive: true });
    execFileSync("mkfifo", [path]);
    return path;
  }

  /** Settles (either way) with a 200 ms abort; the record's entry is gone afterwards. */
  async function delSettles(path: string, name = "hardnet", id = rt.containerID): Promise<void> {
    await cni
      .delNetworkList(list(name), { ...rt, containerID: id }, { signal: AbortSignal.timeout(200) })
      .catch((error: unknown) => expect(error).toBeInstanceOf(Error));
    expect(() => lstatSync(path)).toThrow(/ENOENT/);
  }

  it("a symlink to an outside file is not followed: getters throw typed errors, DEL removes the link only", async () => {
    writeFileSync(outside(), `{"cniVersion":"1.0.0",${ipResult}}`);
    const link = symlinkRecord(outside());
    const error = await failure(cni.getNetworkListCachedResult(list(), rt));
    expect(error).toBeInstanceOf(CorruptCacheRecordError);
    expect(error.message).toBe(`cache record ${link} is a symbolic link`);
    const configError = await failure(cni.getNetworkListCachedConfig(list(), rt));
    expect(configError.message).toBe(
      `failed to unmarshal cached network "hardnet" config: cache record ${link} is a symbolic link`,
    );
    expect(configError.cause).toBeInstanceOf(CorruptCacheRecordError);
    // CHECK fails on a record it cannot read, as upstream, and runs no plugin.
    const checkError = await failure(cni.checkNetworkList(list(), rt));
    expect(checkError.cause).toBeInstanceOf(CorruptCacheRecordError);
    expect(stdinOf("CHECK")).toBeUndefined();
    await delSettles(link);
    expect(stdinOf("DEL")).not.toContain("prevResult");
    expect(readFileSync(outside(), "utf8")).toContain("10.1.2.3");
  });

  it("a symlink to /dev/zero: a corrupt record, no endless read", async () => {
    const link = symlinkRecord("/dev/zero");
    expect(await failure(cni.getNetworkListCachedResult(list(), rt))).toBeInstanceOf(
      CorruptCacheRecordError,
    );
    await delSettles(link);
    expect(existsSync("/dev/zero")).toBe(true);
  });

  it("a device itself (/dev/zero) is never read: a corrupt record", async () => {
    expect(await readRecord("/dev/zero")).toEqual({
      kind: "corrupt",
      reason: "is a device, not a regular file",
    });
  });

  it("a FIFO never blocks: getters throw typed errors at once, DEL with a 200 ms abort settles and removes it", async () => {
    const fifo = fifoRecord();
    expect(await failure(cni.getNetworkListCachedResult(list(), rt))).toBeInstanceOf(
      CorruptCacheRecordError,
    );
    const checkError = await failure(
      cni.checkNetworkList(list(), rt, { signal: AbortSignal.timeout(5_000) }),
    );
    expect(checkError.cause).toBeInstanceOf(CorruptCacheRecordError);
    await delSettles(fifo);
  });

  it("five FIFO records at once (more than libuv's four threads) all settle", async () => {
    const ids = ["f1", "f2", "f3", "f4", "f5"];
    const fifos = ids.map((id) => fifoRecord(recordPath("hardnet", id)));
    await Promise.all(ids.map((id, i) => delSettles(fifos[i], "hardnet", id)));
  });

  it("a record over the size cap is corrupt", async () => {
    const path = writeRecord(`{"kind":"cniCacheV1","result":{"cniVersion":"1.0.0"}}`);
    expect(await readRecord(path, undefined, 16)).toEqual({
      kind: "corrupt",
      reason: "is larger than 16 bytes",
    });
  });

  it("an aborted signal stops the read with its reason", async () => {
    const path = writeRecord("{}");
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(readRecord(path, controller.signal)).rejects.toThrow("stop");
  });

  it("a cache dir that is itself a symlink keeps working", async () => {
    const real = join(box.work, "real-cache");
    mkdirSync(real);
    const linked = join(box.work, "linked-cache");
    symlinkSync(real, linked);
    const viaLink = new CNIConfig({ path: [box.binDir], cacheDir: linked });
    await viaLink.addNetworkList(list(), rt);
    expect((await viaLink.getNetworkListCachedResult(list(), rt))?.version()).toBe("1.0.0");
    expect(existsSync(join(real, "results", `hardnet-${rt.containerID}-eth0`))).toBe(true);
    await viaLink.delNetworkList(list(), rt);
    expect(stdinOf("DEL")).toContain("prevResult");
  });
});

describe("names whose cache file cannot exist, refused before any plugin runs", () => {
  it("a 10,000-character container ID: code 4, no plugin run", async () => {
    const error = await failure(
      cni.addNetworkList(list(), { ...rt, containerID: "c".repeat(10_000) }),
    );
    expect(error.cause).toBeInstanceOf(CNIError);
    expect((error.cause as CNIError).code).toBe(4);
    expect((error.cause as CNIError).msg).toBe("containerID is too long");
    expect(stdinOf("ADD")).toBeUndefined();
  });

  it("a 10,000-character network name: code 7, no plugin run (ADD, CHECK, DEL)", async () => {
    const name = "n".repeat(10_000);
    const error = await failure(cni.addNetworkList(list(name), rt));
    expect((error.cause as CNIError).code).toBe(7);
    expect((error.cause as CNIError).msg).toBe("network name is too long");
    for (const call of [
      () => cni.checkNetworkList(list(name), rt),
      () => cni.delNetworkList(list(name), rt),
    ]) {
      const e = await failure(call());
      expect(e).toBeInstanceOf(CNIError);
      expect((e as CNIError).code).toBe(7);
    }
    expect(stdinOf("ADD") ?? stdinOf("CHECK") ?? stdinOf("DEL")).toBeUndefined();
  });

  it("255 bytes pass and are recorded; 256 are refused", async () => {
    // "hardnet-" + id + "-eth0": 8 + id + 5 bytes.
    const fits = "i".repeat(255 - 13);
    await cni.addNetworkList(list(), { ...rt, containerID: fits });
    expect(existsSync(recordPath("hardnet", fits))).toBe(true);
    const error = await failure(cni.addNetworkList(list(), { ...rt, containerID: `${fits}i` }));
    expect((error.cause as CNIError).code).toBe(4);
  });

  it("an interface name with NUL: code 4, no plugin run", async () => {
    const error = await failure(cni.addNetworkList(list(), { ...rt, ifName: "eth\0" }));
    expect((error.cause as CNIError).code).toBe(4);
    expect((error.cause as CNIError).msg).toBe("interface name contains a NUL byte");
    expect(stdinOf("ADD")).toBeUndefined();
  });
});
