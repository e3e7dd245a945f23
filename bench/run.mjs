#!/usr/bin/env node
/**
 * `npm run bench`: the library's cost next to Go libcni and the exec floor.
 *
 * Every figure is measured side by side in one run: each round runs every variant of a
 * figure once, in a rotating order, and a figure is the median over the rounds (ratios are
 * medians of the per-round ratios). The machine is noisy; interleaving keeps the noise fair.
 *
 * Variants, each in its own long-lived process so that start-up is never timed and each peak
 * RSS is its own: the library (bench/lib/worker.mjs ts), a bare child_process.spawn of the same
 * plugins (worker.mjs raw), Go libcni 1.1.2 (bench/go/libcnibench), and a C posix_spawn loop.
 *
 * Environment: BENCH_ROUNDS (default 15), BENCH_JSON=<file> to also write the raw figures.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildNative, checkPrerequisites } from "./lib/build.mjs";
import {
  benchDir,
  CALLS,
  CONCURRENT,
  concurrentCmd,
  loadText,
  log,
  repoRoot,
  rounds,
} from "./lib/common.mjs";
import { CONF_COUNT, GC_COUNT, GC_PREFIX, makeFixtures } from "./lib/fixtures.mjs";
import { rotate, Server } from "./lib/server.mjs";
import { median, medianRatio } from "./lib/stats.mjs";

const execFileP = promisify(execFile);
const here = benchDir;
const ROUNDS = rounds(15);
const WRITES = 20;

const jsonServer = (name, command, args, env) => new Server(name, command, args, { env });

async function importTimes(n) {
  const dist = join(repoRoot, "dist/index.js");
  const code = (spec) =>
    `const t=performance.now();await import(${JSON.stringify(spec)});console.log(performance.now()-t)`;
  const specs = { libcni: dist, execa: "execa" };
  if (process.env.BENCH_CANDIDATE) specs.candidate = join(process.env.BENCH_CANDIDATE, "index.js");
  const out = Object.fromEntries(Object.keys(specs).map((k) => [k, []]));
  for (let i = 0; i < n; i++) {
    for (const [k, spec] of Object.entries(specs)) {
      const { stdout } = await execFileP(
        process.execPath,
        ["--input-type=module", "-e", code(spec)],
        {
          cwd: repoRoot,
        },
      );
      out[k].push(Number(stdout.trim()));
    }
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, median(v)]));
}

let loadAtStart = "";

async function main() {
  const t0 = Date.now();
  loadAtStart = loadText();
  await checkPrerequisites(repoRoot);
  log("building the C plugin, the C spawn loop and the Go reference ...");
  const bin = await buildNative(repoRoot);
  const work = await mkdtemp(join(repoRoot, "bench/.build/work-"));
  const servers = [];
  try {
    log(`fixtures in ${work} (${CONF_COUNT} conflists, ${GC_COUNT} cache records) ...`);
    const fx = await makeFixtures(work, bin.noop);
    const worker = join(here, "lib/worker.mjs");
    // The library runs in two processes: one for the plugin-running figures, one for the data
    // figures (conf loading, GC of 10,000 records), so that the big heap the data figures build
    // does not slow the other one's fork()s (Node's spawn copies the page tables: its cost grows
    // with RSS) and the comparison with the raw-spawn process stays like for like.
    // The figures without fsync run in a third process, so that the ADD process runs the same
    // spawns as the raw-spawn process and the two peak RSS compare like for like.
    const ts = jsonServer("ts", process.execPath, [worker, "ts"]);
    const tsNoSync = jsonServer("tsNoSync", process.execPath, [worker, "ts"]);
    const tsData = jsonServer("tsData", process.execPath, [worker, "ts"]);
    const raw = jsonServer("raw", process.execPath, [worker, "raw"]);
    const go = jsonServer("go", bin.goBench, []);
    const floor = new Server("floor", bin.spawnloop, [join(fx.pluginDir, "noop"), fx.chain1], {
      parse: (l) => ({ ns: Number(l) }),
    });
    servers.push(ts, tsNoSync, tsData, raw, go, floor);
    // BENCH_CANDIDATE=<dist dir>: a candidate build of the library measured in the same rounds.
    const candidate = process.env.BENCH_CANDIDATE;
    const withEnv = (extra) => ({ ...process.env, ...extra });
    const cand = candidate
      ? jsonServer("cand", process.execPath, [worker, "ts"], withEnv({ BENCH_DIST: candidate }))
      : undefined;
    const candData = candidate
      ? jsonServer("candData", process.execPath, [worker, "ts"], withEnv({ BENCH_DIST: candidate }))
      : undefined;
    if (cand) servers.push(cand, candData);

    const cache = (name) => join(work, name);
    const conflist = { 1: fx.chain1, 5: fx.chain5 };
    const addCmd = (chain, extra) => ({
      op: "add",
      conflist: conflist[chain],
      calls: CALLS[chain],
      containerID: "bench",
      pluginDir: fx.pluginDir,
      ...extra,
    });
    const addVariants = (chain) => ({
      ts: () => ts.send(addCmd(chain, { cacheDir: cache("add-ts") })),
      tsNoSync: () =>
        tsNoSync.send(addCmd(chain, { cacheDir: cache("add-ts-nosync"), durable: false })),
      raw: () => raw.send(addCmd(chain, {})),
      go: () => go.send(addCmd(chain, { cacheDir: cache("add-go") })),
      floor: () => floor.request(`${CALLS[chain]} ${chain}`),
      ...(cand ? { cand: () => cand.send(addCmd(chain, { cacheDir: cache("add-cand") })) } : {}),
    });
    const concurrentVariants = (r) => {
      const run =
        (server, name, extra = {}) =>
        async () => {
          const dir = cache(`cc-${name}`);
          const a = await server.send(concurrentCmd(fx, dir, r, extra));
          await rm(dir, { recursive: true, force: true });
          return a;
        };
      return {
        ts: run(ts, "ts"),
        raw: run(raw, "raw"),
        go: run(go, "go"),
        ...(cand ? { cand: run(cand, "cand") } : {}),
      };
    };
    const loadCmd = { op: "loadconfs", dir: fx.confDir, name: fx.lastConf };
    const loadVariants = {
      ts: () => tsData.send(loadCmd),
      go: () => go.send(loadCmd),
      ...(cand ? { cand: () => candData.send(loadCmd) } : {}),
    };
    const gcCmd = {
      op: "gc",
      conflist: fx.gcList,
      cacheDir: fx.gcCache,
      valid: GC_COUNT,
      prefix: GC_PREFIX,
      pluginDir: fx.pluginDir,
    };
    const gcVariants = {
      ts: () => tsData.send(gcCmd),
      go: () => go.send(gcCmd),
      ...(cand ? { cand: () => candData.send(gcCmd) } : {}),
    };

    const writeCmd = (dir, extra) => ({
      op: "cachewrite",
      record: fx.recordFile,
      cacheDir: cache(dir),
      calls: WRITES,
      containerID: "bench",
      ...extra,
    });
    // The cache write alone calls a module no entry exports (the unbundled build's copy of it):
    // in the data processes, so that the ADD processes hold only the package as it ships.
    const writeVariants = {
      ts: () => tsData.send(writeCmd("w-ts", {})),
      tsNoSync: () => tsData.send(writeCmd("w-ts-nosync", { durable: false })),
      go: () => go.send(writeCmd("w-go", {})),
      ...(cand ? { cand: () => candData.send(writeCmd("w-cand", {})) } : {}),
    };

    const samples = {};
    const record = (figure, variant, answer) => {
      samples[figure] ??= {};
      samples[figure][variant] ??= [];
      samples[figure][variant].push(answer);
    };
    const runGroup = async (figure, variants, r, keep = true) => {
      for (const name of rotate(Object.keys(variants), r)) {
        const answer = await variants[name]();
        if (keep) record(figure, name, answer);
      }
    };

    log("warming up ...");
    await runGroup("add1", addVariants(1), 0, false);
    await runGroup("add5", addVariants(5), 0, false);
    await runGroup("concurrent", concurrentVariants("w"), 0, false);
    await runGroup("write", writeVariants, 0, false);
    await runGroup("load", loadVariants, 0, false);
    await runGroup("gc", gcVariants, 0, false);

    for (let r = 0; r < ROUNDS; r++) {
      log(`round ${r + 1}/${ROUNDS} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
      await runGroup("add1", addVariants(1), r);
      await runGroup("add5", addVariants(5), r);
      await runGroup("concurrent", concurrentVariants(r), r);
      await runGroup("write", writeVariants, r);
      await runGroup("load", loadVariants, r);
      await runGroup("gc", gcVariants, r);
    }

    const rss = {};
    for (const s of [ts, tsNoSync, tsData, raw, go, cand, candData])
      if (s) {
        const { maxRSS, youngKiB } = await s.send({ op: "rss" });
        rss[s.name] = maxRSS;
        if (youngKiB !== undefined) rss[`${s.name}Young`] = youngKiB;
      }
    log("import times ...");
    const imports = await importTimes(9);
    const report = summarise(samples, rss, imports);
    process.stdout.write(report.table);
    log("layer breakdown of one ADD ...");
    const { stdout: layers } = await execFileP(
      process.execPath,
      [join(here, "breakdown.mjs"), String(ROUNDS)],
      { cwd: repoRoot },
    );
    process.stdout.write(
      `\nWhere one ADD's time goes (chain of 1, node bench/breakdown.mjs ${ROUNDS}):\n\n\`\`\`\n${layers}\`\`\`\n`,
    );
    if (process.env.BENCH_JSON)
      await writeFile(
        process.env.BENCH_JSON,
        JSON.stringify({ samples, rss, imports, figures: report.figures }, null, 2),
      );
    log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  } finally {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
    await rm(work, { recursive: true, force: true });
  }
}

function summarise(samples, rss, imports) {
  const ns = (fig, v) => samples[fig][v].map((a) => a.ns);
  const has = (fig, v) => samples[fig][v] !== undefined;
  const perCallMs = (fig, v, calls) => ns(fig, v).map((x) => x / calls / 1e6);
  const ms = (x) => `${x.toFixed(2)} ms`;
  const x = (r) => `${r.toFixed(2)}x`;
  const rows = [];
  const figures = {};
  let allMet = true;
  const target = (ok) => {
    if (!ok) allMet = false;
    return ok ? "met" : "MISSED";
  };
  const candNote = (ok) => (ok ? "would be met" : "still missed");

  for (const chain of [1, 5]) {
    const fig = `add${chain}`;
    const c = CALLS[chain];
    const names = ["ts", "tsNoSync", "raw", "go", "floor", ...(has(fig, "cand") ? ["cand"] : [])];
    const v = Object.fromEntries(names.map((k) => [k, perCallMs(fig, k, c)]));
    const m = Object.fromEntries(Object.entries(v).map(([k, y]) => [k, median(y)]));
    const f = {
      median: m,
      vsGo: medianRatio(v.ts, v.go),
      vsRaw: medianRatio(v.ts, v.raw),
      goVsRaw: medianRatio(v.go, v.raw),
      nosyncVsGo: medianRatio(v.tsNoSync, v.go),
      nosyncVsRaw: medianRatio(v.tsNoSync, v.raw),
      floorVsGo: medianRatio(v.floor, v.go),
    };
    figures[fig] = f;
    rows.push([
      `addNetworkList, chain of ${chain}, per call`,
      ms(m.ts),
      ms(m.go),
      `raw Node spawn ${ms(m.raw)}; C posix_spawn floor ${ms(m.floor)} (${x(f.floorVsGo)} Go)`,
      `${x(f.vsGo)} Go`,
      "≤ 1.0x Go",
      target(f.vsGo <= 1.0),
    ]);
    rows.push([
      `  library's cost over a raw Node spawn (chain of ${chain})`,
      ms(m.ts),
      "",
      `raw Node spawn ${ms(m.raw)} (Go is ${x(f.goVsRaw)} raw)`,
      `${x(f.vsRaw)} raw (+${((f.vsRaw - 1) * 100).toFixed(0)}%)`,
      "≤ 1.2x raw",
      target(f.vsRaw <= 1.2),
    ]);
    rows.push([
      `  same with durableCache: false (no fsync; chain of ${chain})`,
      ms(m.tsNoSync),
      ms(m.go),
      "fsync's own cost: see the cache-write row",
      `${x(f.nosyncVsGo)} Go, ${x(f.nosyncVsRaw)} raw`,
      "informative",
      "",
    ]);
    if (v.cand) {
      f.cand = {
        median: m.cand,
        vsGo: medianRatio(v.cand, v.go),
        vsRaw: medianRatio(v.cand, v.raw),
      };
      rows.push([
        `  CANDIDATE build (chain of ${chain})`,
        ms(m.cand),
        ms(m.go),
        `raw Node spawn ${ms(m.raw)}`,
        `${x(f.cand.vsGo)} Go, ${x(f.cand.vsRaw)} raw`,
        "≤ 1.0x Go, ≤ 1.2x raw",
        candNote(f.cand.vsGo <= 1 && f.cand.vsRaw <= 1.2),
      ]);
    }
  }

  const cc = samples.concurrent;
  const ccMs = (v) => cc[v].map((a) => a.ns / 1e6);
  const eld = (v) => {
    const maxes = cc[v].map((a) => a.eldMax / 1e6);
    return {
      p99: median(cc[v].map((a) => a.eldP99 / 1e6)),
      max: median(maxes),
      worst: Math.max(...maxes),
    };
  };
  const fc = {
    ts: median(ccMs("ts")),
    go: median(ccMs("go")),
    raw: median(ccMs("raw")),
    ratio: medianRatio(ccMs("ts"), ccMs("go")),
    rawVsGo: medianRatio(ccMs("raw"), ccMs("go")),
    eld: eld("ts"),
    rawEld: eld("raw"),
  };
  figures.concurrent = fc;
  rows.push([
    `${CONCURRENT} concurrent ADDs (chain of 1), total`,
    ms(fc.ts),
    ms(fc.go),
    `raw Node spawn ${ms(fc.raw)} (${x(fc.rawVsGo)} Go)`,
    `${x(fc.ratio)} Go`,
    "≤ 1.0x Go",
    target(fc.ratio <= 1.0),
  ]);
  rows.push([
    `  event-loop delay during them: p99 (max)`,
    `${ms(fc.eld.p99)} (${ms(fc.eld.max)}, worst ${ms(fc.eld.worst)})`,
    "",
    `raw Node spawn ${ms(fc.rawEld.p99)} (${ms(fc.rawEld.max)})`,
    "",
    "p99 < 5 ms",
    target(fc.eld.p99 < 5),
  ]);
  if (cc.cand) {
    fc.cand = {
      ms: median(ccMs("cand")),
      ratio: medianRatio(ccMs("cand"), ccMs("go")),
      eld: eld("cand"),
    };
    rows.push([
      `  CANDIDATE build: total; event-loop p99 (max)`,
      `${ms(fc.cand.ms)}; ${ms(fc.cand.eld.p99)} (${ms(fc.cand.eld.max)})`,
      ms(fc.go),
      "",
      `${x(fc.cand.ratio)} Go`,
      "≤ 1.0x Go, p99 < 5 ms",
      candNote(fc.cand.ratio <= 1 && fc.cand.eld.p99 < 5),
    ]);
  }

  {
    const w = (v) => perCallMs("write", v, WRITES);
    const f = {
      ts: median(w("ts")),
      tsNoSync: median(w("tsNoSync")),
      go: median(w("go")),
      fsyncMs: median(w("ts").map((y, i) => y - w("tsNoSync")[i])),
      ratio: medianRatio(w("ts"), w("go")),
      nosyncRatio: medianRatio(w("tsNoSync"), w("go")),
    };
    figures.write = f;
    rows.push([
      "cache record write alone (per ADD): atomic + fsync (default)",
      ms(f.ts),
      `${ms(f.go)} (in place, no fsync)`,
      `atomic without fsync ${ms(f.tsNoSync)} (${x(f.nosyncRatio)} Go); fsync cost ${ms(f.fsyncMs)}`,
      `${x(f.ratio)} Go`,
      "informative (durability by design)",
      "",
    ]);
    if (has("write", "cand"))
      rows.push([
        "  CANDIDATE build",
        ms(median(w("cand"))),
        ms(f.go),
        "",
        `${x(medianRatio(w("cand"), w("go")))} Go`,
        "informative",
        "",
      ]);
  }

  for (const [fig, label] of [
    ["load", `loading ${CONF_COUNT} conflists (loadConfList of the last one)`],
    ["gc", `gcNetworkList over ${GC_COUNT} cached attachments (all valid)`],
  ]) {
    const f = {
      ts: median(ns(fig, "ts")) / 1e6,
      go: median(ns(fig, "go")) / 1e6,
      ratio: medianRatio(ns(fig, "ts"), ns(fig, "go")),
    };
    figures[fig] = f;
    rows.push([
      label,
      ms(f.ts),
      ms(f.go),
      "",
      `${x(f.ratio)} Go`,
      "≤ 1.0x Go",
      target(f.ratio <= 1.0),
    ]);
    if (has(fig, "cand")) {
      f.cand = {
        ms: median(ns(fig, "cand")) / 1e6,
        ratio: medianRatio(ns(fig, "cand"), ns(fig, "go")),
      };
      rows.push([
        `  CANDIDATE build`,
        ms(f.cand.ms),
        ms(f.go),
        "",
        `${x(f.cand.ratio)} Go`,
        "≤ 1.0x Go",
        candNote(f.cand.ratio <= 1),
      ]);
    }
  }

  figures.rss = rss;
  const mib = (kib) => `${(kib / 1024).toFixed(0)} MiB`;
  rows.push([
    "peak RSS: ADD process (durable per-call + concurrent figures: the raw process's spawns)",
    mib(rss.ts),
    mib(rss.go),
    `raw Node spawn process ${mib(rss.raw)} (+${((rss.ts - rss.raw) / 1024).toFixed(0)} MiB); the no-fsync process ${mib(rss.tsNoSync)}; largest young generation ${mib(rss.tsYoung)} / raw ${mib(rss.rawYoung)} (bench/rss.mjs: the long run)`,
    `${x(rss.ts / rss.go)} Go`,
    "informative",
    "",
  ]);
  rows.push([
    "peak RSS: data process (conf loading, GC of 10,000, cache writes)",
    mib(rss.tsData),
    mib(rss.go),
    "(the Go process did both)",
    `${x(rss.tsData / rss.go)} Go`,
    "informative",
    "",
  ]);
  if (rss.cand)
    rows.push([
      "  CANDIDATE build: ADD / data process",
      `${mib(rss.cand)} / ${mib(rss.candData)}`,
      mib(rss.go),
      "",
      "",
      "informative",
      "",
    ]);
  figures.imports = imports;
  rows.push([
    "import time of the package (fresh node, median)",
    ms(imports.libcni),
    "",
    `for scale: execa alone ${ms(imports.execa)}`,
    "",
    "informative",
    "",
  ]);
  if (imports.candidate !== undefined)
    rows.push(["  CANDIDATE build", ms(imports.candidate), "", "", "", "informative", ""]);

  const head = [
    "figure",
    "TypeScript (libcni)",
    "Go libcni 1.1.2",
    "references",
    "ratio",
    "target",
    "status",
  ];
  const line = (cells) => `| ${cells.join(" | ")} |\n`;
  let table = `\nlibcni benchmarks: ${ROUNDS} interleaved rounds, medians; node ${process.version}, ${cpus().length} CPUs, load average at start ${loadAtStart}\n\n`;
  table += line(head) + line(head.map(() => "---"));
  for (const r of rows) table += line(r);
  return { table, figures, allMet };
}

main().catch((error) => {
  log(error.message);
  process.exitCode = 1;
});
