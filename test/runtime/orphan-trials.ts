/**
 * The two orphan trials of the pod layer, shared by the default tier (a fake helper, the direct
 * spawn) and the system tier (the built helper):
 *
 * - helper kill: 40 setups at once over two networks (a stateful plugin, then a slow stateful
 *   one), the helper SIGKILLed while their plugins run; every plugin that kept state must have
 *   a record, or its setup must have undone it.
 * - late plugin: a runtime process SIGKILLed while a plugin that creates its state at the end
 *   of a 1.5 s ADD runs; a teardown from another process must leave no state behind.
 *
 * A leak is a plugin's state file with no cache record for its attachment.
 */
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { SpawnerLauncher } from "../../src/engines/spawner/pool.js";
import { protocolVersion } from "../../src/engines/spawner/protocol.js";
import { endGroups } from "../../src/internal/process-group.js";
import { DefaultExec } from "../../src/invoke/index.js";
import { loadNetworks, PodSetupError } from "../../src/runtime/index.js";
import { dirs, writeNetwork } from "./helpers.js";

const stateful = fileURLToPath(new URL("../fixtures/plugins/stateful", import.meta.url));
export const fakeSpawner = fileURLToPath(
  new URL("../fixtures/spawner/fake-spawner.mjs", import.meta.url),
);
const distRuntime = fileURLToPath(new URL("../../dist/runtime/index.js", import.meta.url));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface TrialDirs {
  base: string;
  confDir: string;
  cacheDir: string;
  binDir: string;
  stateDir: string;
  cleanup(): Promise<void>;
}

async function trialDirs(): Promise<TrialDirs> {
  const d = await dirs();
  const binDir = join(d.base, "bin");
  const stateDir = join(d.base, "state");
  await mkdir(binDir);
  await mkdir(stateDir);
  for (const name of ["stateful-fast", "stateful-slow", "stateful-late"]) {
    await symlink(stateful, join(binDir, name));
  }
  return {
    ...d,
    binDir,
    stateDir,
    cleanup: async () => {
      await endLeftovers(stateDir);
      await d.cleanup();
    },
  };
}

/** The process groups still running with this trial's STATEFUL_DIR (none, if all went well). */
async function leftoverGroups(stateDir: string): Promise<number[]> {
  const groups = new Set<number>();
  const marker = `STATEFUL_DIR=${stateDir}\0`;
  // A helper inherits the variable too, in this process's group: never that group.
  const own = await readFile("/proc/self/stat", "latin1");
  const ownGroup = Number(own.slice(own.lastIndexOf(")") + 2).split(" ")[2]);
  for (const pid of (await readdir("/proc")).filter((n) => /^\d+$/.test(n))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (!(await readFile(`/proc/${pid}/environ`, "latin1")).includes(marker)) continue;
      const stat = await readFile(`/proc/${pid}/stat`, "latin1");
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp > 1 && pgrp !== ownGroup) groups.add(pgrp);
    } catch {
      // gone
    }
  }
  return [...groups];
}

async function endLeftovers(stateDir: string): Promise<void> {
  await endGroups(await leftoverGroups(stateDir));
}

/** State files whose attachment has no record: `<pod>-<ifname>-<plugin>`. */
async function leaks(d: TrialDirs, networkOf: Record<string, string>): Promise<string[]> {
  const records = new Set(await readdir(join(d.cacheDir, "results")).catch(() => []));
  const out: string[] = [];
  for (const name of await readdir(d.stateDir)) {
    if (!name.startsWith("state-")) continue;
    const key = name.slice("state-".length);
    const plugin = key.slice(key.lastIndexOf("-", key.lastIndexOf("-") - 1) + 1);
    const podAndIf = key.slice(0, key.length - plugin.length - 1);
    const network = networkOf[plugin];
    if (!records.has(`${network}-${podAndIf}`)) out.push(key);
  }
  return out.sort();
}

