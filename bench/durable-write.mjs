#!/usr/bin/env node
/**
 * `node bench/durable-write.mjs <other dist dir>` (after `npm run build && npm run
 * build:native`): the library's file work, paired in ONE process, rounds in a rotating order
 * after a warm-up round that is not kept:
 *
 * - writes: a cache record's atomic, durable replacement (temporary file, write, fdatasync,
 *   close, rename, directory fsync) by this build's cache-write worker thread
 *   (`cacheWriteThread()`) and on the main thread, one fs call per step (`writeFileAtomic`, its
 *   fallback); with `BENCH_HELPER_WRITES=<dist dir>`, also by the spawner helper's file threads
 *   (a build whose `writeFileAtomic` sends the whole write to the helper: the prototype measured
 *   in bench/README.md);
 *   figures: one record (sequential, `BENCH_CALLS` a round), the same without fsync, 100 at
 *   once (with the event-loop delay during them), and a pod setup's files (its intent, then its
 *   three networks' records at once, then the intent removed);
 * - reads: `loadConfList` of the last of 1,000 conflists, and the listing of a cache dir of
 *   10,000 records as GC lists it (`listCachedAttachments`: every record read and decoded), by
 *   this build (the helper reads each directory's files in batches) and by the other build.
 *
 * Then peak RSS: fresh processes, each writing one record and loading one conflist, this build
 * with its worker thread and with `LIBCNI_CACHE_WRITE=inline` (no thread), `BENCH_RSS_PAIRS`
 * pairs.
 *
 * Environment: BENCH_ROUNDS (default 21), BENCH_CALLS (default 20), BENCH_RSS_PAIRS (default 7).
 */
import { execFile } from "node:child_process";
import { mkdir, rm, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { promisify } from "node:util";
import { benchDir, log, repoRoot } from "./lib/common.mjs";
import { makeFixtures } from "./lib/fixtures.mjs";
import { median, medianRatio, quantile } from "./lib/stats.mjs";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 21);
const CALLS = Number(process.env.BENCH_CALLS ?? 20);
const RSS_PAIRS = Number(process.env.BENCH_RSS_PAIRS ?? 7);
const other = process.argv[2] ? resolve(process.argv[2]) : undefined;
if (other === undefined) {
  log("usage: node bench/durable-write.mjs <other dist dir (a build with the cache-write thread)>");
  process.exit(2);
}
const thisDist = join(repoRoot, "dist");

if (process.argv[3] === "--rss") {
  // A child of the RSS figure: one record written, one conflist loaded, then the peak RSS.
  const dist = process.argv[2];
  const work = process.argv[4];
  const { writeCacheRecord } = await import(`${dist}/api/cache.js`);
  const { loadConfList } = await import(`${dist}/index.js`);
  const bytes = new TextEncoder().encode(
    JSON.stringify({ kind: "cniCacheV1", pad: "x".repeat(900) }),
  );
  await writeCacheRecord(join(work, "rss-cache", "results", `n-${process.pid}-eth0`), bytes);
  await loadConfList(join(work, "confs"), "net-0000");
  process.stdout.write(`${process.resourceUsage().maxRSS}\n`);
  process.exit(0);
}

const here = await import(`${thisDist}/api/atomic-write.js`);
const thisCache = await import(`${thisDist}/api/cache.js`);
const thisLib = await import(`${thisDist}/index.js`);
const { sharedSpawner } = await import(`${thisDist}/invoke/spawner/select.js`);
const { helperFiles } = await import(`${thisDist}/invoke/spawner/file-io.js`);
const thisThread = await import(`${thisDist}/api/cache-write-thread.js`);
const otherCache = await import(`${other}/api/cache.js`);
const otherLib = await import(`${other}/index.js`);
const helperDist = process.env.BENCH_HELPER_WRITES;
const helperWrites = helperDist
  ? await import(`${resolve(helperDist)}/api/atomic-write.js`)
  : undefined;
const helperSpawner = helperDist
  ? await import(`${resolve(helperDist)}/invoke/spawner/select.js`)
  : undefined;

