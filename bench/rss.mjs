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
 * Environment: BENCH_ROUNDS (default 40), BENCH_CANDIDATE=<dist dir> for a candidate build.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { buildNative, checkPrerequisites } from "./lib/build.mjs";
import { CALLS, concurrentCmd, loadText, log, repoRoot, rounds } from "./lib/common.mjs";
import { makeFixtures } from "./lib/fixtures.mjs";
import { rotate, Server } from "./lib/server.mjs";

const ROUNDS = rounds(40);
const mib = (kib) => (kib / 1024).toFixed(1);

async function main() {
  const t0 = Date.now();
  const load = loadText();
  await checkPrerequisites(repoRoot);
  const bin = await buildNative(repoRoot);
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
    const header = ["rounds", ...servers.map((s) => `${s.name}: peak RSS (young gen.)`)];
    const lines = [
      `| ${header.join(" | ")} | library - bare | pinned: library - bare |`,
      `|${" --- |".repeat(header.length + 2)}`,
    ];
    const gap = (a, b) => {
      const d = (a.maxRSS - b.maxRSS) / 1024;
      return `${d >= 0 ? "+" : ""}${d.toFixed(1)} MiB`;
    };
    for (const [r, at] of rows) {
      const cells = servers.map(
        (s) => `${mib(at[s.name].maxRSS)} MiB (${mib(at[s.name].youngKiB)})`,
      );
      const gaps = [gap(at.library, at.bare), gap(at["library pinned"], at["bare pinned"])];
      lines.push(`| ${r} | ${cells.join(" | ")} | ${gaps.join(" | ")} |`);
    }
    process.stdout.write(
      `Peak RSS in the long run (node bench/rss.mjs, ${ROUNDS} rounds, load ${load} at the start, ${((Date.now() - t0) / 1000).toFixed(0)} s)\n\n${lines.join("\n")}\n`,
    );
  } finally {
    await Promise.all(servers.map((s) => s.close().catch(() => undefined)));
    await rm(work, { recursive: true, force: true });
  }
}

await main();
