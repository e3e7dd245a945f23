#!/usr/bin/env node
/**
 * `node bench/trim.mjs <baseline dist dir> [ballastMB]`: this build against another build of
 * the library (e.g. the commit before a change) and Go libcni, paired as closely as a shared
 * machine allows: both builds live in ONE process (same heap, same ballast, both with the
 * spawner helper), and every round runs a short batch of each variant in a rotating order, so
 * a burst of load from elsewhere hits all three alike. Figures: ADD chain of 1 (durable and
 * durableCache: false), chain of 5 (durable), 100 concurrent ADDs with the event-loop delay
 * during them, the caller's turn (until an immediate booked before the 100 calls runs) and
 * the garbage-collection pauses during them. Medians over rounds; ratios are medians of
 * per-round ratios.
 * BENCH_ROUNDS (default 12). Needs `npm run build && npm run build:native`, gcc and Go (GOPATH mode).
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildNative } from "./lib/build.mjs";
import { makeFixtures } from "./lib/fixtures.mjs";
import { median, medianRatio } from "./lib/stats.mjs";

process.env.LIBCNI_LAUNCHER = "spawner";

/** The Go bench program, one JSON command per line (bench/go/libcnibench). */
class Worker {
  constructor(name, command, args) {
    this.name = name;
    const env = { ...process.env };
    for (const k of Object.keys(env)) if (k.startsWith("CNI_")) delete env[k];
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"], env });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.exited = new Promise((res) => this.child.once("exit", res));
  }
  async send(cmd) {
    this.child.stdin.write(`${JSON.stringify(cmd)}\n`);
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`${this.name} exited`);
    const answer = JSON.parse(value);
    if (answer.error) throw new Error(`${this.name}: ${answer.error}`);
    return answer;
  }
  async close() {
    this.child.stdin.end();
    await this.exited;
  }
}
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..");
const [baseDist, ballastArg] = process.argv.slice(2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
const ballast = [];
for (let i = 0; i < Number(ballastArg ?? 0); i++) ballast.push(Buffer.alloc(1024 * 1024, i & 0xff));

const load = (dist) => import(pathToFileURL(join(resolve(dist), "index.js")).href);
const libs = { before: await load(baseDist), this: await load(join(repoRoot, "dist")) };
const bin = await buildNative(repoRoot);
const work = await mkdtemp(join(repoRoot, "bench/.build/trim-"));
const fx = await makeFixtures(work, bin.noop);
const go = new Worker("go", bin.goBench, []);
// The machine's floor: an idle Node process measuring its own event-loop delay over each burst
// ("s" starts a measurement, "e" ends it and answers with p99 and max in ns).
const probe = spawn(
  process.execPath,
  [
    "-e",
    `const {monitorEventLoopDelay}=require("node:perf_hooks");let h;
     require("node:readline").createInterface({input:process.stdin}).on("line",(l)=>{
       if(l==="s"){h=monitorEventLoopDelay({resolution:1});h.enable();return;}
       h.disable();console.log(JSON.stringify({p99:h.percentile(99),max:h.max}));});`,
  ],
  { stdio: ["pipe", "pipe", "inherit"] },
);
const probeLines = createInterface({ input: probe.stdout })[Symbol.asyncIterator]();
const probeStart = () => probe.stdin.write("s\n");
async function probeEnd() {
  probe.stdin.write("e\n");
  return JSON.parse((await probeLines.next()).value);
}
// Garbage-collection pause time of this process (both builds live in it; bursts run apart).
let gcMs = 0;
new PerformanceObserver((items) => {
  for (const e of items.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ["gc"] });
const rt = (id) => ({ containerID: id, netNS: "/var/run/netns/bench", ifName: "eth0" });
const BATCH = { add1: 10, add1fresh: 10, add1nosync: 10, add5: 3 };

async function tsRun(lib, fig, name, r) {
  const conflist = fig === "add5" ? fx.chain5 : fx.chain1;
  const list = await lib.confListFromFile(conflist);
  const cni = new lib.CNIConfig({
    path: [fx.pluginDir],
    cacheDir: join(work, "cache", `${name}-${fig}`),
    durableCache: fig !== "add1nosync",
  });
  if (fig === "cc") {
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    probeStart();
    await new Promise((res) => setTimeout(res, 20));
    const gc0 = gcMs;
    const t0 = process.hrtime.bigint();
    // The caller's turn: until an immediate booked before the 100 calls runs.
    let turn = 0;
    setImmediate(() => {
      turn = Number(process.hrtime.bigint() - t0);
    });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => cni.addNetworkList(list, rt(`r${r}-${i}`))),
    );
    const ns = Number(process.hrtime.bigint() - t0);
    h.disable();
    const idle = await probeEnd();
    const gc = (gcMs - gc0) * 1e6;
    await rm(join(work, "cache", `${name}-${fig}`), { recursive: true, force: true });
    return {
      ns,
      p99: h.percentile(99),
      max: h.max,
      turn,
      gc,
      idleP99: idle.p99,
      idleMax: idle.max,
    };
  }
  // add1fresh: a new attachment per call, as a runtime ADDs (the others re-ADD one attachment,
  // so each write replaces its record).
  const id = (i) => (fig === "add1fresh" ? `f${r}-${i}` : "bench");
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < BATCH[fig]; i++) await cni.addNetworkList(list, rt(id(i)));
  return { ns: Number(process.hrtime.bigint() - t0) / BATCH[fig] };
}