if ((await helperFiles()) === undefined) {
  log("this build's spawner helper has no file channel here: npm run build:native");
  process.exit(1);
}
const thread = thisThread.cacheWriteThread();

const work = join(benchDir, ".build", `durable-${process.pid}`);
await rm(work, { recursive: true, force: true });
await mkdir(work, { recursive: true });

// A record of the usual size (Go's format, a bridge + IPAM config in base64 and a result).
const record = new TextEncoder().encode(
  JSON.stringify({ kind: "cniCacheV1", containerId: "c".repeat(64), pad: "x".repeat(1100) }),
);
const intent = new TextEncoder().encode(
  JSON.stringify({ kind: "libcniSetupIntentV1", pad: "y".repeat(2400) }),
);

const writers = {
  worker: (path, data, durable) => thread.write(path, data, 0o600, durable),
  main: (path, data, durable) => here.writeFileAtomic(path, data, { mode: 0o600, durable }),
};
if (helperWrites !== undefined) {
  writers.helper = (path, data, durable) =>
    helperWrites.writeFileAtomic(path, data, { mode: 0o600, durable });
}
const names = Object.keys(writers);

const dirs = {};
for (const name of names) {
  dirs[name] = join(work, name);
  await mkdir(join(dirs[name], "results"), { recursive: true });
  await mkdir(join(dirs[name], "intents"), { recursive: true });
}

const now = () => performance.now();

async function sequential(name, durable) {
  const path = join(dirs[name], "results", "net-c-eth0");
  const t0 = now();
  for (let i = 0; i < CALLS; i++) await writers[name](path, record, durable);
  return (now() - t0) / CALLS;
}

async function burst(name, r) {
  const dir = join(dirs[name], `burst${r}`);
  await mkdir(dir);
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await new Promise((res) => setTimeout(res, 20));
  const t0 = now();
  await Promise.all(
    Array.from({ length: 100 }, (_, i) => writers[name](join(dir, `net-c${i}-eth0`), record, true)),
  );
  const ms = now() - t0;
  h.disable();
  await rm(dir, { recursive: true, force: true });
  return { ms, p99: h.percentile(99) / 1e6 };
}

async function pod(name) {
  const t0 = now();
  for (let i = 0; i < 10; i++) {
    const intentPath = join(dirs[name], "intents", `pod${i}`);
    await writers[name](intentPath, intent, true);
    await Promise.all(
      ["a", "b", "c"].map((n) =>
        writers[name](join(dirs[name], "results", `${n}-pod${i}-eth${n}`), record, true),
      ),
    );
    await unlink(intentPath);
  }
  return (now() - t0) / 10;
}

log("fixtures (1,000 conflists, 10,000 records)...");
const fx = await makeFixtures(work, process.execPath);
const readers = {
  this: {
    load: () => thisLib.loadConfList(fx.confDir, fx.lastConf),
    list: () => thisCache.listCachedAttachments(fx.gcCache, "", { sweep: true }),
  },
  other: {
    load: () => otherLib.loadConfList(fx.confDir, fx.lastConf),
    list: () => otherCache.listCachedAttachments(fx.gcCache, "", { sweep: true }),
  },
};
const rnames = Object.keys(readers);

const samples = {};
const add = (key, v) => {
  samples[key] ??= [];
  samples[key].push(v);
};
const rotate = (items, r) => items.map((_, i) => items[(i + r) % items.length]);

