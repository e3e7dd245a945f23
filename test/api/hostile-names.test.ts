// Better than upstream (which validates names on ADD only): on every verb, a network name,
// container ID or interface name that could reach outside <cacheDir>/results is refused
// before any file is read, written or removed, and before any plugin runs.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, type RuntimeConf } from "../../src/api/index.js";
import { encodeCacheRecord } from "../../src/cache/record.js";
import { CNIError } from "../../src/errors/index.js";
import { readDebug } from "../fixtures/plugins/noop-debug.js";
import { confList, debugFiles, failure, pluginConf, type Sandbox, sandbox } from "./helpers.js";

let box: Sandbox;
let cni: CNIConfig;
let debugPath: string;
let base: string;

beforeEach(async () => {
  box = sandbox();
  base = dirname(box.cacheDir);
  cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
  ({ debug: debugPath } = await debugFiles(box, { reportResult: '{"cniVersion":"1.1.0"}' }));
  mkdirSync(join(box.cacheDir, "results"), { recursive: true });
});
afterEach(() => box.cleanup());

/** Every file under `dir` with its content, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = entry.isFile()
      ? readFileSync(path, "latin1")
      : `<${statSync(path).mode.toString(8)}>`;
  }
  return out;
}

const validRecord = (net: string, cid: string, ifName: string): Uint8Array =>
  encodeCacheRecord({
    containerId: cid,
    config: new TextEncoder().encode("{}"),
    ifName,
    networkName: net,
    result: { cniVersion: "1.1.0", ips: [{ address: "10.9.9.9/24" }] },
  });

// [network, container ID, interface, the code upstream's validators give]
const hostile: [string, string, string, number][] = [
  ["some-list", "some-container-id", "/../../victim1", 4],
  ["some-list", "some-container-id", "../../../v2", 4],
  ["some-list", "x/../../../v3", "eth0", 4],
  ["a/../../v4", "some-container-id", "eth0", 7],
  ["../../etc", "some-container-id", "eth0", 7],
  ["some-list", "../../etc", "eth0", 4],
  ["some-list", "a/b", "eth0", 4],
  ["some-list", "some-container-id", "a/b", 4],
  ["some-list", "some-container-id", "0123456789abcdefg", 4],
  ["some-list", "some-container-id", "..", 4],
  ["some-list", "..", "eth0", 4],
];

type Verb = (net: string, rt: RuntimeConf) => Promise<unknown>;

const conf = (net: string) =>
  pluginConf(
    `{"type":"noop","name":${JSON.stringify(net)},"cniVersion":"1.1.0","debugFile":${JSON.stringify(debugPath)}}`,
  );
const list = (net: string, plugins = true) =>
  confList(
    `{"name":${JSON.stringify(net)},"cniVersion":"1.1.0"${plugins ? `,"plugins":[{"type":"noop","debugFile":${JSON.stringify(debugPath)}}]` : ""}}`,
  );

const verbs: [string, Verb][] = [
  ["addNetworkList", (net, rt) => cni.addNetworkList(list(net), rt)],
  ["addNetworkList without plugins", (net, rt) => cni.addNetworkList(list(net, false), rt)],
  ["addNetwork", (net, rt) => cni.addNetwork(conf(net), rt)],
  ["checkNetworkList", (net, rt) => cni.checkNetworkList(list(net), rt)],
  ["checkNetwork", (net, rt) => cni.checkNetwork(conf(net), rt)],
  ["delNetworkList", (net, rt) => cni.delNetworkList(list(net), rt)],
  ["delNetwork", (net, rt) => cni.delNetwork(conf(net), rt)],
  ["getNetworkListCachedResult", (net, rt) => cni.getNetworkListCachedResult(list(net), rt)],
  ["getNetworkCachedResult", (net, rt) => cni.getNetworkCachedResult(conf(net), rt)],
  ["getNetworkListCachedConfig", (net, rt) => cni.getNetworkListCachedConfig(list(net), rt)],
  ["getNetworkCachedConfig", (net, rt) => cni.getNetworkCachedConfig(conf(net), rt)],
];

/** The validation error, directly or as the cause of upstream's wrapping. */
function validationError(error: Error): CNIError {
  const found = error instanceof CNIError ? error : error.cause;
  expect(found).toBeInstanceOf(CNIError);
  return found as CNIError;
}

describe.each(verbs)("%s", (_name, verb) => {
  it.each(
    hostile,
  )("refuses network %j, container %j, interface %j, touching nothing", async (net, cid, ifName, code) => {
    // A valid-looking record where the unvalidated path would point, to catch any read or removal.
    const target = join(box.cacheDir, "results", `${net}-${cid}-${ifName}`);
    expect(relative(base, target).startsWith("..")).toBe(false);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, validRecord(net, cid, ifName));
    const before = snapshot(base);
    const rt: RuntimeConf = {
      containerID: cid,
      netNS: "/some/netns",
      ifName,
      args: [["DEBUG", debugPath]],
    };
    const error = await failure(verb(net, rt));
    expect(validationError(error).code).toBe(code);
    expect(snapshot(base)).toEqual(before);
    expect((await readDebug(debugPath)).command).toBe("");
  });
});

describe("gcNetworkList", () => {
  it("refuses a hostile network name", async () => {
    const error = await failure(cni.gcNetworkList(list("../../etc"), {}));
    expect(validationError(error).code).toBe(7);
    expect((await readDebug(debugPath)).command).toBe("");
  });

  it("does not follow a cached record whose names are hostile, and reports it", async () => {
    const target = join(box.cacheDir, "results", "some-list-x/../../../v3-eth0");
    writeFileSync(target, validRecord("some-list", "x/../../../v3", "eth0"));
    // A crafted record, under an innocent file name, naming the hostile attachment.
    writeFileSync(
      join(box.cacheDir, "results", "crafted"),
      validRecord("some-list", "x/../../../v3", "eth0"),
    );
    const before = snapshot(base);
    const error = await failure(cni.gcNetworkList(list("some-list"), {}));
    expect(error.message).toBe(
      "failed to delete stale attachment x/../../../v3 eth0: invalid characters in containerID; x/../../../v3",
    );
    // Nothing removed; the plugins' own GC still ran.
    expect(snapshot(base)).toEqual({
      ...before,
      [relative(base, debugPath)]: snapshot(base)[relative(base, debugPath)],
    });
    expect((await readDebug(debugPath)).command).toBe("GC");
  });
});

describe("getCachedAttachments", () => {
  it("filters by a hostile container ID without building a path from it", async () => {
    writeFileSync(join(box.cacheDir, "results", "n-c-eth0"), validRecord("n", "c", "eth0"));
    expect(await cni.getCachedAttachments("../..")).toEqual([]);
    expect((await cni.getCachedAttachments("c")).map((a) => a.ifName)).toEqual(["eth0"]);
  });
});
