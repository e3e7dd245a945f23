#!/usr/bin/env node
/**
 * This build's spawner helpers against other builds' (one helper only, or a second helper
 * started another way), paired: every round runs each build in fresh processes, in a
 * rotating order, `BENCH_ROUNDS` (default 12) rounds. Two children per build and round:
 *
 * - first burst: a runtime holding `BENCH_BALLAST_MB` (default 1024) MB has run one plugin
 *   (the first helper is up), then starts 100 at once; the burst's time and the event-loop
 *   delay (p99 / max) during it, and how many helpers served it.
 * - steady state, helpers up (after a burst of 100): 2000 sequential `/bin/true` runs, 2000
 *   with 100 in flight, 1000 of Debian's loopback plugin (`CNI_COMMAND=VERSION`, a Go start)
 *   and 400 of a shell plugin that computes for a few ms, both with 100 in flight, in runs/s;
 *   and how busy the machine was meanwhile (a saturated machine is where helpers differ).
 *
 * Printed: medians [interquartile range; min-max] per build, and per-round ratios of each
 * other build to the first.
 *
 *   npm run build && npm run build:native && node bench/second-helper.mjs [<other dist dir>...]
 *
 * Each other dist dir is a build of another commit with its own dist/native.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const stdin = new TextEncoder().encode("{}");
const goPlugin = "/usr/lib/cni/loopback";

async function load(dist) {
  const { RawExec } = await import(pathToFileURL(join(dist, "invoke/raw-exec.js")).href);
  const select = await import(pathToFileURL(join(dist, "engines/start/select.js")).href);
  return { exec: new RawExec({ stderr: null, launcher: "spawner" }), pool: select.sharedSpawner() };
}

/** The machine's busy share since `from` (/proc/stat's first line; idle and iowait are idle). */
function cpuTimes() {
  return readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
}
const busySince = (from) => {
  const d = cpuTimes().map((x, i) => x - from[i]);
  return 1 - (d[3] + d[4]) / d.reduce((a, b) => a + b, 0);
};

async function burst(dist, ballastMB) {
  const { exec, pool } = await load(dist);
  const ballast = [];
  for (let i = 0; i < ballastMB; i++) ballast.push(Buffer.alloc(1024 * 1024, 1));
  await exec.execPlugin("/bin/true", stdin, []);
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const started = performance.now();
  await Promise.all(Array.from({ length: 100 }, () => exec.execPlugin("/bin/true", stdin, [])));
  const wall = performance.now() - started;
  h.disable();
  const helpers = pool.helpers.length;
  return { wall, p99: h.percentile(99) / 1e6, max: h.max / 1e6, helpers, held: ballast.length };
}

/** Runs/s of `count` runs of `path`, `width` in flight. */
async function rate(exec, path, env, count, width) {
  let left = count;
  const worker = async () => {
    while (left-- > 0) await exec.execPlugin(path, stdin, env);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: width }, worker));
  return count / ((performance.now() - started) / 1000);
}