for (let r = -1; r < ROUNDS; r++) {
  const keep = (key, v) => r >= 0 && add(key, v);
  for (const n of rotate(names, r + 1)) keep(`one:${n}`, await sequential(n, true));
  for (const n of rotate(names, r + 1)) keep(`nosync:${n}`, await sequential(n, false));
  for (const n of rotate(names, r + 1)) {
    const b = await burst(n, r + 1);
    keep(`burst:${n}`, b.ms);
    keep(`p99:${n}`, b.p99);
  }
  for (const n of rotate(names, r + 1)) keep(`pod:${n}`, await pod(n));
  for (const n of rotate(rnames, r + 1)) {
    const t0 = now();
    const got = await readers[n].load();
    keep(`load:${n}`, now() - t0);
    if (got.name !== fx.lastConf) throw new Error(`loaded ${got.name}`);
  }
  for (const n of rotate(rnames, r + 1)) {
    const t0 = now();
    const got = await readers[n].list();
    keep(`list:${n}`, now() - t0);
    if (got.length !== 10000) throw new Error(`listed ${got.length}`);
  }
  if (r >= 0) log(`round ${r + 1}/${ROUNDS}`);
}

const fmt = (v) => (v >= 100 ? v.toFixed(1) : v >= 10 ? v.toFixed(2) : v.toFixed(3));
const spread = (a) => `${fmt(quantile(a, 0.1))}-${fmt(quantile(a, 0.9))}`;
const ratioSpread = (a, b) => {
  const q = a.map((x, i) => x / b[i]);
  return `${quantile(q, 0.1).toFixed(2)}-${quantile(q, 0.9).toFixed(2)}`;
};
const rows = [];
const row = (figure, key, variants, base) => {
  const cells = variants.map((v) => `${v} ${fmt(median(samples[`${key}:${v}`]))} ms`);
  const ratios = variants
    .filter((v) => v !== base)
    .map(
      (v) =>
        `${v}/${base} ${medianRatio(samples[`${key}:${v}`], samples[`${key}:${base}`]).toFixed(2)}x (p10-p90 ${ratioSpread(samples[`${key}:${v}`], samples[`${key}:${base}`])})`,
    );
  const spreads = variants.map((v) => `${v} ${spread(samples[`${key}:${v}`])}`);
  rows.push(`| ${figure} | ${cells.join("; ")} | ${ratios.join("; ")} | ${spreads.join("; ")} |`);
};
row("one durable record write", "one", ["helper", "worker", "main"], "worker");
row("one record write, no fsync", "nosync", ["helper", "worker", "main"], "worker");
row("100 durable record writes at once", "burst", ["helper", "worker", "main"], "worker");
row("event-loop p99 during the 100", "p99", ["helper", "worker", "main"], "worker");
row(
  "a pod setup's files: intent, 3 records at once, intent removed",
  "pod",
  ["helper", "worker", "main"],
  "worker",
);
row("loadConfList, last of 1,000 conflists", "load", ["this", "other"], "other");
row("listCachedAttachments over 10,000 records (GC's reads)", "list", ["this", "other"], "other");

await thread.close();
sharedSpawner().stop();
helperSpawner?.sharedSpawner().stop();

// Peak RSS, fresh processes, pairs in alternating order.
const run = promisify(execFile);
await mkdir(join(work, "rss-cache", "results"), { recursive: true });
const rss = { worker: [], main: [] };
const self = new URL(import.meta.url).pathname;
for (let i = 0; i < RSS_PAIRS; i++) {
  for (const v of i % 2 ? ["main", "worker"] : ["worker", "main"]) {
    const env = { ...process.env, LIBCNI_CACHE_WRITE: v === "main" ? "inline" : "" };
    const { stdout } = await run(process.execPath, [self, thisDist, "--rss", work], { env });
    rss[v].push(Number(stdout.trim()) / 1024);
  }
}
rows.push(
  `| peak RSS, a fresh process writing one record and loading one conflist | worker ${median(rss.worker).toFixed(1)} MiB; main ${median(rss.main).toFixed(1)} MiB | worker - main ${median(rss.worker.map((x, i) => x - rss.main[i])).toFixed(1)} MiB | worker ${spread(rss.worker)}; main ${spread(rss.main)} |`,
);

await rm(work, { recursive: true, force: true });
console.log(
  `${ROUNDS} rounds, ${CALLS} sequential writes a round; medians (ms), ratios medians of per-round ratios`,
);
console.log("| figure | medians | ratio | p10-p90 |");
console.log("| --- | --- | --- | --- |");
for (const r of rows) console.log(r);
