#!/usr/bin/env node
/**
 * `node bench/pod.mjs` (root; after `npm run build`, and `npm run build:native` for the
 * spawner helper): the pod layer, `libcni/runtime`, against containerd's go-cni (Debian's
 * 1.1.7 over libcni 1.1.2, bench/go/gocnibench built in GOPATH mode) in one run.
 *
 * Three long-lived workers, each in its own host network namespace (the pods' host side:
 * bridge, host routes, iptables rules, IPAM leases of its own): go-cni, the runtime at its
 * default heap, and the runtime holding a live JS heap of BENCH_HEAP_MB (bench/lib/
 * pod-worker.mjs). The pod is containerd's: the loopback first, a bridge network (bridge +
 * host-local + portmap, a port mapping per pod) as eth0, a ptp network (+ host-local) as eth1,
 * CNI_ARGS as the CRI's labels; go-cni's `Setup` (networks at once, containerd's default)
 * against `setupPod(..., { parallel: true })` (BENCH_POD_SERIAL=1: `SetupSerially` against the
 * runtime's serial default), `Remove` against `teardownPod`.
 *
 * Figures, each round running every variant once in a rotated order, after one warm-up round
 * not kept; figures are medians over the rounds, ratios medians of per-round ratios:
 * - one pod at a time, setup and teardown, with instant plugins (the C noop of
 *   bench/plugins/noop.c under every plugin's name; the runtime with its durable cache and
 *   with `durableCache: false`) and with Debian's real plugins (/usr/lib/cni), each pod in a
 *   fresh namespace made before the timed calls;
 * - BENCH_BURST (20) pods at once with real plugins: the setup burst and the teardown burst,
 *   the Node workers' event-loop delay during each, and the control: a separate idle Node
 *   process's own loop delay over the same windows (go-cni's bursts above all).
 *
 * Environment: BENCH_ROUNDS (8), BENCH_PODS_INSTANT (10 per round), BENCH_PODS_REAL (3 per
 * round), BENCH_BURST (20), BENCH_HEAP_MB (1024), BENCH_POD_SERIAL=1, BENCH_CANDIDATE=<dist dir>
 * (another build of the library, in a fourth worker at the default heap, in the same rounds; a
 * last table gives this build over it), BENCH_JSON=<file> (every
 * sample), BENCH_CPU_PROF=<dir>: the Node workers run under --cpu-prof into <dir>/<worker>/
 * (one profile per thread: the main thread's, the event loop's, has thread id 0 in its name;
 * the cache-write thread has its own) and time the loop's stalls during the bursts (the gaps
 * of a 1 ms timer over BENCH_STALL_MS, default 5); the bursts' windows and the stalls' are
 * written beside the profiles, with the `node bench/lib/window-profile.mjs` lines to run.
 */
