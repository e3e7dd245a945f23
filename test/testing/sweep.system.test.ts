// What a SIGKILLed test process leaves (issue 30, item 5), on real namespaces (root): a child
// Node process on the built library makes a tempNetns, a testHost with a pod and a conformance
// check (hanging in its plugin), and is killed; the first tempNetns of this process, the first
// testHost, tempNetns or checkPlugin of another, sweepTestLeftovers and `cnitool sweep` each
// remove all of it, and leave a live process's alone.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { access, chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetns, isNetns, removeNetns } from "../../src/netns/index.js";
import { sweepTestLeftovers, tempNetns } from "../../src/testing/index.js";
import { parseTestName, processStart } from "../../src/testing/names.js";
import { deadPid, nameFor, ownerOf } from "./leftovers.js";

const run = promisify(execFile);
const childScript = fileURLToPath(new URL("./sweep-child.mjs", import.meta.url));
const cnitool = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let work: string;
/** Every child started and every hanging plugin: ended in afterAll. */
const children: ChildProcess[] = [];
const plugins: Plugin[] = [];

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error("the system tier runs as root (network namespaces)");
  for (const built of ["../../dist/testing/index.js", "../../dist/cli/main.js"]) {
    const path = fileURLToPath(new URL(built, import.meta.url));
    if (!(await exists(path))) throw new Error(`${path} is missing: run \`npm run build\``);
  }
  work = await mkdtemp(join(tmpdir(), "libcni-sweep-system-"));
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await once(child, "exit");
    }
  }
  for (const plugin of plugins) await endPlugin(plugin);
  await rm(work, { recursive: true, force: true });
});

/** A hanging plugin: its script, and once it runs, its pid and start time. */
interface Plugin {
  path: string;
  pidFile: string;
  pid?: number;
  start?: string;
}

/**
 * Ends a hanging plugin a killed check left (the spawner helper ends it when its parent dies;
 * the direct spawn does not): only the process that wrote the pid, told by its start time.
 */
async function endPlugin(plugin: Plugin): Promise<void> {
  if (plugin.pid === undefined || (await processStart(plugin.pid)) !== plugin.start) return;
  try {
    process.kill(plugin.pid, "SIGKILL");
  } catch {}
}

/** A plugin that writes its pid and sleeps: the check hangs in its VERSION call. */
async function hangingPlugin(): Promise<Plugin> {
  const n = plugins.length;
  const plugin = { path: join(work, `hang-${n}`), pidFile: join(work, `hang-${n}.pid`) };
  await writeFile(plugin.path, `#!/bin/sh\necho $$ > ${plugin.pidFile}\nexec sleep 600\n`);
  await chmod(plugin.path, 0o755);
  plugins.push(plugin);
  return plugin;
}

async function listNetns(): Promise<string[]> {
  return readdir("/run/netns").catch(() => []);
}

