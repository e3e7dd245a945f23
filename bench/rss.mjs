#!/usr/bin/env node
/**
 * The ADD process's peak RSS in the long run, next to the bare Node process doing the same
 * plugin runs: `node bench/rss.mjs`.
 *
 * bench/run.mjs reports each process's peak after its 15 rounds, but there the figure depends
 * on when V8 grows each process's young generation (it doubles it, up to 32 MiB on 64-bit
 * Node 20, once enough bytes have survived its scavenges): the library's process reaches the
 * cap within those rounds, the bare one in some runs and not in others, and the two peaks then
 * differ by some 15 MiB more. Here the same work goes on until both have run many rounds, so
 * that the peaks compare at the young generation a long-lived runtime ends up with; the table
 * gives the largest young generation of each at every checkpoint, so that a reader sees which
 * it was.
 *
 * A round is the ADD process's work in a round of run.mjs: 25 ADDs of a chain of 1, 6 of a
 * chain of 5 (each ADD awaited) and a burst of 100 concurrent ADDs, durable; the bare process
 * spawns the same plugins with the same stdin. The processes take turns, in a rotating order.
 *
 * A second pair does the same work with its young generation pinned at that cap from the
 * start (`--min-semi-space-size` = `--max-semi-space-size`), the same for both: their peaks
 * compare like for like at every checkpoint, whichever process V8 would have grown first.
 *
 * One run is one draw of V8's heuristics: when each young generation grows and where the full
 * GCs fall move a peak by more than the library does. BENCH_TRIALS=<k> runs the whole thing k
 * times, each trial with fresh processes, and reports every trial's last row and the median of
 * the gaps: the figure to hold against a bar.
 *
 * Environment: BENCH_ROUNDS (default 40), BENCH_TRIALS (default 1), BENCH_CANDIDATE=<dist dir>
 * for a candidate build.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { buildNative, checkPrerequisites } from "./lib/build.mjs";
import { CALLS, concurrentCmd, loadText, log, repoRoot, rounds } from "./lib/common.mjs";
import { makeFixtures } from "./lib/fixtures.mjs";
import { rotate, Server } from "./lib/server.mjs";

const ROUNDS = rounds(40);
const mib = (kib) => (kib / 1024).toFixed(1);

const TRIALS = Number(process.env.BENCH_TRIALS ?? 1);
const gapMiB = (a, b) => (a.maxRSS - b.maxRSS) / 1024;
const signed = (d) => `${d >= 0 ? "+" : ""}${d.toFixed(1)} MiB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One trial: fresh processes through ROUNDS rounds; the rows read at the checkpoints. */
async function trial(bin, t0) {
  const work = await mkdtemp(join(repoRoot, "bench/.build/work-"));
  const worker = join(repoRoot, "bench/lib/worker.mjs");
  const server = (name, mode, extra = {}, flags = []) =>
    new Server(name, process.execPath, [...flags, worker, mode], {
      env: { ...process.env, ...extra },
    });
  // V8's largest semi-space on 64-bit Node 20 (MiB): the young generation is two of them.
  const pinned = ["--min-semi-space-size=16", "--max-semi-space-size=16"];
  const candidate = process.env.BENCH_CANDIDATE;
  const servers = [
    server("library", "ts"),
    server("bare", "raw"),
    server("library pinned", "ts", {}, pinned),
    server("bare pinned", "raw", {}, pinned),
  ];
  if (candidate) servers.push(server("candidate", "ts", { BENCH_DIST: candidate }));
  try {
    const fx = await makeFixtures(work, bin.noop);
    const add = (conflist, calls, cacheDir) => ({
      op: "add",
      conflist,
      calls,
      containerID: "bench",
      pluginDir: fx.pluginDir,
      cacheDir,
    });
    const checkpoints = new Set([5, 15, 25, ROUNDS]);
    const rows = [];
    for (let r = 1; r <= ROUNDS; r++) {
      for (const s of rotate(servers, r)) {
        const cacheDir = join(work, s.name);
        await s.send(add(fx.chain1, CALLS[1], cacheDir));
        await s.send(add(fx.chain5, CALLS[5], cacheDir));
        await s.send(concurrentCmd(fx, cacheDir, r));
        await rm(cacheDir, { recursive: true, force: true });
      }
      if (!checkpoints.has(r)) continue;
      const at = {};
      for (const s of servers) at[s.name] = await s.send({ op: "rss" });
      rows.push([r, at]);
      log(`round ${r}/${ROUNDS} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
    return { rows, names: servers.map((s) => s.name) };
  } finally {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
    await rm(work, { recursive: true, force: true });
  }
}

async function main() {
  const t0 = Date.now();
  const load = loadText();
  await checkPrerequisites(repoRoot);
  const bin = await buildNative(repoRoot);
  const trials = [];
  for (let k = 1; k <= TRIALS; k++) {
    if (TRIALS > 1) log(`trial ${k}/${TRIALS}`);
    trials.push(await trial(bin, t0));
  }
  const { names } = trials[0];
  const header = [
    TRIALS > 1 ? "trial" : "rounds",
    ...names.map((n) => `${n}: peak RSS (young gen.)`),
  ];
  const lines = [
    `| ${header.join(" | ")} | library - bare | pinned: library - bare |`,
    `|${" --- |".repeat(header.length + 2)}`,
  ];
  const row = (label, at) => {
    const cells = names.map((n) => `${mib(at[n].maxRSS)} MiB (${mib(at[n].youngKiB)})`);
    const gaps = [gapMiB(at.library, at.bare), gapMiB(at["library pinned"], at["bare pinned"])];
    lines.push(`| ${label} | ${cells.join(" | ")} | ${gaps.map(signed).join(" | ")} |`);
  };
  // One trial: every checkpoint; several: each trial's last row, then the medians.
  if (TRIALS === 1) for (const [r, at] of trials[0].rows) row(r, at);
  else for (const [k, { rows }] of trials.entries()) row(k + 1, rows.at(-1)[1]);
  if (TRIALS > 1) {
    const last = trials.map(({ rows }) => rows.at(-1)[1]);
    const free = last.map((at) => gapMiB(at.library, at.bare));
    const pinned = last.map((at) => gapMiB(at["library pinned"], at["bare pinned"]));
    lines.push(
      `| median |${" |".repeat(names.length)} ${signed(median(free))} | ${signed(median(pinned))} |`,
    );
  }
  process.stdout.write(
    `Peak RSS in the long run (node bench/rss.mjs, ${ROUNDS} rounds${TRIALS > 1 ? ` in each of ${TRIALS} trials` : ""}, load ${load} at the start, ${((Date.now() - t0) / 1000).toFixed(0)} s)\n\n${lines.join("\n")}\n`,
  );
}

await main();
