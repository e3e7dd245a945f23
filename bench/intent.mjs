#!/usr/bin/env node
/**
 * `node bench/intent.mjs` (after `npm run build`): what the crash-safe setup intent costs.
 *
 * Paired in one process, rounds in rotating order (the machine is noisy; figures are medians):
 * - `setupPod` + `teardownPod` of a pod on two networks, durable cache (the default), plugins
 *   in process (a FakeExec), so the disk's share is as visible as it can be: the intent is one
 *   more durable write (and one unlink) per setup;
 * - the same ADDs and DELs by hand through CNIConfig (no intent);
 * - the intent alone (write + remove) beside one durable cache record (write + remove).
 *
 * Environment: BENCH_ROUNDS (default 15), BENCH_CALLS (default 30).
 */
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeCacheRecord } from "../dist/api/cache.js";
import { CNIConfig } from "../dist/index.js";
import { FakeExec } from "../dist/invoke/index.js";
import { loadNetworks, planPod } from "../dist/runtime/index.js";
import { removeIntent, writeIntent } from "../dist/runtime/intent.js";
import { median, medianRatio } from "./lib/stats.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);

const root = await mkdtemp(join(tmpdir(), "libcni-bench-intent-"));
try {
  const confDir = join(root, "net.d");
  const cacheDir = join(root, "cache");
  await mkdir(confDir);
  for (const [file, name] of [
    ["10-a.conflist", "bench-a"],
    ["20-b.conflist", "bench-b"],
  ]) {
    await writeFile(
      join(confDir, file),
      JSON.stringify({ cniVersion: "1.0.0", name, plugins: [{ type: "noop" }] }),
    );
  }
  const exec = new FakeExec();
  exec.findInPathCall.returns.path = "/fake/noop";
  exec.execPluginCall.handler = (call) =>
    call.environ?.includes("CNI_COMMAND=ADD")
      ? '{"cniVersion":"1.0.0","interfaces":[{"name":"eth0"}],"ips":[{"address":"10.0.0.2/24","interface":0}]}'
      : "";
  const runtime = await loadNetworks({ confDir, binDirs: ["/fake"], cacheDir, exec });
  const cni = new CNIConfig({ path: ["/fake"], cacheDir, exec });
  const lists = runtime.networks.map((n) => n.config);
  const plan = planPod(runtime.networkSet, { id: "plan", netns: "/var/run/netns/plan" }, undefined);
  const record = new TextEncoder().encode(
    JSON.stringify({ kind: "cniCacheV1", pad: "x".repeat(600) }),
  );
  let seq = 0;
  const variants = {
    runtime: async () => {
      const id = `rt${seq++}`;
      await runtime.setupPod({ id, netns: `/var/run/netns/${id}` });
      await runtime.teardownPod(id);
    },
    byHand: async () => {
      const id = `bh${seq++}`;
      const rts = ["eth0", "net1"].map((ifName) => ({
        containerID: id,
        netNS: `/x/${id}`,
        ifName,
      }));
      for (let i = 0; i < lists.length; i++) await cni.addNetworkList(lists[i], rts[i]);
      for (let i = lists.length - 1; i >= 0; i--) await cni.delNetworkList(lists[i], rts[i]);
    },
    intent: async () => {
      const id = `in${seq++}`;
      await writeIntent(cacheDir, id, plan, true);
      await removeIntent(cacheDir, id);
    },
    record: async () => {
      const path = join(cacheDir, "results", `rec-${seq++}-eth0`);
      await writeCacheRecord(path, record, { durable: true });
      await unlink(path);
    },
  };
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) for (let i = 0; i < 3; i++) await variants[n]();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const n of order) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < CALLS; i++) await variants[n]();
      times[n].push(Number(process.hrtime.bigint() - start) / 1e6 / CALLS);
    }
    log(
      `round ${round + 1}/${ROUNDS}: ${names.map((n) => `${n} ${times[n].at(-1).toFixed(2)} ms`).join(", ")}`,
    );
  }
  const f = (n) => median(times[n]).toFixed(2);
  console.log("| durable cache, plugins in process | ms (median) |");
  console.log("|---|---|");
  console.log(`| setupPod + teardownPod, 2 networks (intent included) | ${f("runtime")} |`);
  console.log(`| CNIConfig by hand, 2 ADD + 2 DEL (no intent) | ${f("byHand")} |`);
  console.log(
    `| ratio runtime / by hand | ${medianRatio(times.runtime, times.byHand).toFixed(3)}x |`,
  );
  console.log(`| the intent alone: durable write + remove | ${f("intent")} |`);
  console.log(`| one cache record: durable write + remove | ${f("record")} |`);
  console.log(`| ratio intent / record | ${medianRatio(times.intent, times.record).toFixed(3)}x |`);
} finally {
  await rm(root, { recursive: true, force: true });
}
