#!/usr/bin/env node
/**
 * `node bench/lib/window-profile.mjs <file.cpuprofile> '<windows>' [top] [stalls]`: what a
 * `--cpu-prof` profile's thread did inside the given windows (`[[fromUs, toUs], ...]` of the
 * monotonic clock, as bench/pod.mjs prints them), with the library's
 * frames mapped back to src/ through dist's source maps (`file.ts:line`):
 * - the windows' time split into idle (the loop waiting in epoll), garbage collector, native
 *   code outside JS (`(program)`) and JS;
 * - self time by function (top `top`, default 25), and inclusive time by source file;
 * - the `stalls` (default 8) longest windows, and the as many longest stretches of
 *   back-to-back busy samples (GC and native included: the thread is not waiting in epoll),
 *   each with its GC share and the functions taking most of it. Given the loop's stalls as
 *   windows (bench/pod.mjs's stalls.json: the gaps of a 1 ms timer, each with the main
 *   thread's time on a CPU and waiting for one), this is what blocked the loop; given whole bursts, a busy stretch may span many turns (the library's paced steps
 *   yield, but the loop has work at every turn).
 * Times are wall-clock sample intervals: on a loaded machine a descheduled thread's wait is
 * charged to the frame it stopped in, so read shares, not absolute times.
 */
import { readFile } from "node:fs/promises";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

const [file, windowsArg, topArg, stallsArg] = process.argv.slice(2);
if (!file || !windowsArg) {
  console.error("usage: window-profile.mjs <file.cpuprofile> '<windows JSON>' [top] [stalls]");
  process.exit(2);
}
const windows = JSON.parse(windowsArg);
const TOP = Number(topArg ?? 25);
const STALLS = Number(stallsArg ?? 8);
const prof = JSON.parse(await readFile(file, "utf8"));
const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const maps = new Map();
async function sourceMapOf(url) {
  if (!maps.has(url)) {
    maps.set(
      url,
      readFile(`${fileURLToPath(url)}.map`, "utf8").then(
        (t) => new SourceMap(JSON.parse(t)),
        () => undefined,
      ),
    );
  }
  return maps.get(url);
}

/** `name src/x.ts:line` for a library frame, `name node:x:line` or `(kind)` otherwise. */
const labels = new Map();
async function labelOf(n) {
  if (labels.has(n.id)) return labels.get(n.id);
  const f = n.callFrame;
  const name = f.functionName || "(anonymous)";
  let where = f.url;
  if (f.url.startsWith("file:") && f.url.includes("/dist/")) {
    const map = await sourceMapOf(f.url);
    const e = map?.findEntry(f.lineNumber, f.columnNumber);
    where =
      e?.originalSource !== undefined
        ? `${e.originalSource.replace(/^.*\/src\//, "src/")}:${e.originalLine + 1}`
        : `${f.url.replace(/^.*\/dist\//, "dist/")}:${f.lineNumber + 1}`;
  } else if (where) {
    where = `${where.replace(/^.*\/(bench|node_modules)\//, "$1/")}:${f.lineNumber + 1}`;
  }
  const label = where ? `${name} ${where}` : name;
  labels.set(n.id, label);
  return label;
}
/** The source file a frame is in (src/... for the library), or undefined. */
async function fileOf(n) {
  const l = await labelOf(n);
  const m = / (\S+):\d+$/.exec(l);
  return m ? m[1] : undefined;
}

const kindOf = (n) => {
  const name = n.callFrame.functionName;
  if (name === "(idle)") return "idle";
  if (name === "(garbage collector)") return "gc";
  if (name === "(program)") return "native";
  return "js";
};
const windowOf = (t) => windows.findIndex(([a, b]) => t >= a && t <= b);

