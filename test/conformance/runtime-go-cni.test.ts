/**
 * libcni/runtime against containerd/go-cni (Debian's 1.1.7) on Debian's real plugins: the same
 * pod (loopback, a bridge network with portmap and bandwidth, a ptp network; go-cni's
 * `interfacePrefix: "eth"`) set up, CHECKed and torn down by each, one after the other in one
 * isolated world, and every plugin invocation compared one by one: order, CNI_* environment,
 * stdin bytes. Each difference left is one docs/deviations/runtime.md lists ("Against go-cni"):
 * - teardown order: go-cni's Remove walks its networks forward, the runtime in reverse;
 * - CHECK with the loopback: go-cni fails on the loopback's 0.3.1 and CHECKs nothing, the
 *   runtime skips it and CHECKs the rest;
 * - 1.1.2's encoding of a result in a prevResult (`result-1x-sorted`, conformance.md).
 * Values the kernel draws at random (MAC addresses, host veth names) are numbered in order of
 * first appearance on each side before comparing.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadNetworks } from "../../src/runtime/index.js";
import { run } from "../e2e/harness/sh.js";
import { prepareSuite, WorldTracker } from "../e2e/harness/suite.js";
import { noTraces, tracesOf } from "../e2e/harness/traces.js";
import type { E2EWorld } from "../e2e/harness/world.js";
import {
  buildGoCNIDriver,
  type GoCNIPod,
  type Invocation,
  recordingPlugins,
  runGoCNI,
  takeInvocations,
} from "./harness/go-cni.js";
import { mapMember, v130Result } from "./harness/known-differences.js";
import { serializeTree, tryParseTree } from "./harness/ordered-json.js";

const worlds = new WorldTracker();
beforeAll(async () => {
  await prepareSuite();
  await buildGoCNIDriver();
}, 300_000);
afterEach(() => worlds.disposeAll());

const pods = "gocni-pods";
const side = "gocni-side";
const plugins = ["bandwidth", "bridge", "host-local", "loopback", "portmap", "ptp"];
const portMappings = [{ hostPort: 8080, containerPort: 80, protocol: "tcp", hostIP: "" }];
const bandwidth = {
  ingressRate: 1_000_000,
  ingressBurst: 100_000,
  egressRate: 2_000_000,
  egressBurst: 200_000,
};

/** Random kernel values numbered by first appearance: `<mac1>`, `<veth1>`. */
function numberRandomValues(calls: Invocation[]): Invocation[] {
  const seen = new Map<string, string>();
  const counts = { mac: 0, veth: 0 };
  const sub = (text: string): string =>
    text.replace(/\b(?:[0-9a-f]{2}:){5}[0-9a-f]{2}\b|\bveth[0-9a-f]{8}\b/g, (m) => {
      let v = seen.get(m);
      if (v === undefined) {
        const kind = m.startsWith("veth") ? "veth" : "mac";
        counts[kind] += 1;
        v = `<${kind}${counts[kind]}>`;
        seen.set(m, v);
      }
      return v;
    });
  return calls.map((c) => ({ ...c, stdin: sub(c.stdin), env: c.env.map(sub) }));
}

/** Go's stdin as v1.3.0 writes it: a prevResult without 1.1.2's `"dns":{}`. */
function asV130(calls: Invocation[]): Invocation[] {
  return calls.map((c) => {
    const tree = tryParseTree(c.stdin);
    return tree === undefined
      ? c
      : { ...c, stdin: serializeTree(mapMember(tree, "prevResult", v130Result)) };
  });
}

const attachmentOf = (c: Invocation): string =>
  c.env.find((e) => e.startsWith("CNI_IFNAME="))?.slice("CNI_IFNAME=".length) ?? "";

/** The calls of one command grouped by attachment (interface), attachments in call order. */
function byAttachment(calls: Invocation[], command: string): [string, Invocation[]][] {
  const groups = new Map<string, Invocation[]>();
  for (const c of calls.filter((x) => x.command === command)) {
    const key = attachmentOf(c);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.entries()];
}

interface Scenario {
  loopback: boolean;
  /** The plugins of the bridge network after bridge itself. */
  chained: object[];
}

async function confDirFor(world: E2EWorld, s: Scenario): Promise<string> {
  const dir = join(world.root, "net.d");
  await mkdir(dir, { recursive: true });
  const ipam = (subnet: string) => ({
    type: "host-local",
    dataDir: world.ipamDir,
    ranges: [[{ subnet }]],
  });
  await writeFile(
    join(dir, "10-pods.conflist"),
    JSON.stringify({
      cniVersion: "1.0.0",
      name: pods,
      plugins: [
        { type: "bridge", bridge: "cni-gc0", isGateway: true, ipam: ipam("10.97.0.0/24") },
        ...s.chained,
      ],
    }),
  );
  await writeFile(
    join(dir, "20-side.conflist"),
    JSON.stringify({
      cniVersion: "1.0.0",
      name: side,
      plugins: [{ type: "ptp", ipam: ipam("10.98.0.0/24") }],
    }),
  );
  return dir;
}

