#!/usr/bin/env node
/**
 * `node bench/lib/stalls.mjs <file.cpuprofile> [minMs] [windowsJSON]`: the CPU profile's
 * stretches of back-to-back non-idle samples longer than minMs (default 3), i.e. the event
 * loop's stalls, with the functions taking their time (self time, by function and file), summed
 * over stalls; only inside the windows given (`[[fromUs, toUs], ...]` of the monotonic clock,
 * as bench/burst-profile.mjs prints them) when given.
 */
import { readFile } from "node:fs/promises";

const [file, minArg, windowsArg] = process.argv.slice(2);
const windows = windowsArg ? JSON.parse(windowsArg) : undefined;
const inWindow = (t) => windows === undefined || windows.some(([a, b]) => t >= a && t <= b);
const minMs = Number(minArg ?? 3);
const prof = JSON.parse(await readFile(file, "utf8"));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const label = (n) => {
  const f = n.callFrame;
  const url = f.url.replace(/^.*\/(dist|node_modules|bench)\//, "$1/").replace(/^node:/, "node:");
  return `${f.functionName || "(anonymous)"} ${url}${url ? `:${f.lineNumber + 1}` : ""}`;
};
const idle = (n) => ["(idle)", "(program)"].includes(n.callFrame.functionName);
let run = [];
let runMs = 0;
const stalls = [];
const flush = () => {
  if (runMs >= minMs) stalls.push({ ms: runMs, samples: run });
  run = [];
  runMs = 0;
};
let t = prof.startTime;
for (let i = 0; i < prof.samples.length; i++) {
  const n = nodes.get(prof.samples[i]);
  t += prof.timeDeltas[i];
  const dt = (prof.timeDeltas[i + 1] ?? 0) / 1000;
  if (idle(n) || !inWindow(t)) {
    flush();
    continue;
  }
  run.push({ n, dt });
  runMs += dt;
}
flush();
const self = new Map();
let all = 0;
for (const s of stalls) {
  for (const { n, dt } of s.samples) {
    self.set(label(n), (self.get(label(n)) ?? 0) + dt);
    all += dt;
  }
}
console.log(
  `${stalls.length} stretches >= ${minMs} ms of busy main thread, ${all.toFixed(0)} ms in all; longest ${stalls.reduce((max, s) => Math.max(max, s.ms), 0).toFixed(1)} ms`,
);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${((100 * v) / all).toFixed(1).padStart(5)}%  ${v.toFixed(1).padStart(7)} ms  ${k}`);
}