// Each sample: its node and the time until the next one.
const samples = [];
let t = prof.startTime;
for (let i = 0; i < prof.samples.length; i++) {
  t += prof.timeDeltas[i];
  const dt = (prof.timeDeltas[i + 1] ?? 0) / 1000;
  const w = windowOf(t);
  if (w >= 0) samples.push({ n: nodes.get(prof.samples[i]), dt, t, w });
}

const byKind = { idle: 0, gc: 0, native: 0, js: 0 };
const self = new Map();
const inclusive = new Map();
const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
for (const s of samples) {
  const kind = kindOf(s.n);
  byKind[kind] += s.dt;
  if (kind === "idle") continue;
  add(self, await labelOf(s.n), s.dt);
  const files = new Set();
  for (let id = s.n.id; id !== undefined; id = parent.get(id)) {
    const f = await fileOf(nodes.get(id));
    if (f) files.add(f);
  }
  for (const f of files) add(inclusive, f, s.dt);
}

// Stretches of busy samples: the loop's stalls.
const stalls = [];
let run = [];
const flush = () => {
  if (run.length > 0) stalls.push(run);
  run = [];
};
let lastT = -1;
for (const s of samples) {
  // A gap between windows ends a stretch too.
  if (kindOf(s.n) === "idle" || (lastT >= 0 && s.t - lastT > 50_000)) flush();
  if (kindOf(s.n) !== "idle") run.push(s);
  lastT = s.t;
}
flush();
const total = (arr) => arr.reduce((a, s) => a + s.dt, 0);
stalls.sort((a, b) => total(b) - total(a));

const all = Object.values(byKind).reduce((a, b) => a + b, 0);
const pct = (v, of) => `${((100 * v) / of).toFixed(1).padStart(5)}%`;
console.log(
  `${windows.length} windows, ${all.toFixed(0)} ms sampled: idle ${byKind.idle.toFixed(0)} ms, ` +
    `GC ${byKind.gc.toFixed(0)} ms, native ${byKind.native.toFixed(0)} ms, JS ${byKind.js.toFixed(0)} ms`,
);
const busy = all - byKind.idle;
console.log(`\nself time, busy samples (${busy.toFixed(0)} ms):`);
for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`${pct(v, busy)} ${v.toFixed(1).padStart(8)} ms  ${k}`);
console.log("\ninclusive time by source file, busy samples:");
for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP))
  console.log(`${pct(v, busy)} ${v.toFixed(1).padStart(8)} ms  ${k}`);
/** One line: the time of `st`, its GC share and the functions taking most of it. */
async function describe(st, length, sched) {
  const ms = total(st);
  const gc = total(st.filter((s) => kindOf(s.n) === "gc"));
  const own = new Map();
  for (const s of st) if (kindOf(s.n) !== "idle") add(own, await labelOf(s.n), s.dt);
  const top = [...own]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v.toFixed(0)} ms`)
    .join("; ");
  const head =
    length === undefined
      ? ""
      : `${length.toFixed(1).padStart(8)} ms window${sched ? ` (main thread on a CPU ${sched[0].toFixed(0)} ms, waiting for one ${sched[1].toFixed(0)} ms)` : ""}, `;
  return `${head}${ms.toFixed(1).padStart(8)} ms sampled, GC ${pct(gc, ms || 1).trim()}: ${top}`;
}
console.log(`\nthe ${STALLS} longest windows:`);
const byWindow = windows
  .map((w, i) => ({
    length: (w[1] - w[0]) / 1000,
    // bench/pod.mjs's stalls carry the main thread's CPU and run-queue time: [from, to, cpu, wait].
    sched: w.length >= 4 ? [w[2], w[3]] : undefined,
    st: samples.filter((s) => s.w === i),
  }))
  .sort((a, b) => b.length - a.length);
for (const { length, sched, st } of byWindow.slice(0, STALLS))
  console.log(await describe(st, length, sched));
console.log(`\nthe ${STALLS} longest stretches of back-to-back busy samples:`);
for (const st of stalls.slice(0, STALLS)) console.log(await describe(st));
