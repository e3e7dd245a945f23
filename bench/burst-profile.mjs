#!/usr/bin/env node
/**
 * `node --cpu-prof --cpu-prof-dir=<dir> bench/burst-profile.mjs [ballastMB]`: what blocks the
 * event loop during 100 concurrent ADDs (chain of 1, durable) with the runtime holding
 * `ballastMB` (default 1024) of touched Buffers. Prints, per burst, the event-loop delay p99/max,
 * and every stall of the loop over 3 ms (a 1 ms interval timer's gaps) with the garbage
 * collections that overlapped it (PerformanceObserver "gc": kind and duration), then the CPU
 * profile's top self-time functions inside those stalls (bench/lib/stalls.mjs reads the
 * .cpuprofile afterwards, given the "windows" line this prints). Uses the built library (dist/) and the launcher of LIBCNI_LAUNCHER.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { buildNative } from "./lib/build.mjs";
import { makeFixtures } from "./lib/fixtures.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const lib = await import(new URL("../dist/index.js", import.meta.url).href);
const ballastMb = Number(process.argv[2] ?? 1024);
const ballast = [];
for (let i = 0; i < ballastMb; i++) ballast.push(Buffer.alloc(1024 * 1024, i & 0xff));

const bin = await buildNative(repoRoot);
const work = await mkdtemp(join(repoRoot, "bench/.build/burst-"));
const fx = await makeFixtures(work, bin.noop);
const list = await lib.confListFromFile(fx.chain1);
const cni = new lib.CNIConfig({ path: [fx.pluginDir], cacheDir: join(work, "cache") });
const rt = (id) => ({ containerID: id, netNS: "/var/run/netns/bench", ifName: "eth0" });

const gcs = [];
new PerformanceObserver((items) => {
  for (const e of items.getEntries())
    gcs.push({ start: e.startTime, ms: e.duration, kind: e.detail?.kind });
}).observe({ entryTypes: ["gc"] });
const kinds = { 1: "scavenge", 2: "mark-compact", 4: "incremental", 8: "weak-cb" };

for (let i = 0; i < 20; i++) await cni.addNetworkList(list, rt(`warm${i}`));
// The machine's floor: an idle Node process's own event-loop delay while the bursts run (on a
// loaded 2-core machine, run-queue waits alone exceed 3 ms). Started before the bursts: its
// fork is not in them.
const probe = spawn(
  process.execPath,
  [
    "-e",
    `const h=require("node:perf_hooks").monitorEventLoopDelay({resolution:1});h.enable();
     process.stdin.on("data",()=>{});process.stdin.on("end",()=>{h.disable();
     console.log(JSON.stringify({p99:h.percentile(99)/1e6,max:h.max/1e6}))});`,
  ],
  { stdio: ["pipe", "pipe", "inherit"] },
);
let probeOut = "";
probe.stdout.on("data", (c) => {
  probeOut += c;
});
const probeDone = new Promise((res) => probe.once("close", res));
await new Promise((r) => setTimeout(r, 300));
const stalls = [];
// The bursts in the CPU profile's clock (microseconds of the monotonic clock), for stalls.mjs.
const windows = [];
for (let burst = 0; burst < 6; burst++) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    if (now - last > 4) stalls.push({ burst, from: last, to: now });
    last = now;
  }, 1);
  await new Promise((r) => setTimeout(r, 20));
  const t0 = performance.now();
  const w0 = process.hrtime.bigint() / 1000n;
  await Promise.all(
    Array.from({ length: 100 }, (_, i) => cni.addNetworkList(list, rt(`b${burst}-${i}`))),
  );
  const wall = performance.now() - t0;
  windows.push([Number(w0), Number(process.hrtime.bigint() / 1000n)]);
  clearInterval(tick);
  h.disable();
  console.log(
    `burst ${burst}: ${wall.toFixed(0)} ms, loop delay p99 ${(h.percentile(99) / 1e6).toFixed(1)} ms, max ${(h.max / 1e6).toFixed(1)} ms`,
  );
}
probe.stdin.end();
await probeDone;
const floor = JSON.parse(probeOut);
console.log(
  `idle process over the bursts: loop delay p99 ${floor.p99.toFixed(1)} ms, max ${floor.max.toFixed(1)} ms`,
);
for (const s of stalls) {
  const overlap = gcs.filter((g) => g.start < s.to && g.start + g.ms > s.from);
  const gcText = overlap.map((g) => `${kinds[g.kind] ?? g.kind} ${g.ms.toFixed(1)} ms`).join(", ");
  console.log(
    `stall burst ${s.burst} at ${s.from.toFixed(0)} ms: ${(s.to - s.from - 1).toFixed(1)} ms${gcText ? ` (GC: ${gcText})` : ""}`,
  );
}
const total = (k) => gcs.filter((g) => g.kind === k).reduce((a, g) => a + g.ms, 0);
console.log(
  `GC over the run: scavenge ${total(1).toFixed(0)} ms, mark-compact ${total(2).toFixed(0)} ms, incremental ${total(4).toFixed(0)} ms`,
);
console.log(`windows ${JSON.stringify(windows)}`);
await rm(work, { recursive: true, force: true });
process.exit(0);
