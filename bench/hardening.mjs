#!/usr/bin/env node
/**
 * Amplification: what a result just under the 16 MiB output cap costs the runtime.
 *
 * Three results: 500,000 routes, 1,000,000 interfaces and 300,000 IPs, each under 16 MiB. For each, a fresh
 * process runs one ADD (the plugin prints the result; the library decodes it, caches it) and
 * another fresh process the DEL that follows (reads the record back, sends it as prevResult),
 * so each peak RSS is its verb's own. Reported: the result's bytes, the peak RSS above the
 * process's RSS just before the call (and that over the result's bytes), and the longest
 * event-loop stall during the call (the largest gap of a 5 ms interval timer, minus 5 ms).
 * The "JSON.parse" row is the floor: the result's bytes read and parsed once by V8 alone (one
 * uninterruptible call, whatever a library does around it).
 *
 *   npm run build && node bench/hardening.mjs [<dist dir> ...]
 *
 * Each extra dist dir (a build of another commit) runs the same scenarios in the same run:
 * `BENCH_ROUNDS` rounds (default 3), the builds interleaved in an order rotated each round;
 * medians with min-max, and per-round ratios of each other build over the first. Targets:
 * peak RSS <= ~10x the result's bytes; no stall over a few hundred ms.
 */
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const MiB = 1024 * 1024;

function routesResult() {
  const routes = [];
  for (let i = 0; i < 500_000; i++) {
    // Under the cap: a gateway on one route in four.
    const gw = i % 4 === 0 ? ',"gw":"10.0.0.1"' : "";
    routes.push(`{"dst":"10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32"${gw}}`);
  }
  return `{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24","gateway":"10.0.0.1"}],"routes":[${routes.join(",")}]}`;
}

function interfacesResult() {
  const ifs = [];
  for (let i = 0; i < 1_000_000; i++) ifs.push(`{"name":"${i.toString(36)}"}`);
  return `{"cniVersion":"1.0.0","interfaces":[${ifs.join(",")}]}`;
}

function ipsResult() {
  const ips = [];
  for (let i = 0; i < 300_000; i++) {
    const gw = i % 4 === 0 ? ',"gateway":"10.0.0.1"' : "";
    ips.push(
      `{"address":"10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32"${gw},"interface":0}`,
    );
  }
  return `{"cniVersion":"1.0.0","interfaces":[{"name":"eth0"}],"ips":[${ips.join(",")}]}`;
}

