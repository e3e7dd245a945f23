/**
 * Crash-safe pod setup on Debian's real plugins: a runtime process SIGKILLed at many points of
 * a three-network setup (before any plugin, during each plugin call, and a moment after each,
 * between calls), then recovered from another process with `gc` or `teardownPod` as a runtime
 * does at restart: no host-local reservation, veth, portmap rule, cache record or setup intent
 * is left. A Go runtime reading the same cache dir afterwards still works.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadNetworks } from "../../src/runtime/index.js";
import { GoDriver } from "./harness/go-driver.js";
import { linksOfKind } from "./harness/inspect.js";
import { run } from "./harness/sh.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";
import type { E2EWorld } from "./harness/world.js";

const child = fileURLToPath(new URL("./harness/setup-child.mjs", import.meta.url));
const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const networks = ["crash-pods", "crash-side", "crash-third"];

async function confDirFor(world: E2EWorld): Promise<string> {
  const dir = join(world.root, "net.d");
  await mkdir(dir, { recursive: true });
  const ipam = (subnet: string) => ({
    type: "host-local",
    dataDir: world.ipamDir,
    ranges: [[{ subnet }]],
  });
  const write = (file: string, list: object) => writeFile(join(dir, file), JSON.stringify(list));
  await write("10-pods.conflist", {
    cniVersion: "1.0.0",
    name: networks[0],
    plugins: [
      { type: "bridge", bridge: "cni-cr0", isGateway: true, ipam: ipam("10.101.0.0/24") },
      { type: "portmap", capabilities: { portMappings: true } },
    ],
  });
  await write("20-side.conflist", {
    cniVersion: "1.0.0",
    name: networks[1],
    plugins: [{ type: "ptp", ipam: ipam("10.102.0.0/24") }],
  });
  await write("30-third.conflist", {
    cniVersion: "1.0.0",
    name: networks[2],
    plugins: [{ type: "bridge", bridge: "cni-cr2", ipam: ipam("10.103.0.0/24") }],
  });
  return dir;
}

function startSetup(world: E2EWorld, confDir: string, id: string, netns: string): ChildProcess {
  const input = {
    load: { confDir, binDirs: [world.binDir], cacheDir: world.cacheDir },
    pod: {
      id,
      netns,
      capabilities: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] },
    },
  };
  return spawn(process.execPath, [child, JSON.stringify(input)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

const exited = (p: ChildProcess): Promise<void> =>
  p.exitCode !== null || p.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => p.once("exit", () => resolve()));

/** Waits until no plugin of the world runs any more (a killed runtime's plugins go on). */
async function pluginsSettled(world: E2EWorld): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const { exitCode } = await run("pgrep", ["-f", world.hostNs], { check: false });
    if (exitCode !== 0) return;
    await sleep(50);
  }
  throw new Error("plugins of the killed runtime still running after 5 s");
}

async function addCalls(world: E2EWorld): Promise<number> {
  return (await world.calls()).filter((c) => c.command === "ADD").length;
}

async function clean(world: E2EWorld, ids: string[]): Promise<void> {
  for (const network of networks) {
    const t = await tracesOf(world, network, ids);
    // Host veths of every pod of the world: none may be left.
    expect({ network, ...t }).toEqual({ network, ...noTraces });
  }
  // No intent left. A temporary file of an intent write the kill cut short is not one: GC
  // sweeps it once stale (test/cache/intent.test.ts), as it does in results/.
  const intents = await readdir(join(world.cacheDir, "libcni", "setup-intents")).catch(() => []);
  expect(intents.filter((n) => !n.startsWith(".libcni-"))).toEqual([]);
}

describe("a runtime killed during setupPod leaks nothing", () => {
  it("SIGKILL before, during and between the plugins of each network; recovery by gc and by teardownPod", async () => {
    const world = await worlds.create("crash");
    const confDir = await confDirFor(world);
    // How many plugin calls a whole setup makes (host-local counted: bridge and ptp call it).
    const probe = await world.container("probe");
    const whole = startSetup(world, confDir, probe.id, probe.netnsPath);
    await exited(whole);
    expect(whole.exitCode).toBe(0);
    const total = await addCalls(world);
    expect(total).toBe(7);
    await (
      await loadNetworks({ confDir, binDirs: [world.binDir], cacheDir: world.cacheDir })
    ).teardownPod(probe.id);
    await clean(world, [probe.id]);

    let trial = 0;
    const outcomes: string[] = [];
    for (let point = 0; point <= total; point++) {
      for (const delayMs of [0, 25]) {
        trial++;
        await world.clearCalls();
        const ctr = await world.container(`t${trial}x`);
        const p = startSetup(world, confDir, ctr.id, ctr.netnsPath);
        // Kill once `point` plugin calls have started, then `delayMs` later (between calls).
        for (let i = 0; i < 400 && (await addCalls(world)) < point && p.exitCode === null; i++) {
          await sleep(5);
        }
        if (delayMs > 0) await sleep(delayMs);
        p.kill("SIGKILL");
        await exited(p);
        await pluginsSettled(world);
        const started = await addCalls(world);
        outcomes.push(
          `${point}+${delayMs}ms: ${started} calls${p.signalCode === "SIGKILL" ? "" : " (finished)"}`,
        );
        const rt = await loadNetworks({
          confDir,
          binDirs: [world.binDir],
          cacheDir: world.cacheDir,
        });
        if (trial % 2 === 0) await rt.gc([]);
        else await rt.teardownPod({ id: ctr.id, netns: ctr.netnsPath });
        await clean(world, [ctr.id]);
        await world.removeContainer(ctr);
      }
    }
    // The trials did kill mid-setup at many points (not all before or after everything).
    const killedMidway = outcomes.filter((o) => /: [1-6] calls$/.test(o)).length;
    expect(killedMidway, outcomes.join("\n")).toBeGreaterThanOrEqual(5);
    expect(await linksOfKind(world.hostNs, "veth")).toEqual([]);

    // A Go runtime on the same cache dir: its records are Go's, it adds and deletes as always.
    const go = await GoDriver.build();
    try {
      const ctr = await world.container("go");
      const list = new TextEncoder().encode(
        JSON.stringify({
          cniVersion: "1.0.0",
          name: networks[1],
          plugins: [
            {
              type: "ptp",
              ipam: {
                type: "host-local",
                dataDir: world.ipamDir,
                ranges: [[{ subnet: "10.102.0.0/24" }]],
              },
            },
          ],
        }),
      );
      const ops = await go.run(
        world,
        list,
        { containerID: ctr.id, netNS: ctr.netnsPath, ifName: "eth0" },
        ["add", "del"],
      );
      expect(ops.map((o) => o.error)).toEqual([undefined, undefined]);
      // Records only: a temporary file of a record write the kills cut short is no record
      // (Go skips what it cannot parse; GC sweeps it once stale).
      const records = await readdir(join(world.cacheDir, "results"));
      expect(records.filter((n) => !n.startsWith(".libcni-"))).toEqual([]);
    } finally {
      await go.dispose();
    }
  });
});
