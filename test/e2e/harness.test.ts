/**
 * The harness itself, with plugins called directly (no library): a bridge ADD through the
 * wrapper lands in the world's host namespace and never in the machine's; the world's dispose
 * and the leftover sweep remove what they should.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invokeDirect } from "./harness/direct.js";
import {
  addresses,
  ipamReservations,
  iptablesChains,
  linksOfKind,
  ping,
} from "./harness/inspect.js";
import { createNetns, e2ePrefix, listNetns, sweepLeftovers } from "./harness/netns.js";
import { assertPrerequisites } from "./harness/prereq.js";
import { run } from "./harness/sh.js";
import { prepareSuite, rootNetworkFingerprint } from "./harness/suite.js";
import { E2EWorld } from "./harness/world.js";

let world: E2EWorld | undefined;

beforeAll(prepareSuite);
afterAll(async () => {
  await world?.dispose();
});

function bridgeConf(dataDir: string) {
  return {
    cniVersion: "1.0.0",
    name: "harness",
    type: "bridge",
    bridge: "cni-harness",
    isGateway: true,
    ipMasq: true,
    ipam: {
      type: "host-local",
      dataDir,
      ranges: [[{ subnet: "10.250.0.0/24" }]],
      routes: [{ dst: "0.0.0.0/0" }],
    },
  };
}

describe("e2e harness (plugins called directly)", () => {
  it("runs the real bridge inside the world's host namespace, never the machine's", async () => {
    const before = await rootNetworkFingerprint();
    world = await E2EWorld.create("harness");
    const ctr = await world.container();
    const attachment = { containerID: ctr.id, netnsPath: ctr.netnsPath, ifName: "eth0" };

    const add = await invokeDirect(world, "bridge", "ADD", bridgeConf(world.ipamDir), attachment);
    expect(add.exitCode, add.stderr).toBe(0);
    expect(add.output).toMatchObject({ cniVersion: "1.0.0", ips: [{ address: "10.250.0.2/24" }] });
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.250.0.2/24"]);
    expect(await linksOfKind(world.hostNs, "bridge")).toHaveLength(1);
    expect(await linksOfKind(world.hostNs, "veth")).toHaveLength(1);
    expect(await ping(ctr.ns, "10.250.0.1")).toBe(true);
    expect(await rootNetworkFingerprint()).toBe(before);
    // The wrapper logged the bridge and its host-local delegation.
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.containerID}`)).toEqual([
      `ADD bridge ${ctr.id}`,
      `ADD host-local ${ctr.id}`,
    ]);

    const del = await invokeDirect(world, "bridge", "DEL", bridgeConf(world.ipamDir), attachment);
    expect(del.exitCode, del.stderr).toBe(0);
    expect(await linksOfKind(world.hostNs, "veth")).toEqual([]);
    expect(await ipamReservations(world.ipamDir, "harness")).toEqual([]);
    expect(await iptablesChains(world.hostNs, "nat")).toEqual([]);

    const names = [world.hostNs, ctr.ns];
    const root = world.root;
    await world.dispose();
    world = undefined;
    const left = await listNetns();
    for (const name of names) expect(left).not.toContain(name);
    expect(existsSync(root)).toBe(false);
    expect(await rootNetworkFingerprint()).toBe(before);
  });

  it("sweeps the namespaces and temp dirs of a dead run, and only those", async () => {
    // A pid that existed and is gone: a short child that has exited.
    const { stdout } = await run("sh", ["-c", "echo $$"]);
    const deadPid = Number(stdout.trim());
    const deadNs = `${e2ePrefix}-${deadPid}-1-leftover`;
    const deadDir = join(tmpdir(), `${e2ePrefix}-${deadPid}-1-leftover-x`);
    const liveNs = `${e2ePrefix}-${process.pid}-9999-live`;
    await createNetns(deadNs);
    await createNetns(liveNs);
    await mkdir(deadDir);
    try {
      const removed = await sweepLeftovers();
      expect(removed).toContain(`/run/netns/${deadNs}`);
      expect(removed).toContain(deadDir);
      const left = await listNetns();
      expect(left).not.toContain(deadNs);
      expect(left).toContain(liveNs);
      expect(existsSync(deadDir)).toBe(false);
    } finally {
      await run("ip", ["netns", "del", liveNs], { check: false });
      await run("ip", ["netns", "del", deadNs], { check: false });
    }
  });

  it("fails, naming the Debian packages, when not root or when the plugins are missing", async () => {
    const empty = await mkdtemp(join(tmpdir(), `${e2ePrefix}-${process.pid}-noplugins-`));
    try {
      const error = await assertPrerequisites({ pluginDir: empty, uid: 1000 }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/must run as root/);
      expect(error?.message).toContain(
        `CNI plugins missing from ${empty}: bandwidth, bridge, host-local`,
      );
      expect(error?.message).toContain("apt-get install containernetworking-plugins");
      await expect(assertPrerequisites()).resolves.toBeUndefined();
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
