#!/usr/bin/env node
/**
 * The first burst's stall (issue 15): a runtime holding 1 GB has run one plugin (the first
 * spawner helper is up), then starts 100 plugins at once, so the pool brings a second helper
 * up in the middle of the burst. Started by Node's spawn, that helper costs a fork of the
 * whole runtime on the main thread; started by the first helper, it does not. Each build runs
 * in fresh processes, alternating, `BENCH_ROUNDS` (default 6) times each; printed per build:
 * the burst's time and the event-loop delay (p99 / max) during it, medians over the rounds.
 *
 *   npm run build && npm run build:native && node bench/second-helper.mjs [<other dist dir>]
 *
 * The other dist dir (a build of another commit, with its own dist/native) runs side by side.
 */
import { execFile } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));

async function child(dist, ballastMB) {
  const { RawExec } = await import(pathToFileURL(join(dist, "invoke/raw-exec.js")).href);
  const ballast = [];
  for (let i = 0; i < ballastMB; i++) ballast.push(Buffer.alloc(1024 * 1024, 1));
  const exec = new RawExec({ stderr: null, launcher: "spawner" });
  const stdin = new TextEncoder().encode("{}");
  await exec.execPlugin("/bin/true", stdin, []);
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const started = performance.now();
  await Promise.all(Array.from({ length: 100 }, () => exec.execPlugin("/bin/true", stdin, [])));
  const wall = performance.now() - started;
  h.disable();
  process.stdout.write(
    JSON.stringify({ wall, p99: h.percentile(99) / 1e6, max: h.max / 1e6, held: ballast.length }),
  );
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(dists) {
  const run = promisify(execFile);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
  const ballastMB = Number(process.env.BENCH_BALLAST_MB ?? 1024);
  const results = new Map(dists.map((d) => [d, []]));
  for (let r = 0; r < rounds; r++) {
    for (const dist of r % 2 ? [...dists].reverse() : dists) {
      const { stdout } = await run(process.execPath, [
        fileURLToPath(import.meta.url),
        "--child",
        dist,
        String(ballastMB),
      ]);
      results.get(dist).push(JSON.parse(stdout));
    }
  }
  console.log(`first burst of 100 plugin runs after one, ${ballastMB} MB held, ${rounds} rounds`);
  console.log("| build | burst (median) | event-loop p99 (median) | max (median) |");
  console.log("| --- | --- | --- | --- |");
  for (const [dist, rows] of results) {
    const f = (k) => `${median(rows.map((x) => x[k])).toFixed(1)} ms`;
    console.log(`| ${dist} | ${f("wall")} | ${f("p99")} | ${f("max")} |`);
  }
}

if (process.argv[2] === "--child") await child(process.argv[3], Number(process.argv[4]));
else await main([join(here, "..", "dist"), ...process.argv.slice(2).map((d) => resolve(d))]);
