#!/usr/bin/env node
/**
 * The cost of the diagnostics: ADD with nobody subscribed to libcni:verb / libcni:exec, next
 * to the same ADD in a baseline build of the library from before they existed, and with
 * subscribers (informative). Each variant lives in its own process; each round runs every
 * variant once, in a rotating order; figures are medians, ratios medians of per-round ratios.
 *
 * Two workloads: ADD of a chain of 1 through RawExec and the C noop plugin (the real path),
 * and ADD of a chain of 5 through a FakeExec (no process: the library's own CPU time, where a
 * per-call cost of the instrumentation would show most). durableCache is off in both, so
 * that fsync noise does not drown the figure.
 *
 *   npm run build && node bench/observability.mjs
 *
 * BASELINE_REF (default: the merge-base of HEAD and main, else HEAD~1) names the commit to
 * build the baseline from; BENCH_ROUNDS (default 15).
 */
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { median, medianRatio } from "./lib/stats.mjs";

const execFileP = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..");
const out = join(repoRoot, "bench/.build");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALLS = { raw: 20, fake: 100 };
const log = (...a) => process.stderr.write(`${a.join(" ")}\n`);

async function baselineRef() {
  if (process.env.BASELINE_REF) return process.env.BASELINE_REF;
  try {
    const { stdout } = await execFileP("git", ["merge-base", "HEAD", "main"], { cwd: repoRoot });
    const base = stdout.trim();
    const { stdout: head } = await execFileP("git", ["rev-parse", "HEAD"], { cwd: repoRoot });
    if (base !== head.trim()) return base;
  } catch {
    // No main branch here.
  }
  return "HEAD~1";
}

/** Builds the library at `ref` into bench/.build/obs-baseline/dist; returns that dist. */
async function buildBaseline(ref) {
  const dir = join(out, "obs-baseline");
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const archive = join(out, "obs-baseline.tar");
  await execFileP(
    "git",
    ["archive", "-o", archive, ref, "src", "tsconfig.json", "tsconfig.build.json", "package.json"],
    { cwd: repoRoot },
  );
  await execFileP("tar", ["-xf", archive, "-C", dir]);
  await rm(archive);
  await symlink(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  await execFileP(join(repoRoot, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], {
    cwd: dir,
  });
  return join(dir, "dist");
}

// The worker: one ADD loop per request, timed inside the process.
const workerSource = `
import diagnosticsChannel from "node:diagnostics_channel";
import { createInterface } from "node:readline";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const [dist, pluginDir, subscribe] = process.argv.slice(1);
const { CNIConfig, networkConfFromBytes } = await import(join(dist, "index.js"));
const { FakeExec } = await import(join(dist, "invoke/index.js"));
if (subscribe === "1") {
  const noop = () => {};
  const all = { start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
  diagnosticsChannel.tracingChannel("libcni:verb").subscribe(all);
  diagnosticsChannel.tracingChannel("libcni:exec").subscribe(all);
}
const conf = (n) => networkConfFromBytes(new TextEncoder().encode(JSON.stringify({
  cniVersion: "1.0.0", name: "obs" + n,
  plugins: Array.from({ length: n }, (_, i) => ({ type: "noop", bridge: "cni" + i, ipam: { type: "host-local", subnet: "10." + i + ".0.0/16" } })),
})));
const cacheDir = mkdtempSync(join(tmpdir(), "libcni-obs-bench-"));
const raw = new CNIConfig({ path: [pluginDir], cacheDir, durableCache: false });
const fakeExec = new FakeExec();
fakeExec.findInPathCall.returns.path = "/fake/noop";
fakeExec.execPluginCall.returns.resultBytes = new TextEncoder().encode('{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/16"}]}');
const fake = new CNIConfig({ cacheDir, exec: fakeExec, durableCache: false });
const lists = { raw: conf(1), fake: conf(5) };
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const { workload, calls } = JSON.parse(line);
  const cni = workload === "raw" ? raw : fake;
  const t = performance.now();
  for (let i = 0; i < calls; i++) {
    await cni.addNetworkList(lists[workload], { containerID: "c" + (n++ % 50), netNS: "/ns", ifName: "eth0" });
  }
  if (workload === "fake") fakeExec.calls.length = 0;
  console.log(JSON.stringify({ ms: (performance.now() - t) / calls }));
}
`;

class Worker {
  constructor(name, dist, pluginDir, subscribe) {
    this.name = name;
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith("CNI_") || k === "NODE_DEBUG") delete env[k];
    this.child = spawn(
      process.execPath,
      ["--input-type=module", "-e", workerSource, dist, pluginDir, subscribe ? "1" : "0"],
      { stdio: ["pipe", "pipe", "inherit"], env },
    );
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }
  async run(workload) {
    this.child.stdin.write(`${JSON.stringify({ workload, calls: CALLS[workload] })}\n`);
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`${this.name} exited`);
    return JSON.parse(value).ms;
  }
  close() {
    this.child.stdin.end();
  }
}

async function main() {
  const ref = await baselineRef();
  log(`building the baseline from ${ref} ...`);
  const baseDist = await buildBaseline(ref);
  const work = await mkdtemp(join(out, "obs-"));
  const pluginDir = join(work, "plugins");
  await mkdir(pluginDir);
  await execFileP("gcc", ["-O2", "-o", join(pluginDir, "noop"), join(here, "plugins/noop.c")]);
  const variants = {
    baseline: new Worker("baseline", baseDist, pluginDir, false),
    current: new Worker("current", join(repoRoot, "dist"), pluginDir, false),
    subscribed: new Worker("subscribed", join(repoRoot, "dist"), pluginDir, true),
  };
  const samples = {};
  try {
    for (const workload of ["raw", "fake"]) {
      for (const v of Object.values(variants)) await v.run(workload); // warm-up
      samples[workload] = { baseline: [], current: [], subscribed: [] };
    }
    for (let r = 0; r < ROUNDS; r++) {
      const names = Object.keys(variants);
      const order = names.map((_, i) => names[(i + r) % names.length]);
      for (const workload of ["raw", "fake"]) {
        for (const name of order) samples[workload][name].push(await variants[name].run(workload));
      }
      log(`round ${r + 1}/${ROUNDS}`);
    }
  } finally {
    for (const v of Object.values(variants)) v.close();
    await rm(work, { recursive: true, force: true });
  }
  const rows = [
    "| workload | baseline (before) | no subscriber | ratio no-sub/baseline | subscribed | ratio subscribed/baseline |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  const label = {
    raw: "addNetworkList, chain of 1, RawExec + C noop",
    fake: "addNetworkList, chain of 5, FakeExec",
  };
  const f = (x) => `${x.toFixed(3)} ms`;
  for (const w of ["raw", "fake"]) {
    const s = samples[w];
    rows.push(
      `| ${label[w]} | ${f(median(s.baseline))} | ${f(median(s.current))} | ${medianRatio(s.current, s.baseline).toFixed(3)}x | ${f(median(s.subscribed))} | ${medianRatio(s.subscribed, s.baseline).toFixed(3)}x |`,
    );
  }
  const result = `${rows.join("\n")}\n\nbaseline ${ref}, ${ROUNDS} rounds, ${CALLS.raw} / ${CALLS.fake} calls per sample\n`;
  process.stdout.write(result);
  if (process.env.BENCH_OUT) await writeFile(process.env.BENCH_OUT, result);
}

await main();
