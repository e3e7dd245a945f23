#!/usr/bin/env node
/**
 * The library's own work per ADD, two or more builds side by side in ONE process: an
 * `addNetworkList` through a `FakeExec` (plugins answer in process, a fixed 1.0.0 result of
 * realistic size, so no plugin start is timed) with `durableCache: false`, a chain of 1 and a
 * chain of 5 (each result the next plugin's prevResult), on realistic bridge + IPAM configs,
 * a new attachment per call. Rounds run a batch of each build in an order rotated each round;
 * the figures are wall time and the process's CPU time (all its threads) per ADD, each with the
 * median per-round ratio of each build over the first and its min-max. Records go to tmpfs.
 *
 *   npm run build && node bench/add-cpu.mjs "$PWD/dist" <other dist dir> [...]
 *
 * BENCH_ROUNDS (default 15), BENCH_CALLS (ADDs per batch, default 200).
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dists = process.argv.slice(2).map((d) => resolve(d));
if (dists.length < 2) throw new Error("usage: node bench/add-cpu.mjs <dist> <other dist> [...]");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);

const result = JSON.stringify({
  cniVersion: "1.0.0",
  interfaces: [
    { name: "cni0", mac: "0a:58:0a:01:02:01" },
    { name: "veth1234", mac: "0a:58:0a:01:02:02" },
    { name: "eth0", mac: "0a:58:0a:01:02:03", sandbox: "/var/run/netns/x" },
  ],
  ips: [{ interface: 2, address: "10.1.2.3/24", gateway: "10.1.2.1" }],
  routes: [{ dst: "0.0.0.0/0", gw: "10.1.2.1" }],
  dns: { nameservers: ["10.1.2.1"] },
});
const plugin = (i) => ({
  type: `p${i}`,
  bridge: "cni0",
  isGateway: true,
  ipMasq: true,
  mtu: 1500,
  ipam: {
    type: "host-local",
    ranges: [[{ subnet: "10.1.2.0/24", gateway: "10.1.2.1" }]],
    routes: [{ dst: "0.0.0.0/0" }],
    dataDir: "/run/cni/ipam",
  },
});
const listJSON = (n) =>
  JSON.stringify({
    cniVersion: "1.0.0",
    name: `net${n}`,
    plugins: Array.from({ length: n }, (_, i) => plugin(i)),
  });

// The records go to tmpfs when there is one: the write's disk latency is not what is measured.
const work = await mkdtemp(join(existsSync("/dev/shm") ? "/dev/shm" : tmpdir(), "libcni-add-cpu-"));
const variants = [];
for (const [i, dist] of dists.entries()) {
  const lib = await import(pathToFileURL(join(dist, "index.js")).href);
  const { FakeExec } = await import(pathToFileURL(join(dist, "invoke/index.js")).href);
  const exec = new FakeExec();
  exec.execPluginCall.returns.resultBytes = Buffer.from(result);
  const cni = new lib.CNIConfig({
    path: ["/fake"],
    cacheDir: join(work, `v${i}`),
    exec,
    durableCache: false,
  });
  const lists = {
    1: lib.networkConfFromBytes(listJSON(1)),
    5: lib.networkConfFromBytes(listJSON(5)),
  };
  let n = 0;
  variants.push({
    dist,
    async batch(chain, calls) {
      const list = lists[chain];
      const start = performance.now();
      const cpu = process.cpuUsage();
      for (let k = 0; k < calls; k++) {
        await cni.addNetworkList(list, {
          containerID: `c${n++ % 1000}`,
          netNS: "/var/run/netns/x",
          ifName: "eth0",
          args: [["K8S_POD_NAME", "p"]],
        });
      }
      const used = process.cpuUsage(cpu);
      return {
        wall: (performance.now() - start) / calls,
        cpu: (used.user + used.system) / 1000 / calls,
      };
    },
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
try {
  for (const chain of [1, 5]) {
    const calls = chain === 1 ? CALLS : Math.ceil(CALLS / 5);
    for (const v of variants) await v.batch(chain, calls); // warm-up, not kept
    const per = variants.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let j = 0; j < variants.length; j++) {
        const i = (j + round) % variants.length;
        per[i].push(await variants[i].batch(chain, calls));
      }
    }
    console.log(
      `chain of ${chain}, durableCache: false, FakeExec; ${ROUNDS} rounds of ${calls} ADDs`,
    );
    for (const [i, v] of variants.entries()) {
      const cell = (key) => {
        const ratios = per[i].map((x, r) => x[key] / per[0][r][key]);
        return `${(median(per[i].map((x) => x[key])) * 1000).toFixed(1)} µs, ${median(ratios).toFixed(3)}x [${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}]`;
      };
      console.log(`  ${v.dist}: wall ${cell("wall")}; process CPU ${cell("cpu")}`);
    }
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