/** Runs in the child: one verb, measured. */
async function child(dist, verb, dir) {
  const { CNIConfig } = await import(pathToFileURL(join(dist, "index.js")).href);
  const { DefaultExec } = await import(pathToFileURL(join(dist, "invoke/index.js")).href);
  const { networkConfFromBytes } = await import(pathToFileURL(join(dist, "index.js")).href);
  const cni = new CNIConfig({
    path: [dir],
    cacheDir: join(dir, "cache"),
    exec: new DefaultExec({ stderr: null }),
    durableCache: false,
  });
  const list = networkConfFromBytes(
    Buffer.from('{"name":"amp","cniVersion":"1.0.0","plugins":[{"type":"amp-plugin"}]}'),
  );
  const rt = { containerID: "amp", netNS: "/var/run/netns/amp", ifName: "eth0" };
  // A runtime has attached containers before: one small ADD and DEL first, so that what is
  // measured is the large result's cost, not the library's first start (modules, the cache
  // directory, the cache-write thread).
  const warm = { ...rt, containerID: "warm" };
  await cni.addNetworkList(list, warm);
  await cni.delNetworkList(list, warm);
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  let last = performance.now();
  let maxStall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxStall = Math.max(maxStall, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  if (verb === "ADD") await cni.addNetworkList(list, rt);
  else if (verb === "DEL") await cni.delNetworkList(list, rt);
  else {
    // The floor: reading the result's bytes and one JSON.parse of them, nothing of the library.
    const bytes = await readFile(join(dir, "amp-plugin.out"));
    await new Promise((r) => setTimeout(r, 10));
    JSON.parse(bytes.toString());
    await new Promise((r) => setTimeout(r, 10));
  }
  const wall = performance.now() - started;
  clearInterval(timer);
  const peak = process.resourceUsage().maxRSS * 1024;
  process.stdout.write(JSON.stringify({ before, peak, maxStall, wall }));
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const range = (xs) => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;

async function main(dists) {
  const execFileP = promisify(execFile);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  /** samples[result][build][verb] = [{ peakAbove, ratio, peak, stall, wall }] per round */
  const samples = new Map();
  const sizes = new Map();
  for (const [name, make] of [
    ["500k routes", routesResult],
    ["1e6 interfaces", interfacesResult],
    ["300k ips", ipsResult],
  ]) {
    const result = make();
    const bytes = Buffer.byteLength(result);
    sizes.set(name, bytes);
    if (bytes >= 16 * MiB) throw new Error(`${name}: ${bytes} bytes is over the output cap`);
    const dir = await mkdtemp(join(tmpdir(), "libcni-bench-amp-"));
    try {
      await writeFile(join(dir, "amp-plugin.out"), result);
      await writeFile(
        join(dir, "amp-plugin"),
        // The warm-up container gets a small result.
        '#!/bin/sh\ncat >/dev/null\n[ "$CNI_COMMAND" = ADD ] || exit 0\nif [ "$CNI_CONTAINERID" = warm ]; then echo \'{"cniVersion":"1.0.0"}\'; else cat "$0.out"; fi\n',
      );
      await chmod(join(dir, "amp-plugin"), 0o755);
      // Rounds interleave the builds, in an order rotated each round; each ADD is followed by
      // its DEL in the same cache directory (each in its own fresh process).
      for (let round = 0; round < rounds; round++) {
        const order = dists.map((_, i) => dists[(i + round) % dists.length]);
        for (const dist of order) {
          // "JSON.parse" (the first build's slot): the floor of any decoder.
          const verbs = dist === dists[0] ? ["ADD", "DEL", "JSON.parse"] : ["ADD", "DEL"];
          for (const verb of verbs) {
            const { stdout } = await execFileP(
              process.execPath,
              ["--expose-gc", fileURLToPath(import.meta.url), "--child", dist, verb, dir],
              { maxBuffer: MiB },
            );
            const m = JSON.parse(stdout);
            const build = verb === "JSON.parse" ? "(V8 alone)" : dist;
            const key = `${name}\0${build}\0${verb}`;
            if (!samples.has(key)) samples.set(key, []);
            samples.get(key).push({
              peakAbove: (m.peak - m.before) / MiB,
              ratio: (m.peak - m.before) / bytes,
              peak: m.peak / MiB,
              stall: m.maxStall,
              wall: m.wall,
            });
          }
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  console.log(`${rounds} round(s); medians, [min-max] over the rounds`);
  console.log(
    "| result | bytes | build | verb | peak RSS over start | / result bytes | peak RSS | longest stall | call |",
  );
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const [key, xs] of samples) {
    const [result, build, verb] = key.split("\0");
    const col = (f) => xs.map(f);
    console.log(
      `| ${result} | ${(sizes.get(result) / MiB).toFixed(1)} MiB | ${build} | ${verb} | ${median(col((x) => x.peakAbove)).toFixed(0)} MiB | ${median(col((x) => x.ratio)).toFixed(1)}x [${range(col((x) => x.ratio))}] | ${median(col((x) => x.peak)).toFixed(0)} MiB | ${median(col((x) => x.stall)).toFixed(0)} ms [${range(col((x) => x.stall))}] | ${median(col((x) => x.wall)).toFixed(0)} ms |`,
    );
  }
  if (dists.length > 1) {
    console.log("\nper-round ratios of each other build over the first (median [min-max])");
    console.log("| result | verb | build | peak RSS over start | longest stall | call |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    for (const result of sizes.keys()) {
      for (const verb of ["ADD", "DEL"]) {
        const first = samples.get(`${result}\0${dists[0]}\0${verb}`);
        for (const dist of dists.slice(1)) {
          const other = samples.get(`${result}\0${dist}\0${verb}`);
          const r = (f) => other.map((x, i) => f(x) / f(first[i]));
          const cell = (xs) => `${median(xs).toFixed(2)}x [${range(xs.map((x) => x))}]`;
          console.log(
            `| ${result} | ${verb} | ${dist} | ${cell(r((x) => x.peakAbove))} | ${cell(r((x) => Math.max(x.stall, 1)))} | ${cell(r((x) => x.wall))} |`,
          );
        }
      }
    }
  }
}

if (process.argv[2] === "--child") {
  await child(process.argv[3], process.argv[4], process.argv[5]);
} else {
  const extra = process.argv.slice(2).map((d) => resolve(d));
  await main([join(here, "../dist"), ...extra]);
}