/** How many ADDs have started (of the plugin named `suffix`, if given). */
async function running(d: TrialDirs, suffix = ""): Promise<number> {
  return (await readdir(d.stateDir)).filter((n) => n.startsWith("running-") && n.endsWith(suffix))
    .length;
}

/** How the trials start plugins. */
export type TrialLauncher =
  | { kind: "direct" }
  | { kind: "spawner"; binaryPath: string; env?: Record<string, string> };

export interface HelperKillOutcome {
  failed: number;
  rollbackFailures: number;
  leaks: string[];
  /** Plugin processes of the trial still running once every setup settled. */
  survivors: number;
}

/** The helper-kill trial (in this process; `binaryPath` a helper, the fake one or the built). */
export async function helperKillTrial(binaryPath: string): Promise<HelperKillOutcome> {
  const d = await trialDirs();
  const previous = process.env.STATEFUL_DIR;
  process.env.STATEFUL_DIR = d.stateDir;
  process.env.FAKE_SPAWNER_PROTOCOL = String(protocolVersion);
  const launcher = new SpawnerLauncher({ binaryPath });
  try {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["stateful-fast"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["stateful-slow"]);
    const rt = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      binDirs: [d.binDir],
      exec: new DefaultExec({ launcher }),
    });
    const setups = Array.from({ length: 40 }, (_, i) =>
      rt.setupPod({ id: `pod${i}`, netns: `/run/netns/pod${i}` }),
    );
    // Kill every helper once the burst is well under way: network a done for some pods, its
    // slow network b's plugins running for some, not yet started for others.
    for (let i = 0; i < 1000 && (await running(d, "-stateful-slow")) < 10; i++) await sleep(2);
    for (const helper of launcher.helpers) {
      if (helper.pid !== undefined) process.kill(helper.pid, "SIGKILL");
    }
    const settled = await Promise.allSettled(setups);
    const failures = settled.flatMap((s) => (s.status === "rejected" ? [s.reason] : []));
    const survivors = (await leftoverGroups(d.stateDir)).length;
    // Anything still running would make its state now: give it the time to.
    await sleep(2100);
    return {
      failed: failures.length,
      rollbackFailures: failures.reduce(
        (n, e) => n + (e instanceof PodSetupError ? e.rollbackFailures.length : 1),
        0,
      ),
      leaks: await leaks(d, { "stateful-fast": "a", "stateful-slow": "b" }),
      survivors,
    };
  } finally {
    launcher.stop();
    if (previous === undefined) delete process.env.STATEFUL_DIR;
    else process.env.STATEFUL_DIR = previous;
    await d.cleanup();
  }
}

export interface LateKillOutcome {
  leaks: string[];
  /** The runtime process was killed while the plugin ran (the trial means something). */
  killedMidRun: boolean;
}

/**
 * The late-plugin trial: a runtime process (the built library, `launcher` its way of starting
 * plugins) SIGKILLed during the ADD, then teardown from this process.
 */
export async function lateKillTrial(launcher: TrialLauncher): Promise<LateKillOutcome> {
  const d = await trialDirs();
  try {
    await writeNetwork(d.confDir, "10-late.conflist", "late", ["stateful-late"]);
    const script = join(d.base, "runtime.mjs");
    await writeFile(
      script,
      `import { loadNetworks } from ${JSON.stringify(distRuntime)};
const rt = await loadNetworks({ confDir: ${JSON.stringify(d.confDir)}, cacheDir: ${JSON.stringify(d.cacheDir)}, binDirs: [${JSON.stringify(d.binDir)}], checkNetns: false });
await rt.setupPod({ id: "late", netns: "/run/netns/late" });
console.log("set up");
`,
    );
    const env: Record<string, string | undefined> = {
      ...process.env,
      STATEFUL_DIR: d.stateDir,
      FAKE_SPAWNER_PROTOCOL: String(protocolVersion),
      LIBCNI_LAUNCHER: launcher.kind,
      ...(launcher.kind === "spawner" ? { LIBCNI_SPAWNER_BINARY: launcher.binaryPath } : {}),
    };
    const child = spawn(process.execPath, [script], { env, stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    let killedMidRun = false;
    for (let i = 0; i < 2000; i++) {
      if ((await running(d)) > 0) {
        killedMidRun = true;
        break;
      }
      await sleep(5);
    }
    child.kill("SIGKILL");
    await exited;
    // Recovery from another process: this one.
    process.env.STATEFUL_DIR = d.stateDir;
    const rt = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      binDirs: [d.binDir],
      exec: new DefaultExec({ launcher: "direct" }),
    });
    await rt.teardownPod("late");
    // The plugin's ADD would have ended by now, had it survived.
    await sleep(1800);
    return { leaks: await leaks(d, { "stateful-late": "late" }), killedMidRun };
  } finally {
    delete process.env.STATEFUL_DIR;
    await d.cleanup();
  }
}

