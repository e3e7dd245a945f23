/**
 * The Node side of bench/pod.mjs: `libcni/runtime` (dist/runtime) setting pods up and tearing
 * them down, one long-lived process per heap size, each started by the driver inside its own
 * host network namespace. The same commands as bench/go/gocnibench (go-cni), one JSON line
 * each way; only the work is timed, inside the process.
 *
 *   {"op":"load","name":N,"confDir":D,"binDirs":[...],"cacheDir":C,"prefix":"eth",
 *    "loopback":true,"durable":true}                   loadNetworks(...) kept as N
 *   {"op":"pods","name":N,"pods":[{"id","netns","hostPort"}],"serial":false}
 *                                                     one pod after another: setupPod, then
 *                                                     teardownPod; the two summed
 *   {"op":"burstup","name":N,"pods":[...]}            every setupPod at once
 *   {"op":"burstdown","name":N,"pods":[...]}          every teardownPod at once
 *   {"op":"rss"}                                      peak RSS (KiB) and the heap in use
 *
 * A burst answers with this process's CPU time during it (all its threads; not its children,
 * the spawner helpers and plugins), the event-loop delay during it (`monitorEventLoopDelay`, resolution
 * 1 ms, enabled 20 ms before the first call), the caller's turn (until an immediate booked
 * before the calls runs), the GC pauses that fell in it, and its window in the monotonic clock
 * in microseconds (the clock of a `--cpu-prof` profile, for bench/lib/window-profile.mjs).
 * BENCH_STALL_MS (set when profiling; off otherwise, as it costs the loop a callback and a
 * small read a millisecond): a 1 ms interval timer runs during each burst, and every gap of
 * its over that many ms comes back as a stall, `[fromUs, toUs, cpuMs, waitMs]`: the loop was
 * blocked from `fromUs` to `toUs`, and the main thread spent `cpuMs` of it on a CPU and
 * `waitMs` runnable but waiting for one (its /proc schedstat), so that a stall of the
 * process's own work (JS, GC on the main thread) is told from the machine's load.
 *
 * BENCH_HEAP_MB: a live JS heap of about that many MiB (small objects with pointers, retained
 * for the process's life, built before the first command), as a busy runtime's heap is: the
 * garbage collector marks all of it on every major GC. Start the process with a
 * --max-old-space-size above it. BENCH_DIST: another build's dist/ directory.
 */
import { openSync, readSync } from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { serveOps } from "./serve.mjs";

const dist = process.env.BENCH_DIST
  ? pathToFileURL(`${process.env.BENCH_DIST}/`).href
  : new URL("../../dist/", import.meta.url).href;
const { loadNetworks } = await import(new URL("runtime/index.js", dist).href);

const retained = [];
const heapBytes = Number(process.env.BENCH_HEAP_MB ?? 0) * 1024 * 1024;
while (process.memoryUsage().heapUsed < heapBytes) {
  const chunk = new Array(100_000);
  for (let i = 0; i < chunk.length; i++) {
    chunk[i] = {
      id: i,
      name: `pod-${retained.length}-${i}`,
      labels: { app: "x", n: i },
      prev: chunk[i - 1],
    };
  }
  retained.push(chunk);
}

// GC pauses by kind (perf_hooks' detail.kind: 1 scavenge, 2 mark-compact, 4 incremental
// marking, 8 weak callbacks), in ms and count; entries are delivered a little late, so a burst
// may miss its last pause and get the one before it.
const gcKinds = { 1: "scavenge", 2: "markCompact", 4: "incremental", 8: "weakCallbacks" };
const gc = { ms: 0 };
new PerformanceObserver((items) => {
  for (const e of items.getEntries()) {
    gc.ms += e.duration;
    const k = gcKinds[e.detail?.kind] ?? "other";
    gc[`${k}Ms`] = (gc[`${k}Ms`] ?? 0) + e.duration;
    gc[`${k}N`] = (gc[`${k}N`] ?? 0) + 1;
  }
}).observe({ entryTypes: ["gc"] });
const gcSince = (before) =>
  Object.fromEntries(Object.entries(gc).map(([k, v]) => [k, v - (before[k] ?? 0)]));

const runtimes = new Map();
const runtimeOf = (name) => {
  const rt = runtimes.get(name);
  if (rt === undefined) throw new Error(`no runtime ${name} (load it first)`);
  return rt;
};
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** What containerd's CRI passes for a pod (as gocnibench does): labels as CNI_ARGS, ports. */
const podOf = (p) => ({
  id: p.id,
  netns: p.netns,
  args: {
    IgnoreUnknown: "1",
    K8S_POD_NAMESPACE: "bench",
    K8S_POD_NAME: p.id,
    K8S_POD_INFRA_CONTAINER_ID: p.id,
  },
  capabilities: {
    portMappings: [{ hostPort: p.hostPort, containerPort: 80, protocol: "tcp", hostIP: "" }],
  },
});

