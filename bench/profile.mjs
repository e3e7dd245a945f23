#!/usr/bin/env node
/**
 * Profiles the library on one benchmark scenario: runs bench/lib/worker.mjs under
 * `node --cpu-prof` and prints where the time goes (self time by function, total time by
 * file), so that a missed target comes with evidence.
 *
 * Usage: node bench/profile.mjs <add1|add5|concurrent|load|gc> [repeats=5]
 * (after `npm run build`, from its unbundled build/; builds the C plugin itself, needs gcc only).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { GC_COUNT, GC_PREFIX, makeFixtures } from "./lib/fixtures.mjs";

const execFileP = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..");
const [scenario = "add1", repeatsArg = "5"] = process.argv.slice(2);
const repeats = Number(repeatsArg);

/** Self and total time per function and per file from a .cpuprofile. */
function analyse(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map();
  const dts = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (dts[i] ?? 0));
  }
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const where = (n) => {
    const url = n.callFrame.url.replace(/^file:\/\//, "");
    const file = url.startsWith(repoRoot) ? relative(repoRoot, url) : url || "(native)";
    return file;
  };
  const fnKey = (n) =>
    `${n.callFrame.functionName || "(anonymous)"}  ${where(n)}:${n.callFrame.lineNumber + 1}`;
  const self = new Map();
  const fileTotal = new Map();
  for (const [id, us] of selfUs) {
    const n = byId.get(id);
    self.set(fnKey(n), (self.get(fnKey(n)) ?? 0) + us);
    // Inclusive per file: count the sample once for every distinct file on its stack.
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const f = where(byId.get(cur));
      if (seen.has(f)) continue;
      seen.add(f);
      fileTotal.set(f, (fileTotal.get(f) ?? 0) + us);
    }
  }
  const top = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(
        ([name, us]) =>
          `${((100 * us) / total).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(6)} ms  ${name}`,
      )
      .join("\n");
  return `profile: ${(total / 1000).toFixed(0)} ms sampled\n\nself time by function:\n${top(self, 30)}\n\ntotal time by file (inclusive):\n${top(fileTotal, 30)}\n`;
}

const work = await mkdtemp(join(repoRoot, "bench/.build/prof-"));
try {
  await execFileP("gcc", ["-O2", "-o", join(work, "noop-bin"), join(here, "plugins/noop.c")]);
  const fx = await makeFixtures(work, join(work, "noop-bin"));
  const profDir = join(work, "prof");
  const child = spawn(
    process.execPath,
    ["--cpu-prof", "--cpu-prof-dir", profDir, join(here, "lib/worker.mjs"), "ts"],
    {
      stdio: ["pipe", "pipe", "inherit"],
      // The unbundled build (build/, one file per source file), so that "by file" names files
      // of src/ rather than the shipped bundle's chunks; the code is the same.
      env: { ...process.env, BENCH_DIST: join(repoRoot, "build") },
    },
  );
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const send = async (cmd) => {
    child.stdin.write(`${JSON.stringify(cmd)}\n`);
    const a = JSON.parse((await lines.next()).value);
    if (a.error) throw new Error(a.error);
    return a;
  };
  const cmds = {
    add1: (i) => ({
      op: "add",
      conflist: fx.chain1,
      cacheDir: join(work, "c"),
      calls: 20,
      containerID: `p${i}`,
      pluginDir: fx.pluginDir,
    }),
    add5: (i) => ({
      op: "add",
      conflist: fx.chain5,
      cacheDir: join(work, "c"),
      calls: 5,
      containerID: `p${i}`,
      pluginDir: fx.pluginDir,
    }),
    concurrent: (i) => ({
      op: "concurrent",
      conflist: fx.chain1,
      cacheDir: join(work, `cc${i}`),
      calls: 100,
      prefix: `p${i}-`,
      pluginDir: fx.pluginDir,
    }),
    load: () => ({ op: "loadconfs", dir: fx.confDir, name: fx.lastConf }),
    gc: () => ({
      op: "gc",
      conflist: fx.gcList,
      cacheDir: fx.gcCache,
      valid: GC_COUNT,
      prefix: GC_PREFIX,
      pluginDir: fx.pluginDir,
    }),
  };
  if (!cmds[scenario]) throw new Error(`unknown scenario ${scenario}`);
  for (let i = 0; i < repeats; i++) {
    const a = await send(cmds[scenario](i));
    process.stderr.write(
      `${scenario} #${i + 1}: ${(a.ns / 1e6).toFixed(1)} ms${a.eldP99 ? `, event-loop p99 ${(a.eldP99 / 1e6).toFixed(1)} ms` : ""}\n`,
    );
  }
  child.stdin.end();
  await new Promise((r) => child.once("exit", r));
  const [file] = await readdir(profDir);
  process.stdout.write(analyse(JSON.parse(await readFile(join(profDir, file), "utf8"))));
} finally {
  await rm(work, { recursive: true, force: true });
}
