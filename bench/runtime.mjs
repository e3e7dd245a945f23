#!/usr/bin/env node
/**
 * `npm run bench:runtime`: what libcni/runtime adds over CNIConfig calls written by hand.
 *
 * A pod on two networks (one plugin each: the C noop of bench/plugins/noop.c, the cheapest
 * plugin possible, so the layer's own cost is as visible as it can be), set up and torn down:
 * - runtime: `setupPod` + `teardownPod` (plan, locks, summary, teardown from the cache:
 *   listing the pod's records, their times, the cached configs);
 * - by hand: `addNetworkList` twice, `delNetworkList` twice with the loaded lists.
 * Each round runs both variants `CALLS` times in a rotating order; a figure is the median
 * over the rounds, the ratio the median of the per-round ratios. Target: <= 1.05x.
 *
 * A second figure takes the plugins out (a FakeExec answering in process): the layer's own
 * cost per pod in ms, with the same cache writes and reads as the real runs.
 *
 * Environment: BENCH_ROUNDS (default 15), BENCH_CALLS (default 20).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CNIConfig } from "../dist/index.js";
import { FakeExec } from "../dist/invoke/index.js";
import { loadNetworks } from "../dist/runtime/index.js";
import { median, medianRatio } from "./lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);

const root = await mkdtemp(join(tmpdir(), "libcni-bench-runtime-"));
try {
  const bin = join(root, "bin");
  const confDir = join(root, "net.d");
  await mkdir(bin);
  await mkdir(confDir);
  await promisify(execFile)("gcc", ["-O2", "-o", join(bin, "noop"), join(here, "plugins/noop.c")]);
  for (const [file, name] of [
    ["10-a.conflist", "bench-a"],
    ["20-b.conflist", "bench-b"],
  ]) {
    await writeFile(
      join(confDir, file),
      JSON.stringify({ cniVersion: "1.0.0", name, plugins: [{ type: "noop" }] }),
    );
  }
  const fake = new FakeExec();
  fake.findInPathCall.returns.path = join(bin, "noop");
  fake.execPluginCall.handler = (call) =>
    call.environ?.includes("CNI_COMMAND=ADD")
      ? '{"cniVersion":"1.0.0","interfaces":[{"name":"eth0"}],"ips":[{"address":"10.0.0.2/24","interface":0}]}'
      : "";

  /** setupPod + teardownPod, and the same CNIConfig calls by hand, over `exec` (undefined: real). */
  async function variantsFor(label, exec) {
    const cacheDir = join(root, `cache-${label}`);
    // No fsync on either side: the same syscalls otherwise, and the disk's noise out of the ratio.
    const runtime = await loadNetworks({
      confDir,
      binDirs: [bin],
      cacheDir,
      exec,
      durableCache: false,
      // The noop plugin never enters the pods' namespaces, which this bench does not make.
      checkNetns: false,
    });
    const cni = new CNIConfig({ path: [bin], cacheDir, exec, durableCache: false });
    const lists = runtime.networks.map((n) => n.config);
    let seq = 0;
    return {
      runtime: async () => {
        const id = `rt${seq++}`;
        await runtime.setupPod({ id, netns: `/var/run/netns/${id}` });
        await runtime.teardownPod(id);
      },
      byHand: async () => {
        const id = `bh${seq++}`;
        const rts = ["eth0", "net1"].map((ifName) => ({
          containerID: id,
          netNS: `/var/run/netns/${id}`,
          ifName,
        }));
        for (let i = 0; i < lists.length; i++) await cni.addNetworkList(lists[i], rts[i]);
        for (let i = lists.length - 1; i >= 0; i--) await cni.delNetworkList(lists[i], rts[i]);
      },
    };
  }

  async function measure(label, variants, calls) {
    const names = Object.keys(variants);
    const times = Object.fromEntries(names.map((n) => [n, []]));
    for (const n of names) for (let i = 0; i < 3; i++) await variants[n](); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? names : [...names].reverse();
      for (const n of order) {
        const start = process.hrtime.bigint();
        for (let i = 0; i < calls; i++) await variants[n]();
        times[n].push(Number(process.hrtime.bigint() - start) / 1e6 / calls);
      }
      log(
        `${label} round ${round + 1}/${ROUNDS}: runtime ${times.runtime.at(-1).toFixed(2)} ms, by hand ${times.byHand.at(-1).toFixed(2)} ms`,
      );
    }
    return times;
  }

  const real = await measure("real", await variantsFor("real", undefined), CALLS);
  const inProcess = await measure("fake", await variantsFor("fake", fake), CALLS * 10);
  const layer = inProcess.runtime.map((t, i) => t - inProcess.byHand[i]);
  console.log("| pod on 2 networks, setup + teardown | ms per pod (median) |");
  console.log("|---|---|");
  console.log(
    `| libcni/runtime (setupPod + teardownPod), C noop plugin | ${median(real.runtime).toFixed(2)} |`,
  );
  console.log(
    `| CNIConfig by hand (2 ADD + 2 DEL), C noop plugin | ${median(real.byHand).toFixed(2)} |`,
  );
  console.log(
    `| ratio (median of per-round ratios; target <= 1.05x) | ${medianRatio(real.runtime, real.byHand).toFixed(3)}x |`,
  );
  console.log(
    `| the layer's own cost, plugins in process (runtime - by hand) | ${median(layer).toFixed(2)} |`,
  );
} finally {
  await rm(root, { recursive: true, force: true });
}