async function steady(dist, work) {
  const { exec, pool } = await load(dist);
  await exec.execPlugin("/bin/true", stdin, []);
  await Promise.all(Array.from({ length: 100 }, () => exec.execPlugin("/bin/true", stdin, [])));
  // A helper started during the burst may still be coming up.
  await new Promise((r) => setTimeout(r, 200));
  const from = cpuTimes();
  const out = {
    helpers: pool.helpers.length,
    seq: await rate(exec, "/bin/true", [], 2000, 1),
    conc: await rate(exec, "/bin/true", [], 2000, 100),
  };
  if (existsSync(goPlugin)) {
    out.go = await rate(exec, goPlugin, ["CNI_COMMAND=VERSION", "PATH=/usr/bin:/bin"], 1000, 100);
  }
  out.work = await rate(exec, work, ["PATH=/usr/bin:/bin"], 400, 100);
  out.busy = busySince(from);
  return out;
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const at = (xs, p) => sorted(xs)[Math.round(p * (xs.length - 1))];
const spread = (xs, digits = 1) =>
  `${at(xs, 0.5).toFixed(digits)} [${at(xs, 0.25).toFixed(digits)}-${at(xs, 0.75).toFixed(digits)}; ` +
  `${at(xs, 0).toFixed(digits)}-${at(xs, 1).toFixed(digits)}]`;

async function main(dists) {
  const run = promisify(execFile);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 12);
  const ballastMB = Number(process.env.BENCH_BALLAST_MB ?? 1024);
  const dir = mkdtempSync(join(tmpdir(), "libcni-second-helper-"));
  const work = join(dir, "work");
  // Reads its stdin, computes a few ms in the shell, answers: a plugin with a little work.
  writeFileSync(
    work,
    '#!/bin/sh\ncat >/dev/null\ni=0\nwhile [ $i -lt 4000 ]; do i=$((i+1)); done\necho "{}"\n',
    { mode: 0o755 },
  );
  const results = dists.map(() => ({ burst: [], steady: [] }));
  const me = fileURLToPath(import.meta.url);
  try {
    for (let r = 0; r < rounds; r++) {
      const order = dists.map((_, i) => (i + r) % dists.length);
      if (r % 2) order.reverse();
      for (const i of order) {
        const { stdout } = await run(process.execPath, [me, "--burst", dists[i], `${ballastMB}`]);
        results[i].burst.push(JSON.parse(stdout));
      }
      for (const i of [...order].reverse()) {
        const { stdout } = await run(process.execPath, [me, "--steady", dists[i], work]);
        results[i].steady.push(JSON.parse(stdout));
      }
      process.stderr.write(`round ${r + 1}/${rounds}\n`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${rounds} rounds; median [interquartile range; min-max]`);
  console.log(`first burst of 100 /bin/true after one, ${ballastMB} MB held`);
  console.log("| build | helpers | burst ms | event-loop p99 ms | max ms |");
  console.log("| --- | --- | --- | --- | --- |");
  dists.forEach((dist, i) => {
    const b = results[i].burst;
    const col = (k) => spread(b.map((x) => x[k]));
    console.log(
      `| ${dist} | ${at(
        b.map((x) => x.helpers),
        0.5,
      )} | ${col("wall")} | ${col("p99")} | ${col("max")} |`,
    );
  });
  const keys = ["seq", "conc", "go", "work"].filter((k) => results[0].steady[0][k] !== undefined);
  console.log(
    "\nsteady state, runs/s: /bin/true sequential, /bin/true x100, Go loopback x100, ~5 ms shell plugin x100",
  );
  console.log(`| build | helpers | machine busy | ${keys.join(" | ")} |`);
  console.log(`| --- | --- | --- | ${keys.map(() => "---").join(" | ")} |`);
  dists.forEach((dist, i) => {
    const s = results[i].steady;
    const cols = keys.map((k) =>
      spread(
        s.map((x) => x[k]),
        0,
      ),
    );
    const busy = spread(
      s.map((x) => x.busy),
      2,
    );
    console.log(
      `| ${dist} | ${at(
        s.map((x) => x.helpers),
        0.5,
      )} | ${busy} | ${cols.join(" | ")} |`,
    );
  });
  for (let i = 1; i < dists.length; i++) {
    const ratio = (kind, k) =>
      spread(
        results[i][kind].map((x, r) => x[k] / results[0][kind][r][k]),
        3,
      );
    const parts = [
      `burst ${ratio("burst", "wall")}`,
      `p99 ${ratio("burst", "p99")}`,
      `max ${ratio("burst", "max")}`,
      ...keys.map((k) => `${k} ${ratio("steady", k)}`),
    ];
    console.log(`\n${dists[i]} / ${dists[0]}, per round: ${parts.join(", ")}`);
  }
}

const [mode, a, b] = process.argv.slice(2);
if (mode === "--burst") process.stdout.write(JSON.stringify(await burst(a, Number(b))));
else if (mode === "--steady") process.stdout.write(JSON.stringify(await steady(a, b)));
else await main([join(here, "..", "dist"), ...process.argv.slice(2).map((d) => resolve(d))]);
