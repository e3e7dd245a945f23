/**
 * The Node side of the benchmarks, one process per variant so that each one's peak RSS is its
 * own: `node worker.mjs ts` drives the library (dist/), `node worker.mjs raw` does the same
 * plugin runs with a bare `child_process.spawn` (what any Node runtime pays at least).
 *
 * Protocol: one JSON command per line on stdin, one JSON answer per line on stdout, the same
 * commands as the Go program (bench/go/libcnibench/main.go). Only the work is timed, inside
 * the process; setup (parsing the conflist for ADD, building the valid list for GC) is not.
 */
import { spawn } from "node:child_process";
import { open, readFile } from "node:fs/promises";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { getHeapSpaceStatistics } from "node:v8";
import { serveOps } from "./serve.mjs";

const mode = process.argv[2];
// BENCH_DIST points at another build of the library (a candidate fix) to measure it side by side.
const distIndex = process.env.BENCH_DIST
  ? pathToFileURL(`${process.env.BENCH_DIST}/index.js`).href
  : new URL("../../dist/index.js", import.meta.url).href;
const lib = mode === "ts" ? await import(distIndex) : undefined;

// BENCH_BALLAST_MB: Buffers held for the process's life, touched so that they are resident, as
// a runtime's heap would be (Node's fork() copies the page tables of all of it).
const ballast = [];
for (let i = 0; i < Number(process.env.BENCH_BALLAST_MB ?? 0); i++) {
  ballast.push(Buffer.alloc(1024 * 1024, i & 0xff));
}

/**
 * A small /proc file's text, read into one buffer reused by every call: `readFile` of a /proc
 * file (size 0) allocates 64 KiB per call, which would weigh on this process's own peak RSS.
 */
const procBuffer = Buffer.alloc(4096);
async function readProc(path) {
  const handle = await open(path, "r");
  try {
    const { bytesRead } = await handle.read(procBuffer, 0, procBuffer.length, 0);
    return procBuffer.toString("utf8", 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** The spawner helpers of this process, for their CPU and RSS: its children of that name. */
async function helperPids() {
  if (mode !== "ts") return [];
  const children = await readProc(`/proc/${process.pid}/task/${process.pid}/children`);
  const pids = [];
  for (const pid of children.split(" ").filter(Boolean).map(Number)) {
    const comm = await readProc(`/proc/${pid}/comm`).catch(() => "");
    if (comm.trim() === "libcni-spawner") pids.push(pid);
  }
  return pids;
}

/**
 * A module the entries do not export, from the unbundled build beside the bundle
 * (`<package>/build/`), or from the bundle directory itself for a build of before the
 * bundle (`<package>/dist/` was then one file per module).
 */
function internal(path) {
  return import(new URL(`../build/${path}`, distIndex).href).catch(
    () => import(new URL(path, distIndex).href),
  );
}

/** CPU microseconds used so far by this process and its spawner helpers. */
async function cpuUs() {
  const own = process.cpuUsage();
  let helpers = 0;
  for (const pid of await helperPids()) {
    try {
      const stat = await readProc(`/proc/${pid}/stat`);
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      helpers += ((Number(f[11]) + Number(f[12])) * 1e6) / 100; // utime + stime, in ticks
    } catch {}
  }
  return { own: own.user + own.system, helpers };
}

const rtFor = (containerID) => ({ containerID, netNS: "/var/run/netns/bench", ifName: "eth0" });

function cniFor(c) {
  return new lib.CNIConfig({
    path: [c.pluginDir],
    cacheDir: c.cacheDir,
    durableCache: c.durable !== false,
  });
}

/** One plugin run with a bare spawn: env, stdin, stdout to the end, exit status. */
function rawRun(plugin, stdin, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(plugin, [], { env, stdio: ["pipe", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`plugin exited ${code}`));
      else resolve(Buffer.concat(chunks));
    });
    child.stdin.end(stdin);
  });
}

function rawEnv(containerID, pluginDir) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("CNI_")) env[k] = v;
  return {
    ...env,
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: containerID,
    CNI_NETNS: "/var/run/netns/bench",
    CNI_IFNAME: "eth0",
    CNI_PATH: pluginDir,
  };
}

/** The raw variant's "call": each plugin of the list spawned in turn with its config bytes. */
async function rawSetup(c) {
  const list = JSON.parse(await readFile(c.conflist, "utf8"));
  const stdins = list.plugins.map((p) =>
    Buffer.from(JSON.stringify({ ...p, name: list.name, cniVersion: list.cniVersion })),
  );
  const plugins = list.plugins.map((p) => `${c.pluginDir}/${p.type}`);
  return async (containerID) => {
    const env = rawEnv(containerID, c.pluginDir);
    for (let i = 0; i < plugins.length; i++) await rawRun(plugins[i], stdins[i], env);
  };
}

