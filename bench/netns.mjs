#!/usr/bin/env node
/**
 * `npm run build && npm run build:native && node bench/netns.mjs`: what a pod namespace costs,
 * created and removed (libcni/netns) through the spawner helper, through the commands
 * fallback, and with `ip netns add` + `ip netns del` run by Node's spawn (what a runtime
 * without the library does). One process, `BENCH_ROUNDS` (default 30) interleaved rounds in a
 * rotating order; each figure is the median per-round time of one create + remove, and the
 * ratios medians of per-round ratios. Needs root.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { repoRoot, rounds } from "./lib/common.mjs";
import { median, medianRatio } from "./lib/stats.mjs";

const execFileP = promisify(execFile);
const { createNetns, removeNetns } = await import(join(repoRoot, "dist/netns/index.js"));
const ROUNDS = rounds(30);
const PER_ROUND = 5;
let n = 0;
const name = () => `lcnibench-${process.pid}-${++n}`;

const variants = {
  spawner: async () => removeNetns(await createNetns(name(), { mechanism: "spawner" })),
  direct: async () => removeNetns(await createNetns(name(), { mechanism: "direct" })),
  "ip netns add + del": async () => {
    const ns = name();
    await execFileP("ip", ["netns", "add", ns]);
    await execFileP("ip", ["netns", "del", ns]);
  },
};

// Warm up: the helper's start and the first of each path are not timed.
for (const run of Object.values(variants)) await run();
const times = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
const keys = Object.keys(variants);
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < keys.length; i++) {
    const key = keys[(r + i) % keys.length];
    const t = performance.now();
    for (let c = 0; c < PER_ROUND; c++) await variants[key]();
    times[key].push((performance.now() - t) / PER_ROUND);
  }
}
const ip = times["ip netns add + del"];
console.log(`create + remove of one namespace, median of ${ROUNDS} rounds x ${PER_ROUND}:`);
for (const key of keys) {
  console.log(
    `  ${key.padEnd(20)} ${median(times[key]).toFixed(2)} ms  (${medianRatio(times[key], ip).toFixed(2)}x ip netns)`,
  );
}