/** Runs the pod through go-cni, then through the runtime; each side's calls per phase. */
async function both(world: E2EWorld, s: Scenario) {
  const confDir = await confDirFor(world, s);
  const binDir = join(world.root, "recbin");
  const logDir = join(world.root, "reclog");
  await recordingPlugins(world, binDir, logDir, plugins);
  const ctr = await world.container("pod");
  const pod: GoCNIPod = {
    pluginDirs: [binDir],
    confDir,
    prefix: "eth",
    loopback: s.loopback,
    id: ctr.id,
    netns: ctr.netnsPath,
    portMappings,
    bandwidth,
    args: { IgnoreUnknown: "1" },
    ops: ["setupSerially", "check", "remove"],
  };
  const goOps = await runGoCNI(pod, join(world.root, "go-var-lib"));
  const goCalls = numberRandomValues(asV130(await takeInvocations(logDir)));
  // The same starting point for the runtime: no lease, no bridge left by go-cni's run.
  await rm(world.ipamDir, { recursive: true, force: true });
  await run("ip", ["-n", world.hostNs, "link", "del", "cni-gc0"]).catch(() => undefined);
  expect(await tracesOf(world, pods, [ctr.id])).toEqual(noTraces);

  const rt = await loadNetworks({
    confDir,
    binDirs: [binDir],
    cacheDir: world.cacheDir,
    loopback: s.loopback,
    interfacePrefix: "eth",
  });
  const target = { id: ctr.id, netns: ctr.netnsPath };
  await rt.setupPod({
    ...target,
    args: { IgnoreUnknown: "1" },
    capabilities: { portMappings, bandwidth },
  });
  const checked = await rt.checkPod(ctr.id).then(
    (c) => ({ checked: c, error: undefined }),
    (error: unknown) => ({ checked: undefined, error }),
  );
  await rt.teardownPod(ctr.id);
  const tsCalls = numberRandomValues(await takeInvocations(logDir));
  expect(await tracesOf(world, pods, [ctr.id])).toEqual(noTraces);
  expect(await tracesOf(world, side, [ctr.id])).toEqual(noTraces);
  return { goOps, goCalls, tsCalls, checked };
}

describe("libcni/runtime against go-cni on real plugins", () => {
  it("with loopback, portmap and bandwidth: setup identical, teardown identical per attachment in reverse order, CHECK of the loopback skipped where go-cni fails", async () => {
    const world = await worlds.create("gocni");
    const s: Scenario = {
      loopback: true,
      chained: [
        { type: "portmap", capabilities: { portMappings: true } },
        { type: "bandwidth", capabilities: { bandwidth: true } },
      ],
    };
    const { goOps, goCalls, tsCalls, checked } = await both(world, s);
    expect(goOps.map((o) => [o.op, o.error ?? ""])).toEqual([
      ["setupSerially", ""],
      ["check", 'configuration version "0.3.1" does not support the CHECK command'],
      ["remove", ""],
    ]);
    // Setup: every invocation the same, in the same order.
    const goAdd = goCalls.filter((c) => c.command === "ADD");
    expect(goAdd.map((c) => `${c.plugin} ${attachmentOf(c)}`)).toEqual([
      "loopback lo",
      "bridge eth0",
      "host-local eth0",
      "portmap eth0",
      "bandwidth eth0",
      "ptp eth1",
      "host-local eth1",
    ]);
    expect(tsCalls.filter((c) => c.command === "ADD")).toEqual(goAdd);
    // CHECK: go-cni stops at the loopback; the runtime skips it (and says so) and checks the rest.
    expect(goCalls.filter((c) => c.command === "CHECK")).toEqual([]);
    const tsCheck = tsCalls.filter((c) => c.command === "CHECK");
    expect(tsCheck.some((c) => c.plugin === "loopback")).toBe(false);
    expect(tsCheck.map((c) => attachmentOf(c))).toContain("eth1");
    if (checked.checked !== undefined) {
      expect(checked.checked[0]).toMatchObject({ ifName: "lo", skipped: expect.any(String) });
    }
    // Teardown: the same DELs per attachment; go-cni walks forward, the runtime in reverse.
    const goDel = byAttachment(goCalls, "DEL");
    const tsDel = byAttachment(tsCalls, "DEL");
    expect(goDel.map(([k]) => k)).toEqual(["lo", "eth0", "eth1"]);
    expect(tsDel).toEqual([...goDel].reverse());
  });

  it("without loopback or portmap: setup, CHECK and teardown identical, teardown order reversed", async () => {
    const world = await worlds.create("gocni2");
    const s: Scenario = {
      loopback: false,
      chained: [{ type: "bandwidth", capabilities: { bandwidth: true } }],
    };
    const { goOps, goCalls, tsCalls, checked } = await both(world, s);
    expect(goOps.every((o) => o.error === undefined)).toBe(true);
    expect(checked.error).toBeUndefined();
    for (const command of ["ADD", "CHECK"]) {
      const go = goCalls.filter((c) => c.command === command);
      expect(go.length).toBeGreaterThan(0);
      expect(tsCalls.filter((c) => c.command === command)).toEqual(go);
    }
    const goDel = byAttachment(goCalls, "DEL");
    expect(goDel.map(([k]) => k)).toEqual(["eth0", "eth1"]);
    expect(byAttachment(tsCalls, "DEL")).toEqual([...goDel].reverse());
  });
});
