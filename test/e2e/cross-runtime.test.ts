/**
 * Cross-runtime on real plugins: Go libcni 1.1.2 (the conformance driver) and the TypeScript
 * library share one e2e world (its wrapper dir, namespaces and result cache), and each finishes
 * what the other started. That is what "drop-in" means on a host that switches runtimes: the
 * other side's cache record must be read, and the plugins must get what they need from it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/index.js";
import type { RuntimeConf } from "../../src/api/types.js";
import { GoDriver, type GoOp } from "./harness/go-driver.js";
import { addresses, ipamReservations, link, linksOfKind, ping } from "./harness/inspect.js";
import {
  attachment,
  cacheRecordPath,
  cniErrorOf,
  cniFor,
  confList,
  exists,
  rejectionOf,
  resultJSON,
} from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { containerChains, noTraces, tracesOf } from "./harness/traces.js";
import { eventually } from "./harness/wait.js";
import type { E2EWorld } from "./harness/world.js";

const worlds = new WorldTracker();
let go: GoDriver | undefined;
beforeAll(async () => {
  await prepareSuite();
  go = await GoDriver.build();
});
afterEach(() => worlds.disposeAll());
afterAll(async () => {
  await go?.dispose();
});

const network = "e2e-xrt";

/** bridge (gateway, masquerade) + host-local at 1.0.0, optionally portmap. */
function xrtList(world: E2EWorld, options: { portmap?: boolean } = {}) {
  const plugins: Record<string, unknown>[] = [
    {
      type: "bridge",
      bridge: "cni-xrt0",
      isGateway: true,
      ipMasq: true,
      ipam: {
        type: "host-local",
        dataDir: world.ipamDir,
        ranges: [[{ subnet: "10.83.0.0/24" }]],
        routes: [{ dst: "0.0.0.0/0" }],
      },
    },
  ];
  if (options.portmap === true) {
    plugins.push({ type: "portmap", capabilities: { portMappings: true } });
  }
  return confList({ cniVersion: "1.0.0", name: network, plugins });
}

/** Runs Go libcni ops on the world and fails the test on any op's error. */
async function goOps(
  world: E2EWorld,
  list: { bytes: Uint8Array },
  rt: RuntimeConf,
  ops: readonly string[],
): Promise<GoOp[]> {
  if (go === undefined) throw new Error("the Go driver was not built");
  const out = await go.run(world, list.bytes, rt, ops);
  expect(out.map((o) => [o.op, o.error])).toEqual(ops.map((op) => [op, undefined]));
  return out;
}

/** The cache record as written, parsed (key order kept). */
async function recordOf(world: E2EWorld, rt: RuntimeConf): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(cacheRecordPath(world, network, rt), "utf8")) as Record<
    string,
    unknown
  >;
}

/**
 * A Go 1.1.2 1.x result without its empty `dns` (the one encoding difference from v1.3.0 and
 * the library: `result-1x-sorted` in docs/deviations/conformance.md), asserting it was there.
 */
function withoutEmptyDNS(goResult: string | undefined): unknown {
  const parsed = JSON.parse(goResult ?? "null") as Record<string, unknown>;
  expect(parsed.dns).toEqual({});
  const { dns: _dns, ...rest } = parsed;
  return rest;
}