async function goRun(fig, r) {
  const cacheDir = join(work, "cache", `go-${fig}${fig === "cc" ? r : ""}`);
  if (fig === "cc") {
    probeStart();
    await new Promise((res) => setTimeout(res, 20));
    const a = await go.send({
      op: "concurrent",
      conflist: fx.chain1,
      cacheDir,
      calls: 100,
      prefix: `r${r}-`,
      pluginDir: fx.pluginDir,
    });
    const idle = await probeEnd();
    await rm(cacheDir, { recursive: true, force: true });
    return { ns: a.ns, idleP99: idle.p99, idleMax: idle.max };
  }
  const a = await go.send({
    op: "add",
    conflist: fig === "add5" ? fx.chain5 : fx.chain1,
    calls: BATCH[fig],
    containerID: "bench",
    prefix: fig === "add1fresh" ? `f${r}-` : "",
    pluginDir: fx.pluginDir,
    cacheDir,
    durable: fig !== "add1nosync",
  });
  return { ns: a.ns / BATCH[fig] };
}

const figs = ["add1", "add1fresh", "add1nosync", "add5", "cc"];
const names = ["before", "this", "go"];
const s = {};
const t0 = Date.now();
const startLoad = loadavg()
  .map((l) => l.toFixed(1))
  .join(" ");
for (let r = -1; r < ROUNDS; r++) {
  if (r >= 0)
    process.stderr.write(`round ${r + 1}/${ROUNDS} (${((Date.now() - t0) / 1000).toFixed(0)} s)\n`);
  for (const fig of figs) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + r + 3) % names.length];
      const res = name === "go" ? await goRun(fig, r) : await tsRun(libs[name], fig, name, r);
      if (r < 0) continue;
      for (const [key, v] of Object.entries(res)) {
        const fk = `${fig}.${key}`;
        s[fk] ??= {};
        s[fk][name] ??= [];
        s[fk][name].push(v);
      }
    }
  }
}
await go.close();
probe.stdin.end();
await rm(work, { recursive: true, force: true });
const ms = (ns) => (ns / 1e6).toFixed(2);
const labels = {
  add1: "ADD chain of 1 (durable), per call",
  add1fresh: "ADD chain of 1 (durable), a new attachment per call",
  add1nosync: "ADD chain of 1, durableCache: false",
  add5: "ADD chain of 5 (durable), per call",
  cc: "100 concurrent ADDs, chain of 1",
};
const heap = `${Math.round(process.memoryUsage().rss / 1e6)} MB RSS`;
console.log(
  `trim bench: ${ROUNDS} rounds, ${((Date.now() - t0) / 1000).toFixed(0)} s, ballast ${ballastArg ?? 0} MB (${heap}), load ${startLoad} at the start\n`,
);
console.log(
  "| figure | before | this build | Go 1.1.2 | this / before | before / Go | this / Go |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- |");
for (const fig of figs) {
  const x = s[`${fig}.ns`];
  console.log(
    `| ${labels[fig]} | ${ms(median(x.before))} ms | ${ms(median(x.this))} ms | ${ms(median(x.go))} ms | ${medianRatio(x.this, x.before).toFixed(2)}x | ${medianRatio(x.before, x.go).toFixed(2)}x | ${medianRatio(x.this, x.go).toFixed(2)}x |`,
  );
}
const p = s["cc.p99"];
const m = s["cc.max"];
console.log(
  `| event-loop delay p99 / max during the 100 | ${ms(median(p.before))} / ${ms(median(m.before))} ms | ${ms(median(p.this))} / ${ms(median(m.this))} ms | | | | |`,
);
const ip = s["cc.idleP99"];
const im = s["cc.idleMax"];
console.log(
  `| an idle process's own event-loop delay p99 / max over the same bursts (the floor) | ${ms(median(ip.before))} / ${ms(median(im.before))} ms | ${ms(median(ip.this))} / ${ms(median(im.this))} ms | ${ms(median(ip.go))} / ${ms(median(im.go))} ms | | | |`,
);
const turn = s["cc.turn"];
const gc = s["cc.gc"];
console.log(
  `| the caller's turn (100 calls started in one turn) | ${ms(median(turn.before))} ms | ${ms(median(turn.this))} ms | | ${medianRatio(turn.this, turn.before).toFixed(2)}x | | |`,
);
console.log(
  `| GC pauses during the 100 | ${ms(median(gc.before))} ms | ${ms(median(gc.this))} ms | | | | |`,
);
process.exit(0);