import { execFile } from "node:child_process";
import { access, chmod, copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { goPath } from "./lib/build.mjs";
import { benchDir, loadText, log, repoRoot, rounds } from "./lib/common.mjs";
import { IdleProbe } from "./lib/idle-probe.mjs";
import { rotate, Server } from "./lib/server.mjs";
import { median, medianRatio } from "./lib/stats.mjs";

const execFileP = promisify(execFile);
const ROUNDS = rounds(8);
const INSTANT = Number(process.env.BENCH_PODS_INSTANT ?? 10);
const REAL = Number(process.env.BENCH_PODS_REAL ?? 3);
const BURST = Number(process.env.BENCH_BURST ?? 20);
const HEAP_MB = Number(process.env.BENCH_HEAP_MB ?? 1024);
const SERIAL = process.env.BENCH_POD_SERIAL === "1";
const PROF = process.env.BENCH_CPU_PROF;
const CANDIDATE = process.env.BENCH_CANDIDATE;
const realBin = "/usr/lib/cni";
const realPlugins = ["bridge", "host-local", "loopback", "portmap", "ptp"];
const goCniSource = join(goPath, "src/github.com/containerd/go-cni/cni.go");
/** Every namespace this run makes starts with this, so that the end can sweep them all. */
const prefix = `lcpod${process.pid}`;

const exists = (p) =>
  access(p).then(
    () => true,
    () => false,
  );

async function checkPrerequisites() {
  const missing = [];
  if (process.getuid?.() !== 0) missing.push("root (network namespaces, bind mounts)");
  for (const [cmd, pkg] of [
    ["gcc", "gcc libc6-dev"],
    ["go", "golang-go"],
    ["ip", "iproute2"],
    ["nsenter", "util-linux"],
    ["iptables", "iptables"],
  ]) {
    const ok = await execFileP("sh", ["-c", `command -v ${cmd}`]).then(
      () => true,
      () => false,
    );
    if (!ok) missing.push(`${cmd} (Debian package: ${pkg})`);
  }
  if (!(await exists(goCniSource)))
    missing.push(`go-cni 1.1.7 sources in ${goPath} (golang-github-containerd-go-cni-dev)`);
  for (const p of realPlugins)
    if (!(await exists(join(realBin, p))))
      missing.push(`${realBin}/${p} (Debian package: containernetworking-plugins)`);
  if (!(await exists(join(repoRoot, "dist/runtime/index.js"))))
    missing.push("the built library dist/ (run: npm run build)");
  if (missing.length > 0)
    throw new Error(`cannot run bench/pod.mjs, missing:\n  - ${missing.join("\n  - ")}`);
}

/** The C noop and the go-cni program, into bench/.build/ (gitignored). */
async function build() {
  const out = join(benchDir, ".build");
  await mkdir(out, { recursive: true });
  const env = { ...process.env, GO111MODULE: "off", GOPATH: goPath, GOFLAGS: "" };
  env.GOCACHE = join(out, "gocache");
  for (const k of Object.keys(env)) if (k.startsWith("CNI_")) delete env[k];
  const noop = join(out, "pod-noop");
  const goBench = join(out, "gocnibench");
  await Promise.all([
    execFileP("gcc", ["-O2", "-Wall", "-o", noop, join(benchDir, "plugins/noop.c")]),
    execFileP("go", ["build", "-o", goBench, "./bench/go/gocnibench"], { cwd: repoRoot, env }),
  ]).catch((error) => {
    throw new Error(`building the benchmark programs failed:\n${error.stderr ?? error.message}`);
  });
  return { noop, goBench };
}

const netnsPath = (name) => `/run/netns/${name}`;
const addNetns = (names) => Promise.all(names.map((n) => execFileP("ip", ["netns", "add", n])));
const delNetns = (names) =>
  Promise.all(names.map((n) => execFileP("ip", ["netns", "del", n]).catch(() => undefined)));
/** Removes every namespace of this run (whatever is left by a failure too). */
async function sweepNetns() {
  const left = (await readdir("/run/netns").catch(() => [])).filter((n) =>
    n.startsWith(`${prefix}-`),
  );
  await delNetns(left);
  return left.length;
}

/** The conf dir of a worker: go-cni's containerd pod minus the loopback (loaded by option). */
async function writeConfDir(dir, dataDir) {
  await mkdir(dir, { recursive: true });
  const ipam = (subnet, routes) => ({
    type: "host-local",
    dataDir,
    ranges: [[{ subnet }]],
    ...(routes ? { routes } : {}),
  });
  const lists = {
    "10-pods.conflist": {
      cniVersion: "1.0.0",
      name: "pods",
      plugins: [
        {
          type: "bridge",
          bridge: "cni-pb0",
          isGateway: true,
          ipam: ipam("10.97.0.0/24", [{ dst: "0.0.0.0/0" }]),
        },
        { type: "portmap", capabilities: { portMappings: true } },
      ],
    },
    "20-side.conflist": {
      cniVersion: "1.0.0",
      name: "side",
      plugins: [{ type: "ptp", ipam: ipam("10.98.0.0/24") }],
    },
  };
  for (const [file, list] of Object.entries(lists))
    await writeFile(join(dir, file), `${JSON.stringify(list, null, 2)}\n`);
}

const ms = (ns) => ns / 1e6;
const fmt = (v) => v.toFixed(2);

async function main() {
  const t0 = Date.now();
  const startLoad = loadText();
  await checkPrerequisites();
  log("building the C noop and the go-cni program ...");
  const bin = await build();
  const work = await mkdtemp(join(benchDir, ".build/pod-"));
  const servers = [];
  /** The namespaces that live for the whole run (host sides, the instant pods'). */
  const lasting = [];
  let probe;
  try {
    // Instant plugins: the noop under every name a pod's networks use.
    const instantBin = join(work, "instant-bin");
    await mkdir(instantBin);
    for (const p of realPlugins) {
      await copyFile(bin.noop, join(instantBin, p));
      await chmod(join(instantBin, p), 0o755);
    }
    const sides = {
      go: { label: "go-cni 1.1.7" },
      ts: { label: "libcni/runtime", heapMb: 0 },
      ts1g: { label: `libcni/runtime, ${HEAP_MB} MiB heap`, heapMb: HEAP_MB },
      ...(CANDIDATE && { cand: { label: `candidate ${CANDIDATE}`, heapMb: 0, dist: CANDIDATE } }),
    };
    for (const [key, side] of Object.entries(sides)) {
      side.dir = join(work, key);
      side.hostNs = `${prefix}-${key}`;
      side.instantNs = `${prefix}-${key}-instant`;
      await writeConfDir(join(side.dir, "net.d"), join(side.dir, "ipam"));
    }
    // Host namespaces first: /run/netns is then a shared mount, so the pod namespaces made
    // later reach the go-cni worker's own (slave) mount namespace.
    lasting.push(...Object.values(sides).flatMap((s) => [s.hostNs, s.instantNs]));
    await addNetns(lasting);
    for (const s of Object.values(sides))
      await execFileP("ip", ["-n", s.hostNs, "link", "set", "lo", "up"]);

    const inNetns = (s) => ["nsenter", [`--net=${netnsPath(s.hostNs)}`]];
    {
      const [cmd, args] = inNetns(sides.go);
      const varLib = join(sides.go.dir, "var-lib");
      await mkdir(varLib, { recursive: true });
      sides.go.server = new Server("go", cmd, [
        ...args,
        "unshare",
        "--mount",
        "--propagation",
        "slave",
        "sh",
        "-c",
        'mount --bind "$0" /var/lib && exec "$1"',
        varLib,
        bin.goBench,
      ]);
      servers.push(sides.go.server);
    }
    const worker = join(benchDir, "lib/pod-worker.mjs");
    for (const key of ["ts", "ts1g", ...(CANDIDATE ? ["cand"] : [])]) {
      const s = sides[key];
      const [cmd, args] = inNetns(s);
      const node = [process.execPath];
      if (s.heapMb > 0) node.push(`--max-old-space-size=${Math.max(4096, s.heapMb * 3)}`);
      // Default names: each thread (main, cache-write worker) writes its own file.
      if (PROF) {
        await mkdir(join(PROF, key), { recursive: true });
        node.push("--cpu-prof", `--cpu-prof-dir=${join(PROF, key)}`);
      }
      const env = { ...process.env, BENCH_HEAP_MB: String(s.heapMb) };
      if (s.dist) env.BENCH_DIST = s.dist;
      if (PROF) env.BENCH_STALL_MS = process.env.BENCH_STALL_MS ?? "5";
      s.server = new Server(key, cmd, [...args, ...node, worker], { env });
      servers.push(s.server);
    }
    probe = new IdleProbe();

    log(`loading the networks (the ${HEAP_MB} MiB heap takes a few seconds) ...`);
    for (const [key, s] of Object.entries(sides)) {
      const real = { name: "real", confDir: join(s.dir, "net.d"), prefix: "eth", loopback: true };
      const instant = { ...real, name: "instant" };
      if (key === "go") {
        await s.server.send({ op: "load", ...instant, pluginDirs: [instantBin] });
        await s.server.send({ op: "load", ...real, pluginDirs: [realBin] });
        continue;
      }
      const cache = (n) => join(s.dir, `cache-${n}`);
      await s.server.send({ op: "load", ...instant, binDirs: [instantBin], cacheDir: cache("i") });
      await s.server.send({
        op: "load",
        ...instant,
        name: "instant-nosync",
        binDirs: [instantBin],
        cacheDir: cache("in"),
        durable: false,
      });
      await s.server.send({ op: "load", ...real, binDirs: [realBin], cacheDir: cache("r") });
    }
    const heap = await sides.ts1g.server.send({ op: "rss" });
    log(`the big worker holds ${heap.heapUsedMB} MiB of live heap`);

    let seq = 0;
    const podsFor = (key, n, netns) =>
      Array.from({ length: n }, (_, i) => {
        const id = `${key}-${seq++}`;
        return { id, netns: netns ?? netnsPath(`${prefix}-${id}`), hostPort: 20000 + i };
      });
    const nsOf = (pods) => pods.map((p) => p.netns.slice("/run/netns/".length));

    /** Sequential pods: ms per pod for setup and for teardown. */
    const seqRun = (key, name, real) => async () => {
      const s = sides[key];
      const pods = real ? podsFor(key, REAL) : podsFor(key, INSTANT, netnsPath(s.instantNs));
      if (real) await addNetns(nsOf(pods));
      try {
        const a = await s.server.send({ op: "pods", name, pods, serial: SERIAL });
        return { setup: ms(a.setupNs) / pods.length, teardown: ms(a.teardownNs) / pods.length };
      } finally {
        if (real) await delNetns(nsOf(pods));
      }
    };
    const instantVariants = {
      go: seqRun("go", "instant"),
      ts: seqRun("ts", "instant"),
      tsNoSync: seqRun("ts", "instant-nosync"),
      ts1g: seqRun("ts1g", "instant"),
      ts1gNoSync: seqRun("ts1g", "instant-nosync"),
      ...(CANDIDATE && {
        cand: seqRun("cand", "instant"),
        candNoSync: seqRun("cand", "instant-nosync"),
      }),
    };
    const realVariants = {
      go: seqRun("go", "real", true),
      ts: seqRun("ts", "real", true),
      ts1g: seqRun("ts1g", "real", true),
      ...(CANDIDATE && { cand: seqRun("cand", "real", true) }),
    };
    const nodeKeys = ["ts", "ts1g", ...(CANDIDATE ? ["cand"] : [])];
    const windows = Object.fromEntries(nodeKeys.map((k) => [k, []]));
    const stallWindows = Object.fromEntries(nodeKeys.map((k) => [k, []]));
    /** One burst up and one down, each inside an idle-probe window. */
    const burstRun = (key) => async () => {
      const s = sides[key];
      const pods = podsFor(key, BURST);
      await addNetns(nsOf(pods));
      try {
        const out = {};
        for (const phase of ["up", "down"]) {
          probe.start();
          // The Node worker waits 20 ms with its monitor on; the probe gets the same lead.
          if (key === "go") await new Promise((r) => setTimeout(r, 20));
          const a = await s.server.send({
            op: `burst${phase}`,
            name: "real",
            pods,
            serial: SERIAL,
          });
          const idle = await probe.end();
          out[phase] = ms(a.ns);
          // The worker process's own CPU (all threads; not its children: helpers, plugins).
          out[`${phase}Cpu`] = key === "go" ? ms(a.cpuNs ?? 0) : a.cpuMs;
          out[`${phase}IdleP99`] = ms(idle.p99);
          out[`${phase}IdleMax`] = ms(idle.max);
          if (key !== "go") {
            out[`${phase}P99`] = ms(a.eldP99);
            out[`${phase}Max`] = ms(a.eldMax);
            out[`${phase}Turn`] = ms(a.turnNs);
            out[`${phase}Gc`] = a.gcMs;
            for (const k of ["scavenge", "markCompact"]) {
              out[`${phase}${k}N`] = a.gc[`${k}N`] ?? 0;
              out[`${phase}${k}Ms`] = a.gc[`${k}Ms`] ?? 0;
            }
            windows[key].push(a.window);
            stallWindows[key].push(...a.stalls);
          }
        }
        return out;
      } finally {
        await delNetns(nsOf(pods));
      }
    };
    const burstVariants = {
      go: burstRun("go"),
      ts: burstRun("ts"),
      ts1g: burstRun("ts1g"),
      ...(CANDIDATE && { cand: burstRun("cand") }),
    };

    const samples = {};
    const runGroup = async (figure, variants, r) => {
      for (const name of rotate(Object.keys(variants), r + 1)) {
        const answer = await variants[name]();
        if (r < 0) continue;
        samples[figure] ??= {};
        samples[figure][name] ??= [];
        samples[figure][name].push(answer);
      }
    };
    for (let r = -1; r < ROUNDS; r++) {
      log(
        r < 0
          ? "warming up ..."
          : `round ${r + 1}/${ROUNDS} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
      await runGroup("instant", instantVariants, r);
      await runGroup("real", realVariants, r);
      await runGroup("burst", burstVariants, r);
      // The bursts' windows of the warm-up are not analysed either.
      if (r < 0)
        for (const k of Object.keys(windows)) windows[k].length = stallWindows[k].length = 0;
    }
    const rss = {};
    for (const [key, s] of Object.entries(sides))
      rss[key] = (await s.server.send({ op: "rss" })).maxRSS;
    for (const s of servers) await s.close();
    await probe.close();
    probe = undefined;

    // ---- report ----
    const col = (fig, v, k) => samples[fig][v].map((x) => x[k]);
    const mode = SERIAL
      ? "serial (SetupSerially / setupPod)"
      : "parallel (Setup / setupPod parallel)";
    console.log(
      `pod bench: ${ROUNDS} rounds, ${((Date.now() - t0) / 1000).toFixed(0)} s, networks ${mode}; ` +
        `${INSTANT} instant and ${REAL} real pods one at a time and ${BURST} at once per round; ` +
        `load ${startLoad} at the start, ${loadText()} at the end\n`,
    );
    console.log(
      "| one pod at a time (ms per pod) | go-cni 1.1.7 | libcni/runtime | runtime / go-cni |",
    );
    console.log("| --- | --- | --- | --- |");
    const heapText = { ts: "default heap", ts1g: `${HEAP_MB} MiB heap` };
    const rows = [
      [
        "instant plugins",
        "instant",
        [
          ["ts", "durable cache"],
          ["tsNoSync", "durableCache: false"],
          ["ts1g", "durable cache"],
          ["ts1gNoSync", "durableCache: false"],
        ],
      ],
      [
        "real plugins",
        "real",
        [
          ["ts", "durable cache"],
          ["ts1g", "durable cache"],
        ],
      ],
    ];
    for (const [title, fig, variants] of rows) {
      for (const phase of ["setup", "teardown"]) {
        const go = col(fig, "go", phase);
        for (const [v, text] of variants) {
          const heapKey = v.startsWith("ts1g") ? "ts1g" : "ts";
          const x = col(fig, v, phase);
          console.log(
            `| ${title}, ${phase}, ${text}, ${heapText[heapKey]} | ${fmt(median(go))} | ${fmt(median(x))} | ${medianRatio(x, go).toFixed(2)}x |`,
          );
        }
      }
    }
    console.log(
      `\n| ${BURST} pods at once, real plugins | go-cni 1.1.7 | runtime, default heap | runtime, ${HEAP_MB} MiB heap |`,
    );
    console.log("| --- | --- | --- | --- |");
    const b = (v, k) => col("burst", v, k);
    for (const [phase, text] of [
      ["up", "setup"],
      ["down", "teardown"],
    ]) {
      const go = b("go", phase);
      const cell = (v) =>
        `${fmt(median(b(v, phase)))} ms (${medianRatio(b(v, phase), go).toFixed(2)}x go-cni)`;
      console.log(
        `| ${text} burst, wall time | ${fmt(median(go))} ms | ${cell("ts")} | ${cell("ts1g")} |`,
      );
      const cpu = (v) => `${fmt(median(b(v, `${phase}Cpu`)))} ms`;
      console.log(
        `| ${text} burst: the worker's own CPU time (not its children's) | ${cpu("go")} | ${cpu("ts")} | ${cpu("ts1g")} |`,
      );
      const loop = (v) =>
        `${fmt(median(b(v, `${phase}P99`)))} / ${fmt(median(b(v, `${phase}Max`)))} ms`;
      console.log(
        `| ${text} burst: Node loop delay p99 / max | | ${loop("ts")} | ${loop("ts1g")} |`,
      );
      const idle = (v) =>
        `${fmt(median(b(v, `${phase}IdleP99`)))} / ${fmt(median(b(v, `${phase}IdleMax`)))} ms`;
      console.log(
        `| ${text} burst: the idle control's own loop delay p99 / max | ${idle("go")} | ${idle("ts")} | ${idle("ts1g")} |`,
      );
      const over = (v, k) =>
        medianRatio(b(v, `${phase}${k}`), b("go", `${phase}Idle${k}`)).toFixed(1);
      console.log(
        `| ${text} burst: Node loop p99 / max over the control's during go-cni's burst | | ${over("ts", "P99")}x / ${over("ts", "Max")}x | ${over("ts1g", "P99")}x / ${over("ts1g", "Max")}x |`,
      );
      // The control at the same time as the Node worker's own burst: the machine as loaded by
      // that burst (its plugins and helpers), which go-cni's burst loads less.
      const same = (v, k) => medianRatio(b(v, `${phase}${k}`), b(v, `${phase}Idle${k}`)).toFixed(1);
      console.log(
        `| ${text} burst: Node loop p99 / max over the control's during the same burst | | ${same("ts", "P99")}x / ${same("ts", "Max")}x | ${same("ts1g", "P99")}x / ${same("ts1g", "Max")}x |`,
      );
      const turnGc = (v) =>
        `${fmt(median(b(v, `${phase}Turn`)))} / ${fmt(median(b(v, `${phase}Gc`)))} ms`;
      console.log(
        `| ${text} burst: the caller's turn / GC pauses | | ${turnGc("ts")} | ${turnGc("ts1g")} |`,
      );
      const kinds = (v) =>
        ["scavenge", "markCompact"]
          .map(
            (k) => `${median(b(v, `${phase}${k}N`))} (${fmt(median(b(v, `${phase}${k}Ms`)))} ms)`,
          )
          .join(" / ");
      console.log(
        `| ${text} burst: scavenges / mark-compacts (count, pause) | | ${kinds("ts")} | ${kinds("ts1g")} |`,
      );
    }
    const mib = (kb) => `${(kb / 1024).toFixed(0)} MiB`;
    console.log(`| peak RSS of the worker | ${mib(rss.go)} | ${mib(rss.ts)} | ${mib(rss.ts1g)} |`);
    if (CANDIDATE) {
      console.log(
        `\n| this build over the candidate (${CANDIDATE}), default heap | this | candidate | this / candidate |`,
      );
      console.log("| --- | --- | --- | --- |");
      const pair = (text, fig, v, c, k) => {
        const x = col(fig, v, k);
        const y = col(fig, c, k);
        console.log(
          `| ${text} | ${fmt(median(x))} | ${fmt(median(y))} | ${medianRatio(x, y).toFixed(2)}x |`,
        );
      };
      for (const phase of ["setup", "teardown"]) {
        pair(`instant plugins, ${phase}, durable (ms per pod)`, "instant", "ts", "cand", phase);
        pair(`instant plugins, ${phase}, no fsync`, "instant", "tsNoSync", "candNoSync", phase);
        pair(`real plugins, ${phase}, durable`, "real", "ts", "cand", phase);
      }
      for (const [phase, text] of [
        ["up", "setup"],
        ["down", "teardown"],
      ]) {
        pair(`${BURST} pods at once, ${text} burst, wall (ms)`, "burst", "ts", "cand", phase);
        pair(`${text} burst, loop delay p99 (ms)`, "burst", "ts", "cand", `${phase}P99`);
        pair(`${text} burst, the caller's turn (ms)`, "burst", "ts", "cand", `${phase}Turn`);
      }
      console.log(`| peak RSS of the worker | ${mib(rss.ts)} | ${mib(rss.cand)} | |`);
    }
    if (process.env.BENCH_JSON)
      await writeFile(process.env.BENCH_JSON, JSON.stringify({ samples, rss, windows }, null, 1));
    if (PROF) {
      console.log(
        `\nCPU profiles in ${PROF}/<worker>/, with the bursts' windows and the loop's stalls:`,
      );
      for (const k of Object.keys(windows)) {
        const dir = join(PROF, k);
        await writeFile(join(dir, "windows.json"), JSON.stringify(windows[k]));
        await writeFile(join(dir, "stalls.json"), JSON.stringify(stallWindows[k]));
        const st = stallWindows[k];
        const sum = (f, list = st) => list.reduce((acc, x) => acc + f(x), 0);
        const length = ([a, b]) => (b - a) / 1000;
        // A stall of the process's own work: its main thread was on a CPU most of the time.
        const own = st.filter((x) => x[2] >= length(x) / 2);
        await writeFile(join(dir, "stalls-own.json"), JSON.stringify(own));
        console.log(
          `  ${k}: ${st.length} stalls over ${process.env.BENCH_STALL_MS ?? 5} ms, ${sum(length).toFixed(0)} ms in all ` +
            `(longest ${Math.max(0, ...st.map(length)).toFixed(1)} ms); the main thread on a CPU ` +
            `${sum((x) => x[2]).toFixed(0)} ms of it, runnable but waiting for one ${sum((x) => x[3]).toFixed(0)} ms; ` +
            `${own.length} stalls (${sum(length, own).toFixed(0)} ms) mostly on a CPU`,
        );
        // CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile; thread 0 is the event loop's.
        for (const name of (await readdir(dir)).filter((n) => n.endsWith(".cpuprofile")).sort()) {
          const thread = name.split(".")[4] === "0" ? "main thread" : "worker thread";
          for (const w of ["windows", "stalls", "stalls-own"])
            console.log(
              `    ${thread}, ${w}: node bench/lib/window-profile.mjs ${join(dir, name)} "$(cat ${join(dir, `${w}.json`)})"`,
            );
        }
      }
    }
  } finally {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill();
    await probe?.close();
    await delNetns(lasting);
    const left = await sweepNetns();
    if (left > 0) log(`removed ${left} pod namespace(s) left by a failure`);
    await rm(work, { recursive: true, force: true });
  }
}

await main();