/** Runs `calls()` (which starts every call in this turn) with the loop-delay monitor on. */
const stallUs = Number(process.env.BENCH_STALL_MS ?? 0) * 1000;
// The main thread's (tid = pid) time on a CPU and waiting for one, in ns.
const schedFd = stallUs > 0 ? openSync(`/proc/self/task/${process.pid}/schedstat`, "r") : -1;
const schedBuf = Buffer.alloc(128);
const sched = () => {
  const n = readSync(schedFd, schedBuf, 0, schedBuf.length, 0);
  const [cpu, wait] = schedBuf.toString("latin1", 0, n).split(" ");
  return [Number(cpu), Number(wait)];
};

async function measured(calls) {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  const stalls = [];
  let last = nowUs();
  let lastSched = stallUs > 0 ? sched() : undefined;
  const tick =
    stallUs > 0
      ? setInterval(() => {
          const now = nowUs();
          const s = sched();
          if (now - last > stallUs)
            stalls.push([last, now, (s[0] - lastSched[0]) / 1e6, (s[1] - lastSched[1]) / 1e6]);
          last = now;
          lastSched = s;
        }, 1)
      : undefined;
  // Let the monitor take its first samples, or a block at the very start goes unrecorded.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const gc0 = { ...gc };
  const cpu0 = process.cpuUsage();
  const w0 = nowUs();
  const t0 = process.hrtime.bigint();
  let turn = 0;
  setImmediate(() => {
    turn = Number(process.hrtime.bigint() - t0);
  });
  const outcomes = await Promise.allSettled(calls());
  const ns = Number(process.hrtime.bigint() - t0);
  const window = [w0, nowUs()];
  const cpu = process.cpuUsage(cpu0);
  clearInterval(tick);
  h.disable();
  return {
    outcomes,
    answer: {
      ns,
      eldP99: h.percentile(99),
      eldMax: h.max,
      turnNs: turn,
      gcMs: gc.ms - gc0.ms,
      cpuMs: (cpu.user + cpu.system) / 1000,
      gc: gcSince(gc0),
      window,
      stalls,
    },
  };
}

const firstFailure = (outcomes, pods) => {
  const i = outcomes.findIndex((o) => o.status === "rejected");
  return i < 0
    ? undefined
    : new Error(`${pods[i].id}: ${outcomes[i].reason?.stack ?? outcomes[i].reason}`);
};

const ops = {
  async load(c) {
    const rt = await loadNetworks({
      confDir: c.confDir,
      binDirs: c.binDirs,
      cacheDir: c.cacheDir,
      interfacePrefix: c.prefix,
      loopback: c.loopback,
      durableCache: c.durable !== false,
    });
    if (rt.problems.length > 0) throw new Error(`load ${c.name}: ${JSON.stringify(rt.problems)}`);
    runtimes.set(c.name, rt);
    return { networks: rt.networks.map((n) => n.name) };
  },
  async pods(c) {
    const rt = runtimeOf(c.name);
    let setupNs = 0;
    let teardownNs = 0;
    for (const p of c.pods) {
      const t0 = process.hrtime.bigint();
      await rt.setupPod(podOf(p), { parallel: !c.serial });
      const t1 = process.hrtime.bigint();
      await rt.teardownPod(p.id);
      teardownNs += Number(process.hrtime.bigint() - t1);
      setupNs += Number(t1 - t0);
    }
    return { setupNs, teardownNs };
  },
  async burstup(c) {
    const rt = runtimeOf(c.name);
    const { outcomes, answer } = await measured(() =>
      c.pods.map((p) => rt.setupPod(podOf(p), { parallel: !c.serial })),
    );
    const failure = firstFailure(outcomes, c.pods);
    if (failure !== undefined) {
      // What was set up is removed, so that the next round starts clean.
      await Promise.allSettled(c.pods.map((p) => rt.teardownPod(p.id)));
      throw failure;
    }
    return answer;
  },
  async burstdown(c) {
    const rt = runtimeOf(c.name);
    const { outcomes, answer } = await measured(() => c.pods.map((p) => rt.teardownPod(p.id)));
    const failure = firstFailure(outcomes, c.pods);
    if (failure !== undefined) throw failure;
    return answer;
  },
  rss() {
    return {
      maxRSS: process.resourceUsage().maxRSS,
      heapUsedMB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
      retainedChunks: retained.length,
    };
  },
};

await serveOps(ops);
// The spawner helpers may hold the loop open; an exit also writes a --cpu-prof profile.
process.exit(0);