async function until(what: string, test: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await test())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** What a `make` child made: its namespaces (the checker's too) and its testHost's temp dir. */
interface Made {
  child: ChildProcess;
  plugin: Plugin;
  netns: string[];
  root: string;
  all: string[];
}

/** Starts a `make` child and waits until everything is made (the check hangs in its plugin). */
async function make(): Promise<Made> {
  const plugin = await hangingPlugin();
  const child = spawn(process.execPath, [childScript, "make", plugin.path], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  const made = JSON.parse(line) as { netns: string[]; root: string };
  await until("the check's plugin", async () => {
    plugin.pid = Number(await readFile(plugin.pidFile, "utf8").catch(() => "0"));
    plugin.start = plugin.pid > 0 ? await processStart(plugin.pid) : undefined;
    return plugin.start !== undefined;
  });
  const checker = (await listNetns())
    .filter((n) => {
      const parsed = parseTestName(n);
      return parsed?.prefix === "lcnicheck" && parsed.owner.pid === child.pid;
    })
    .map((n) => join("/run/netns", n));
  expect(checker).toHaveLength(1);
  const netns = [...made.netns, ...checker];
  for (const path of netns) expect(await isNetns(path), path).toBe(true);
  expect(await exists(made.root)).toBe(true);
  return { child, plugin, netns, root: made.root, all: [...netns, made.root] };
}

/** A `make` child SIGKILLed: what it made is left behind. */
async function killed(): Promise<Made> {
  const made = await make();
  made.child.kill("SIGKILL");
  await once(made.child, "exit");
  await endPlugin(made.plugin);
  for (const path of made.netns) expect(await isNetns(path), path).toBe(true);
  expect(await exists(made.root)).toBe(true);
  return made;
}

/**
 * A live `make` child, then a killed one. In that order: the first tempNetns of a new process
 * sweeps, so a child made after the kill would take the dead one's leftovers before the call
 * under test.
 */
async function liveAndDead(): Promise<{ live: Made; dead: Made }> {
  const live = await make();
  const dead = await killed();
  return { live, dead };
}

/** Lets a live `make` child clean up and exit. */
async function finish(made: Made): Promise<void> {
  made.child.stdin?.write("exit\n");
  await once(made.child, "exit");
  await endPlugin(made.plugin);
}

async function gone(made: Made): Promise<void> {
  for (const path of made.all) expect(await exists(path), path).toBe(false);
}

async function kept(made: Made): Promise<void> {
  for (const path of made.netns) expect(await isNetns(path), path).toBe(true);
  expect(await exists(made.root)).toBe(true);
}

describe("the leftovers of a SIGKILLed test process", () => {
  // First in this file: the first tempNetns of this process.
  it("are removed by the first tempNetns of the next process; a live process's stay", async () => {
    const { live, dead } = await liveAndDead();
    await using ns = await tempNetns();
    expect(await isNetns(ns.path)).toBe(true);
    await gone(dead);
    await kept(live);
    await finish(live);
    await gone(live);
  });

  it.each([
    "testHost",
    "tempNetns",
    "checkPlugin",
  ])("are removed by the first %s of another process, which says so on NODE_DEBUG=libcni", async (helper) => {
    const { live, dead } = await liveAndDead();
    const child = spawn(process.execPath, [childScript, "first", helper], {
      env: { ...process.env, NODE_DEBUG: "libcni" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const [code] = await once(child, "exit");
    expect(code, stderr).toBe(0);
    await gone(dead);
    await kept(live);
    for (const path of dead.all) {
      expect(stderr).toContain(`testing: removed ${path} (its owner is gone)`);
    }
    await finish(live);
  });

  it("are removed by sweepTestLeftovers, which returns them; a live process's stay", async () => {
    const { live, dead } = await liveAndDead();
    const swept = await sweepTestLeftovers();
    expect(swept.removed).toEqual(expect.arrayContaining(dead.all));
    for (const path of swept.removed) expect(live.all).not.toContain(path);
    expect(swept.failed).toEqual([]);
    await gone(dead);
    await kept(live);
    await finish(live);
  });

  it("are removed by `cnitool sweep` (the built command), which prints them", async () => {
    const { live, dead } = await liveAndDead();
    const { stdout, stderr } = await run(process.execPath, [cnitool, "sweep"]);
    expect(stderr).toBe("");
    const printed = stdout.split("\n").filter((l) => l !== "");
    expect(printed).toEqual(expect.arrayContaining(dead.all));
    for (const path of printed) expect(live.all).not.toContain(path);
    await gone(dead);
    await kept(live);
    await finish(live);
  });
});

describe("a leftover temp dir with mounts inside", () => {
  it("loses the namespaces its dead owner pinned there; another mount keeps it whole", async () => {
    const tmp = join(work, "tmp");
    await mkdir(tmp);
    const owner = await ownerOf(await deadPid(), "99");
    // A namespace of the dead owner pinned in its temp dir: removed with the dir.
    const withNs = join(tmp, nameFor(owner, { n: 1, rest: "host-AbC123" }));
    await mkdir(join(withNs, "ns"), { recursive: true });
    const pinned = await createNetns(nameFor(owner, { n: 2 }), { dir: join(withNs, "ns") });
    // A tmpfs mounted in another: a recursive removal would empty it, so the dir stays.
    const withMount = join(tmp, nameFor(owner, { n: 3, rest: "host-AbC123" }));
    const mountPoint = join(withMount, "mnt");
    await mkdir(mountPoint, { recursive: true });
    await run("mount", ["-t", "tmpfs", "tmpfs", mountPoint]);
    try {
      await writeFile(join(mountPoint, "precious"), "x");
      const swept = await sweepTestLeftovers({ netnsDirs: [], tmpDirs: [tmp] });
      expect(swept.removed).toEqual([withNs]);
      expect(swept.failed.map((f) => [f.path, f.error.message])).toEqual([
        [withMount, `${withMount} holds mount points (${mountPoint}): left alone`],
      ]);
      expect(await exists(pinned)).toBe(false);
      expect(await readFile(join(mountPoint, "precious"), "utf8")).toBe("x");
    } finally {
      await run("umount", [mountPoint]);
      await removeNetns(pinned, { dir: join(withNs, "ns") }).catch(() => undefined);
    }
  });
});