async function tsSetup(c) {
  const list = await lib.confListFromFile(c.conflist);
  const cni = cniFor(c);
  return (containerID) => cni.addNetworkList(list, rtFor(containerID));
}

const setup = (c) => (mode === "ts" ? tsSetup(c) : rawSetup(c));

const ops = {
  async add(c) {
    const call = await setup(c);
    const cpu0 = await cpuUs();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < c.calls; i++) await call(c.containerID);
    const ns = Number(process.hrtime.bigint() - t0);
    const cpu1 = await cpuUs();
    return { ns, cpuUs: cpu1.own - cpu0.own, helperCpuUs: cpu1.helpers - cpu0.helpers };
  },
  async start(c) {
    // One plugin run alone, through RawExec (the library) or a bare spawn (raw).
    const stdin = Buffer.from('{"cniVersion":"1.0.0","name":"x","type":"noop"}');
    const env = rawEnv("bench", c.pluginDir);
    const invoke = lib && (await import(new URL("invoke/index.js", distIndex).href));
    const exec = invoke ? new invoke.RawExec({ stderr: null }) : undefined;
    const envList = Object.entries(env).map(([k, v]) => `${k}=${v}`);
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < c.calls; i++) {
      if (exec === undefined) await rawRun(c.plugin, stdin, env);
      else await exec.execPlugin(c.plugin, stdin, envList);
    }
    return { ns: Number(process.hrtime.bigint() - t0) };
  },
  async helpers() {
    const out = [];
    for (const pid of await helperPids()) {
      const status = await readProc(`/proc/${pid}/status`);
      out.push({ pid, rssKb: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) });
    }
    return { helpers: out, rssKb: Math.round(process.memoryUsage().rss / 1024) };
  },
  async concurrent(c) {
    const call = await setup(c);
    const h = monitorEventLoopDelay({ resolution: 1 });
    h.enable();
    // Let the monitor take its first samples, or a block at the very start goes unrecorded.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const t0 = process.hrtime.bigint();
    await Promise.all(Array.from({ length: c.calls }, (_, i) => call(`${c.prefix}${i}`)));
    const ns = Number(process.hrtime.bigint() - t0);
    h.disable();
    return { ns, eldP99: h.percentile(99), eldMax: h.max };
  },
  async loadconfs(c) {
    const t0 = process.hrtime.bigint();
    const list = await lib.loadConfList(c.dir, c.name);
    const ns = Number(process.hrtime.bigint() - t0);
    if (list.name !== c.name) throw new Error(`loaded ${list.name}, not ${c.name}`);
    return { ns };
  },
  async gc(c) {
    const list = await lib.confListFromFile(c.conflist);
    const cni = cniFor(c);
    const validAttachments = Array.from({ length: c.valid }, (_, i) => ({
      containerID: `${c.prefix}${i}`,
      ifname: "eth0",
    }));
    const t0 = process.hrtime.bigint();
    await cni.gcNetworkList(list, { validAttachments });
    return { ns: Number(process.hrtime.bigint() - t0) };
  },
  async cachewrite(c) {
    // The cache write alone: writeCacheRecord (temp file, rename; fsync of file and directory
    // when durable) of a real record's bytes, c.calls times over the same attachment.
    // cache/results.js since the cache layer, api/cache.js before.
    const { writeCacheRecord } = await internal("cache/results.js").catch(() =>
      internal("api/cache.js"),
    );
    const bytes = await readFile(c.record);
    const path = `${c.cacheDir}/results/bench-${c.containerID}-eth0`;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < c.calls; i++)
      await writeCacheRecord(path, bytes, { durable: c.durable !== false });
    return { ns: Number(process.hrtime.bigint() - t0) };
  },
  rss() {
    return { maxRSS: process.resourceUsage().maxRSS, youngKiB: largestYoungKiB };
  },
};

/**
 * The largest young generation seen after a command. V8 grows it (up to 32 MiB on 64-bit Node
 * 20) once enough bytes have survived its scavenges, and shrinks it in an idle spell: two
 * processes' peak RSS can differ by that more than by anything else (bench/rss.mjs).
 */
let largestYoungKiB = 0;
function noteYoungGeneration() {
  const young = getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  largestYoungKiB = Math.max(largestYoungKiB, (young?.space_size ?? 0) / 1024);
}

await serveOps(
  Object.fromEntries(
    Object.entries(ops).map(([name, op]) => [
      name,
      async (c) => {
        const answer = await op(c);
        noteYoungGeneration();
        return answer;
      },
    ]),
  ),
);
