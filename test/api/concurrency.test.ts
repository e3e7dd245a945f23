// Concurrency (upstream has no locking): calls on different attachments run in parallel, calls on
// one attachment run one at a time in call order, and GC of a network excludes ADD and DEL on it.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, type RuntimeConf } from "../../src/api/index.js";
import { liveLocks } from "../../src/api/lock.js";
import type { NetworkConfigList } from "../../src/conf/index.js";
import { confList, failure, type Sandbox, sandbox } from "./helpers.js";

let box: Sandbox;
let cni: CNIConfig;
let log: string;

beforeEach(() => {
  box = sandbox();
  copyFileSync(join(import.meta.dirname, "fixtures/slow-plugin"), join(box.binDir, "slow"));
  cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
  log = join(box.work, "calls.log");
  writeFileSync(log, "");
});
afterEach(() => box.cleanup());

function slowList(name: string, sleep = "0.05", plugins = 1): NetworkConfigList {
  const plugin = `{"type":"slow","log":${JSON.stringify(log)},"sleep":"${sleep}"}`;
  return confList(
    `{"name":"${name}","cniVersion":"1.1.0","plugins":[${Array(plugins).fill(plugin).join(",")}]}`,
  );
}

const rtFor = (containerID: string, ifName = "eth0"): RuntimeConf => ({
  containerID,
  netNS: "/var/run/netns/x",
  ifName,
});

function calls(): string[] {
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

/** The most calls that were running at once, from the start/end lines. */
function maxOverlap(lines: string[]): number {
  let running = 0;
  let max = 0;
  for (const line of lines) {
    running += line.startsWith("start ") ? 1 : -1;
    max = Math.max(max, running);
  }
  return max;
}

describe("concurrency", () => {
  it("100 concurrent ADDs then 100 concurrent DELs leave an empty results directory", async () => {
    const list = slowList("busy-net");
    const ids = Array.from({ length: 100 }, (_, i) => `container-${i}`);
    const results = await Promise.all(ids.map((id) => cni.addNetworkList(list, rtFor(id))));
    expect(results.every((r) => r?.version() === "1.1.0")).toBe(true);
    const dir = join(box.cacheDir, "results");
    expect(readdirSync(dir)).toHaveLength(100);
    expect((await cni.getCachedAttachments("")).map((a) => a.containerID).sort()).toEqual(
      [...ids].sort(),
    );
    await Promise.all(ids.map((id) => cni.delNetworkList(list, rtFor(id))));
    expect(readdirSync(dir)).toEqual([]);
    const lines = calls();
    expect(lines).toHaveLength(400);
    // Different attachments ran side by side.
    expect(maxOverlap(lines)).toBeGreaterThan(1);
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  }, 60_000);

  it("runs calls on one attachment one at a time, in call order", async () => {
    const list = slowList("one-net");
    const rt = rtFor("same");
    const pending = [
      cni.addNetworkList(list, rt),
      cni.checkNetworkList(list, rt),
      cni.delNetworkList(list, rt),
      cni.addNetworkList(list, rt),
      cni.delNetworkList(list, rt),
    ];
    await Promise.all(pending);
    expect(calls()).toEqual([
      "start ADD same eth0",
      "end ADD same eth0",
      "start CHECK same eth0",
      "end CHECK same eth0",
      "start DEL same eth0",
      "end DEL same eth0",
      "start ADD same eth0",
      "end ADD same eth0",
      "start DEL same eth0",
      "end DEL same eth0",
    ]);
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([]);
  });

  it("serialises two CNIConfig objects sharing a cache directory", async () => {
    const other = new CNIConfig({
      path: [box.binDir],
      cacheDir: `${box.cacheDir}/`,
      durableCache: false,
    });
    const list = slowList("shared-net");
    await Promise.all([
      cni.addNetworkList(list, rtFor("c")),
      other.delNetworkList(list, rtFor("c")),
    ]);
    expect(maxOverlap(calls())).toBe(1);
  });

  it("holds GC of a network until ADD and DEL on it are done, and later ones until GC is done", async () => {
    const list = slowList("gc-net", "0.2");
    await cni.addNetworkList(list, rtFor("stale"));
    writeFileSync(log, "");
    const first = cni.addNetworkList(list, rtFor("a"));
    const gc = cni.gcNetworkList(list, {
      validAttachments: [{ containerID: "a", ifname: "eth0" }],
    });
    const later = cni.addNetworkList(list, rtFor("b"));
    const elsewhere = cni.addNetworkList(slowList("other-net", "0.2"), rtFor("c"));
    await Promise.all([first, gc, later, elsewhere]);
    const lines = calls();
    const at = (line: string): number => lines.indexOf(line);
    // GC's stale DEL and its plugin GC come after ADD a and before ADD b.
    expect(at("start DEL stale eth0")).toBeGreaterThan(at("end ADD a eth0"));
    expect(at("start GC  ")).toBeGreaterThan(at("end DEL stale eth0"));
    expect(at("start ADD b eth0")).toBeGreaterThan(at("end GC  "));
    // Another network is not held up: ADD c ran alongside ADD a.
    expect(at("start ADD c eth0")).toBeLessThan(at("end ADD a eth0"));
    expect(readdirSync(join(box.cacheDir, "results")).sort()).toEqual([
      "gc-net-a-eth0",
      "gc-net-b-eth0",
      "other-net-c-eth0",
    ]);
  });

  it("gives up waiting for a busy attachment when the signal fires, without running the plugin", async () => {
    const list = slowList("wait-net", "0.5");
    const busy = cni.addNetworkList(list, rtFor("w"));
    const error = await failure(
      cni.delNetworkList(list, rtFor("w"), { signal: AbortSignal.timeout(100) }),
    );
    expect(error.name).toBe("TimeoutError");
    await busy;
    expect(calls()).toEqual(["start ADD w eth0", "end ADD w eth0"]);
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  });
});
