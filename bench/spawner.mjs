#!/usr/bin/env node
/**
 * `node bench/spawner.mjs`: the spawner helper against the direct spawn and Go libcni, with
 * the runtime process small (~50 MB) and holding 1 GB of Buffers, side by side in one run.
 *
 * Figures: per-ADD chain of 1 and 5 (durable, and chain of 1 without fsync),
 * 100 concurrent ADDs with the event-loop delay p99/max during them, CPU per ADD (the
 * process's and its helpers'), the cost of one plugin start vs the heap (50 MB to 2 GB), and
 * the helpers' RSS. Each variant is its own long-lived worker (bench/lib/worker.mjs); a round
 * runs every variant once in a rotating order; figures are medians over rounds, ratios medians
 * of per-round ratios.
 *
 * Needs what bench/run.mjs needs (gcc, Go, Go libcni) plus the built helper
 * (npm run build:native). Environment: BENCH_ROUNDS (default 8); BENCH_BASELINE_DIST=<dist dir>
 * adds that build of the library (with the spawner) at both heaps, side by side in the same
 * rounds, and a table of this build over it.
 */
import { access, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { buildNative, checkPrerequisites } from "./lib/build.mjs";
import { benchDir, CALLS, concurrentCmd, loadText, log, repoRoot, rounds } from "./lib/common.mjs";
import { makeFixtures } from "./lib/fixtures.mjs";
import { rotate, Server } from "./lib/server.mjs";
import { median, medianRatio } from "./lib/stats.mjs";

const here = benchDir;
const ROUNDS = rounds(8);
const START_CALLS = 20;
const BASELINE = process.env.BENCH_BASELINE_DIST;

/** A worker process with `env` added to this process's environment. */
const worker = (name, command, args, env) =>
  new Server(name, command, args, { env: { ...process.env, ...env } });

const ms = (ns) => (ns / 1e6).toFixed(2);

async function main() {
  const t0 = Date.now();
  const load = loadText();
  await checkPrerequisites(repoRoot);
  const helper = join(repoRoot, `dist/native/${process.platform}-${process.arch}/libcni-spawner`);
  await access(helper).catch(() => {
    throw new Error(`no spawner binary at ${helper}: run npm run build:native`);
  });
  const bin = await buildNative(repoRoot);
  const work = await mkdtemp(join(repoRoot, "bench/.build/spawner-"));
  const workers = [];
  const workerJs = join(here, "lib/worker.mjs");
  const ts = (name, launcher, mb, extra = {}) => {
    const w = worker(name, process.execPath, [workerJs, "ts"], {
      LIBCNI_LAUNCHER: launcher,
      BENCH_BALLAST_MB: String(mb),
      ...extra,
    });
    workers.push(w);
    return w;
  };
  try {
    const fx = await makeFixtures(work, bin.noop);
    const noop = join(fx.pluginDir, "noop");
    const go = worker("go", bin.goBench, []);
    workers.push(go);
    const heaps = { "50MB": 0, "1GB": 1024 };
    const variants = {};
    for (const [label, mb] of Object.entries(heaps)) {
      variants[`direct@${label}`] = ts(`direct@${label}`, "direct", mb);
      variants[`spawner@${label}`] = ts(`spawner@${label}`, "spawner", mb);
      if (BASELINE) {
        const name = `before@${label}`;
        variants[name] = ts(name, "spawner", mb, { BENCH_DIST: BASELINE });
      }
    }
    variants.go = go;
    const cache = (name) => join(work, "cache", name);
    const addCmd = (chain, name, extra = {}) => ({
      op: "add",
      conflist: chain === 1 ? fx.chain1 : fx.chain5,
      calls: CALLS[chain],
      containerID: "bench",
      pluginDir: fx.pluginDir,
      cacheDir: cache(name),
      ...extra,
    });

    const samples = {};
    const put = (figure, name, value) => {
      samples[figure] ??= {};
      samples[figure][name] ??= [];
      samples[figure][name].push(value);
    };
    const round = async (r, keep) => {
      for (const name of rotate(Object.keys(variants), r)) {
        const w = variants[name];
        const a1 = await w.send(addCmd(1, name));
        const a1n = await w.send(addCmd(1, `${name}-nosync`, { durable: false }));
        const a5 = await w.send(addCmd(5, name));
        const dir = cache(`cc-${name}-${r}`);
        const cc = await w.send(concurrentCmd(fx, dir, r));
        await rm(dir, { recursive: true, force: true });
        if (!keep) continue;
        put("add1", name, a1.ns / CALLS[1]);
        put("add1nosync", name, a1n.ns / CALLS[1]);
        put("add5", name, a5.ns / CALLS[5]);
        put("cc", name, cc.ns);
        if (cc.eldP99 !== undefined) {
          put("eldP99", name, cc.eldP99);
          put("eldMax", name, cc.eldMax);
        }
        if (a1.cpuUs !== undefined) put("cpu1", name, (a1.cpuUs + a1.helperCpuUs) / CALLS[1]);
      }
    };
    log("warming up ...");
    await round(0, false);
    for (let r = 0; r < ROUNDS; r++) {
      log(`round ${r + 1}/${ROUNDS} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      await round(r, true);
    }
    const helpers = {};
    for (const name of Object.keys(variants).filter((n) => n.startsWith("spawner"))) {
      helpers[name] = await variants[name].send({ op: "helpers" });
    }
    for (const w of workers.splice(0)) await w.close();

    // Cost of one plugin start vs the heap: a pair of workers per heap size, in turn.
    log("start cost vs heap ...");
    const startRows = [];
    for (const mb of [50, 512, 1024, 2048]) {
      const direct = ts(`direct@${mb}`, "direct", mb === 50 ? 0 : mb);
      const helperW = ts(`spawner@${mb}`, "spawner", mb === 50 ? 0 : mb);
      const cmd = { op: "start", plugin: noop, pluginDir: fx.pluginDir, calls: START_CALLS };
      await direct.send(cmd);
      await helperW.send(cmd);
      const d = [];
      const h = [];
      for (let r = 0; r < ROUNDS; r++) {
        for (const [w, list] of rotate(
          [
            [direct, d],
            [helperW, h],
          ],
          r,
        )) {
          list.push((await w.send(cmd)).ns / START_CALLS);
        }
      }
      const rss = (await direct.send({ op: "helpers" })).rssKb;
      startRows.push({
        mb,
        rssMb: rss / 1024,
        direct: median(d),
        spawner: median(h),
        ratio: medianRatio(d, h),
      });
      for (const w of workers.splice(0)) await w.close();
    }
    report(samples, helpers, startRows, { load, seconds: (Date.now() - t0) / 1000 });
  } finally {
    for (const w of workers) await w.close().catch(() => {});
    await rm(work, { recursive: true, force: true });
  }
}

function report(s, helpers, startRows, meta) {
  const out = [];
  const p = (line) => out.push(line);
  const med = (fig, name) => median(s[fig][name]);
  const vsGo = (fig, name) => medianRatio(s[fig][name], s[fig].go);
  p(
    `Spawner bench: ${ROUNDS} rounds, ${meta.seconds.toFixed(0)} s, load average ${meta.load} at the start.\n`,
  );
  p("| figure | heap | direct spawn | spawner | Go 1.1.2 | direct / Go | spawner / Go |");
  p("| --- | --- | --- | --- | --- | --- | --- |");
  const rows = [
    ["ADD chain of 1 (durable), per call", "add1", ms],
    ["ADD chain of 1, durableCache: false", "add1nosync", ms],
    ["ADD chain of 5 (durable), per call", "add5", ms],
    ["100 concurrent ADDs, chain of 1", "cc", ms],
  ];
  for (const heap of ["50MB", "1GB"]) {
    for (const [label, fig, fmt] of rows) {
      const d = `direct@${heap}`;
      const h = `spawner@${heap}`;
      p(
        `| ${label} | ${heap} | ${fmt(med(fig, d))} ms | ${fmt(med(fig, h))} ms | ${fmt(med(fig, "go"))} ms | ${vsGo(fig, d).toFixed(2)}x | ${vsGo(fig, h).toFixed(2)}x |`,
      );
    }
    const d = `direct@${heap}`;
    const h = `spawner@${heap}`;
    p(
      `| event-loop delay p99 / max during the 100 | ${heap} | ${ms(med("eldP99", d))} / ${ms(med("eldMax", d))} ms | ${ms(med("eldP99", h))} / ${ms(med("eldMax", h))} ms | | | |`,
    );
    p(
      `| CPU per ADD chain of 1 (process + helpers) | ${heap} | ${(med("cpu1", d) / 1000).toFixed(2)} ms | ${(med("cpu1", h) / 1000).toFixed(2)} ms | | | |`,
    );
  }
  if (s.add1["before@50MB"] !== undefined) {
    p("");
    p(`This build over ${BASELINE} (both with the spawner, per-round ratios):`);
    p("");
    p("| figure | heap | before | this build | this / before | before / Go | this / Go |");
    p("| --- | --- | --- | --- | --- | --- | --- |");
    for (const heap of ["50MB", "1GB"]) {
      const b = `before@${heap}`;
      const h = `spawner@${heap}`;
      for (const [label, fig, fmt] of rows) {
        p(
          `| ${label} | ${heap} | ${fmt(med(fig, b))} ms | ${fmt(med(fig, h))} ms | ${medianRatio(s[fig][h], s[fig][b]).toFixed(2)}x | ${vsGo(fig, b).toFixed(2)}x | ${vsGo(fig, h).toFixed(2)}x |`,
        );
      }
      p(
        `| event-loop delay p99 / max during the 100 | ${heap} | ${ms(med("eldP99", b))} / ${ms(med("eldMax", b))} ms | ${ms(med("eldP99", h))} / ${ms(med("eldMax", h))} ms | | | |`,
      );
      p(
        `| CPU per ADD chain of 1 (process + helpers) | ${heap} | ${(med("cpu1", b) / 1000).toFixed(2)} ms | ${(med("cpu1", h) / 1000).toFixed(2)} ms | | | |`,
      );
    }
  }
  p("");
  p("Latency at 1 GB over 50 MB (same launcher, per-round ratio):");
  for (const l of ["direct", "spawner"]) {
    const parts = ["add1", "add5", "cc"].map(
      (f) => `${f} ${medianRatio(s[f][`${l}@1GB`], s[f][`${l}@50MB`]).toFixed(2)}x`,
    );
    p(`- ${l}: ${parts.join(", ")}`);
  }
  p("");
  p(
    "| one plugin start (RawExec, noop) | process RSS | direct spawn | spawner | direct / spawner |",
  );
  p("| --- | --- | --- | --- | --- |");
  for (const r of startRows) {
    p(
      `| ballast ${r.mb === 50 ? "none" : `${r.mb} MB`} | ${r.rssMb.toFixed(0)} MB | ${ms(r.direct)} ms | ${ms(r.spawner)} ms | ${r.ratio.toFixed(2)}x |`,
    );
  }
  p("");
  for (const [name, h] of Object.entries(helpers)) {
    p(`- helpers of ${name}: ${h.helpers.map((x) => `pid ${x.pid} RSS ${x.rssKb} kB`).join(", ")}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

main().catch((error) => {
  log(String(error?.stack ?? error));
  process.exit(1);
});