const calls = async (world: E2EWorld) =>
  (await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.containerID}`);

describe("cross-runtime: Go libcni 1.1.2 and the library on one host (plugins 1.1.1)", () => {
  it("Go ADDs, the library CHECKs (from Go's cache record) and DELs: no veth, IP or record left", async () => {
    const world = await worlds.create("xrt-go-ts");
    const ctr = await world.container();
    const list = xrtList(world);
    const rt = attachment(ctr);

    const [added] = await goOps(world, list, rt, ["add"]);
    const goResult = withoutEmptyDNS(added?.result);
    expect(goResult).toMatchObject({
      cniVersion: "1.0.0",
      ips: [{ address: "10.83.0.2/24", gateway: "10.83.0.1", interface: 2 }],
    });
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.83.0.2/24"]);
    expect(await ping(ctr.ns, "10.83.0.1")).toBe(true);
    // Go 1.1.2's record: no `netns` field (v1.3.0 added it), no args it was not given.
    const record = await recordOf(world, rt);
    expect(Object.keys(record)).toEqual([
      "kind",
      "containerId",
      "config",
      "ifName",
      "networkName",
      "result",
    ]);
    expect(Buffer.from(String(record.config), "base64")).toEqual(Buffer.from(list.bytes));

    const cni = cniFor(world);
    // The library reads Go's record: the same result, and an attachment without a netns.
    expect(resultJSON(await cni.getNetworkListCachedResult(list, rt))).toEqual(goResult);
    expect(await cni.getCachedAttachments(ctr.id)).toMatchObject([
      { containerID: ctr.id, network, ifName: "eth0", netNS: "" },
    ]);
    await world.clearCalls();

    await cni.checkNetworkList(list, rt);
    expect(await calls(world)).toEqual([`CHECK bridge ${ctr.id}`, `CHECK host-local ${ctr.id}`]);
    // Control: bridge CHECK needs a prevResult, so the pass above came from Go's record.
    const noCache = new CNIConfig({ path: [world.binDir], cacheDir: join(world.root, "empty") });
    const error = await rejectionOf(noCache.checkNetworkList(list, rt));
    expect(cniErrorOf(error)?.msg).toMatch(/prevResult/);
    await world.clearCalls();

    await cni.delNetworkList(list, rt);

    expect(await calls(world)).toEqual([`DEL bridge ${ctr.id}`, `DEL host-local ${ctr.id}`]);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([]);
    expect(await link(ctr.ns, "eth0")).toBeUndefined();
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);
  });

  it("the library ADDs, Go CHECKs (from the library's cache record) and DELs: no veth, IP or record left", async () => {
    const world = await worlds.create("xrt-ts-go");
    const ctr = await world.container();
    const list = xrtList(world);
    const rt = attachment(ctr);
    const cni = cniFor(world);

    const tsResult = resultJSON(await cni.addNetworkList(list, rt));
    expect(tsResult.ips).toEqual([{ address: "10.83.0.2/24", gateway: "10.83.0.1", interface: 2 }]);
    // The library's record carries the netns (as v1.3.0's does); Go 1.1.2 ignores that key.
    expect(await recordOf(world, rt)).toMatchObject({ netns: ctr.netnsPath });
    await world.clearCalls();

    const [cached] = await goOps(world, list, rt, ["getCachedResult", "check"]);

    expect(withoutEmptyDNS(cached?.result)).toEqual(tsResult);
    expect(await calls(world)).toEqual([`CHECK bridge ${ctr.id}`, `CHECK host-local ${ctr.id}`]);
    await world.clearCalls();

    await goOps(world, list, rt, ["del"]);

    expect(await calls(world)).toEqual([`DEL bridge ${ctr.id}`, `DEL host-local ${ctr.id}`]);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([]);
    expect(await link(ctr.ns, "eth0")).toBeUndefined();
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);
  });

  it("the library's GC collects an attachment Go created: IP, DNAT and record freed; with no netns in Go's record bridge leaves the veth and masquerade chain", async () => {
    const world = await worlds.create("xrt-gc");
    const list = xrtList(world, { portmap: true });
    const cni = cniFor(world);
    const stale = await world.container("stale");
    const keep = await world.container("keep");
    const staleRt = attachment(stale, "eth0", {
      capabilityArgs: { portMappings: [{ hostPort: 8091, containerPort: 80, protocol: "tcp" }] },
    });
    const keepRt = attachment(keep);
    await goOps(world, list, staleRt, ["add"]);
    await cni.addNetworkList(list, keepRt);
    const [masqChain, dnatChain] = containerChains(network, stale.id);
    const before = await tracesOf(world, network, [stale.id]);
    expect(before.reservations).toEqual([`10.83.0.2 ${stale.id}`]);
    expect(before.natLines).toContain(`-N ${masqChain}`);
    expect(before.natLines).toContain(`-N ${dnatChain}`);
    expect(await recordOf(world, staleRt)).not.toHaveProperty("netns");
    await world.clearCalls();

    await cni.gcNetworkList(list, { validAttachments: [{ containerID: keep.id, ifname: "eth0" }] });

    // The stale attachment got a DEL, in reverse order, with Go's cached result and capability
    // args (portmap found and removed its DNAT chain) and an empty CNI_NETNS.
    expect(await calls(world)).toEqual([
      `DEL portmap ${stale.id}`,
      `DEL bridge ${stale.id}`,
      `DEL host-local ${stale.id}`,
    ]);
    const after = await tracesOf(world, network, [stale.id]);
    expect(after.reservations).toEqual([]);
    expect(after.cacheRecords).toEqual([]);
    expect(after.natLines.filter((l) => l.includes(dnatChain ?? "<none>"))).toEqual([]);
    // bridge 1.1.1 with an empty netns releases IPAM and returns: the container keeps its
    // eth0, the host its veth end, and the masquerade chain stays (docs/deviations/e2e.md).
    expect(await addresses(stale.ns, "eth0")).toEqual(["10.83.0.2/24"]);
    expect(await linksOfKind(world.hostNs, "veth")).toHaveLength(2);
    expect(after.natLines).toContain(`-N ${masqChain}`);
    expect(after.natLines.every((l) => l.includes(masqChain ?? "<none>"))).toBe(true);
    // The kept attachment is untouched.
    expect(await ipamReservations(world.ipamDir, network)).toEqual([
      { ip: "10.83.0.3", containerID: keep.id, ifName: "eth0" },
    ]);
    expect(await ping(keep.ns, "10.83.0.1")).toBe(true);
    expect(await exists(cacheRecordPath(world, network, keepRt))).toBe(true);

    // The runtime removing the dead container's namespace takes the veth pair with it (the
    // kernel destroys it once the namespace's last reference goes: polled, not at once).
    await world.removeContainer(stale);
    const oneVeth = async () => (await linksOfKind(world.hostNs, "veth")).length === 1;
    expect(await eventually(oneVeth)).toBe(true);

    await cni.delNetworkList(list, keepRt);
    expect(await tracesOf(world, network, [keep.id])).toEqual(noTraces);
  });
});