/** How the dead owner's intent of the cross-cache trial names its setup. */
export interface CrossCacheVariant {
  /** The netns the dead setup was for: another pod's, or the live setup's own. */
  netns: "other" | "same";
  /** Whether the intent records a run ID (an intent of an earlier version has none). */
  runID: boolean;
}

export interface CrossCacheOutcome {
  /** The live runtime's setup: "ok", or why it failed. */
  setup: string;
  /** The dead intent was collected (its DEL ran), so recovery did look for orphans. */
  collected: boolean;
}

/**
 * Two runtimes, two cache dirs, one pod ID: runtime A (this process) sets pod `p` up on cache
 * dir X with a 2 s ADD; cache dir Y holds a setup intent of pod `p` whose owner is gone; while
 * A's plugin runs, a runtime over Y collects it (`gc([])`). Recovery must end only the dead
 * owner's plugins: A's setup succeeds.
 */
export async function crossCacheTrial(variant: CrossCacheVariant): Promise<CrossCacheOutcome> {
  const d = await trialDirs();
  const cacheY = join(d.base, "cache-y");
  const previous = process.env.STATEFUL_DIR;
  process.env.STATEFUL_DIR = d.stateDir;
  try {
    const conf = await writeNetwork(d.confDir, "10-slow.conflist", "slow", ["stateful-slow"]);
    const liveNetns = "/run/netns/lcni-cross-live";
    // The dead owner: this process's pid with another start time (a pid since reused).
    const intent = {
      kind: "libcniSetupIntentV1",
      containerId: "p",
      owner: {
        pid: process.pid,
        start: "1",
        ...(variant.runID && { run: "0123456789abcdef0123456789abcdef" }),
      },
      attachments: [
        {
          networkName: "slow",
          ifName: "eth0",
          netns: variant.netns === "same" ? liveNetns : "/run/netns/lcni-cross-dead",
          config: (await readFile(conf)).toString("base64"),
        },
      ],
    };
    await mkdir(join(cacheY, "libcni", "setup-intents"), { recursive: true });
    await writeFile(join(cacheY, "libcni", "setup-intents", "p"), JSON.stringify(intent));
    // The slow plugin never enters the pod's netns, which these trials do not make.
    const options = { confDir: d.confDir, binDirs: [d.binDir], checkNetns: false };
    const a = await loadNetworks({ ...options, cacheDir: d.cacheDir });
    const b = await loadNetworks({ ...options, cacheDir: cacheY });
    const setup = a.setupPod({ id: "p", netns: liveNetns }).then(
      () => "ok",
      (error: unknown) => String(error),
    );
    for (let i = 0; i < 2000 && (await running(d)) === 0; i++) await sleep(5);
    const report = await b.gc([]);
    const outcome = { setup: await setup, collected: report.removed.some((r) => r.podID === "p") };
    await a.teardownPod("p");
    return outcome;
  } finally {
    if (previous === undefined) delete process.env.STATEFUL_DIR;
    else process.env.STATEFUL_DIR = previous;
    await d.cleanup();
  }
}
