#!/usr/bin/env node
/**
 * Where an ADD's time goes, layer by layer, in one Node process and interleaved: a bare
 * child_process.spawn, the same detached (the plugin leads its own process group), execa with
 * the library's options, the library's runPlugin, RawExec.execPlugin, and addNetworkList with
 * and without the durable cache. Each layer's median minus the one below is its own cost.
 *
 * Usage: node bench/breakdown.mjs [rounds=15] (after `npm run build`; needs gcc).
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { makeFixtures } from "./lib/fixtures.mjs";
import { median } from "./lib/stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, "..");
const rounds = Number(process.argv[2] ?? 15);
const CALLS = 10;
// The unbundled build (build/): the layers below the entries are measured one by one.
const built = join(repoRoot, "build");
const lib = await import(join(built, "index.js"));
// Internal layers: measured while they exist (a later build may drop execa or rename a file).
const optional = (spec) => import(spec).catch(() => ({}));
const { execa } = await optional("execa");
const { runPlugin } = await optional(join(built, "invoke/run-plugin.js"));
const { PluginEnv } = await optional(join(built, "engines/start/plugin-env.js"));
const { defaultExec, Args } = await import(join(built, "invoke/index.js"));
const { directLauncher, objectStarter } = await import(join(built, "engines/plugin-start.js"));
const { confListFromFile, injectConf } = lib;
// BENCH_CANDIDATE=<dist dir>: also time a candidate build's RawExec and addNetworkList.
const candDir = process.env.BENCH_CANDIDATE;
const cand = candDir ? await import(join(candDir, "index.js")) : undefined;
const candInvoke = candDir ? await import(join(candDir, "invoke/index.js")) : undefined;

const work = await mkdtemp(join(repoRoot, "bench/.build/breakdown-"));
try {
  await promisify(execFile)("gcc", [
    "-O2",
    "-o",
    join(work, "noop-bin"),
    join(here, "plugins/noop.c"),
  ]);
  const fx = await makeFixtures(work, join(work, "noop-bin"));
  const plugin = join(fx.pluginDir, "noop");
  const list = await confListFromFile(fx.chain1);
  const stdin = injectConf(list.plugins[0], { name: list.name, cniVersion: list.cniVersion }).bytes;
  const rt = { containerID: "bench", netNS: "/var/run/netns/bench", ifName: "eth0" };
  const envList = new Args({
    command: "ADD",
    containerID: "bench",
    netNS: rt.netNS,
    ifName: "eth0",
    path: fx.pluginDir,
  }).asEnv();
  const envObj = Object.fromEntries(
    envList.map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
  );
  const bare = (opts) =>
    new Promise((resolve, reject) => {
      const c = spawn(plugin, [], { env: envObj, stdio: "pipe", ...opts });
      const out = [];
      c.stdout.on("data", (d) => out.push(d));
      c.stderr.resume();
      c.on("error", reject);
      c.on("close", () => resolve(Buffer.concat(out)));
      c.stdin.end(stdin);
    });
  const durable = new lib.CNIConfig({ path: [fx.pluginDir], cacheDir: join(work, "c1") });
  const volatile = new lib.CNIConfig({
    path: [fx.pluginDir],
    cacheDir: join(work, "c2"),
    durableCache: false,
  });
  const exec = defaultExec();
  const layers = {
    "spawn (bare)": () => bare({}),
    "spawn detached": () => bare({ detached: true }),
    "execa, library options":
      execa &&
      (() =>
        execa(plugin, [], {
          env: envObj,
          extendEnv: false,
          input: stdin,
          encoding: "buffer",
          detached: true,
          cleanup: false,
          reject: false,
          forceKillAfterDelay: false,
          buffer: false,
          stdout: "pipe",
          stderr: "pipe",
        }).then(() => undefined)),
    "runPlugin (run-plugin.ts)":
      runPlugin &&
      (() =>
        runPlugin(plugin, {
          env: PluginEnv === undefined ? envObj : PluginEnv.ofObject(envObj),
          stdin,
          signal: undefined,
          graceMs: 3000,
          maxOutputBytes: 16 << 20,
          // The direct spawn, as the layers above it: the run's own cost over a bare spawn.
          launcher: objectStarter ? objectStarter(directLauncher) : directLauncher,
        })),
    "RawExec.execPlugin": () => exec.execPlugin(plugin, stdin, envList),
    "addNetworkList, durableCache false": () => volatile.addNetworkList(list, rt),
    "addNetworkList (default, fsync)": () => durable.addNetworkList(list, rt),
  };
  for (const [name, fn] of Object.entries(layers)) if (!fn) delete layers[name];
  if (cand) {
    const cexec = candInvoke.defaultExec();
    const cvol = new cand.CNIConfig({
      path: [fx.pluginDir],
      cacheDir: join(work, "c3"),
      durableCache: false,
    });
    const cdur = new cand.CNIConfig({ path: [fx.pluginDir], cacheDir: join(work, "c4") });
    layers["CANDIDATE RawExec.execPlugin"] = () => cexec.execPlugin(plugin, stdin, envList);
    layers["CANDIDATE addNetworkList, no fsync"] = () => cvol.addNetworkList(list, rt);
    layers["CANDIDATE addNetworkList (fsync)"] = () => cdur.addNetworkList(list, rt);
  }
  const samples = Object.fromEntries(Object.keys(layers).map((k) => [k, []]));
  const names = Object.keys(layers);
  for (let r = -1; r < rounds; r++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + Math.max(r, 0)) % names.length];
      const t0 = process.hrtime.bigint();
      for (let j = 0; j < CALLS; j++) await layers[name]();
      if (r >= 0) samples[name].push(Number(process.hrtime.bigint() - t0) / CALLS / 1e6);
    }
  }
  let prev;
  const base = median(samples["spawn (bare)"]);
  console.log(
    `per call, median of ${rounds} interleaved rounds of ${CALLS} calls (rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB)`,
  );
  for (const name of names) {
    const m = median(samples[name]);
    console.log(
      `${name.padEnd(36)} ${m.toFixed(2).padStart(7)} ms  ${prev === undefined ? "" : `+${(m - prev).toFixed(2)} ms vs previous`}  (${(m / base).toFixed(2)}x bare)`,
    );
    prev = m;
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
