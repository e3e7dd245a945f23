/**
 * Issue 42: setupPod checks the pod's netns before anything runs (it exists and is a network
 * namespace: an nsfs mount or a /proc/<pid>/ns/net link), with PodNetnsError; upstream checks
 * nothing, and the first plugin that enters the path fails after the plugins before it ran.
 * On by default when the runtime runs its plugins itself, off with a caller's Exec; `checkNetns`
 * turns it either way, per runtime or per call (plugins that create the namespace themselves).
 */
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError, LibcniError } from "../../src/index.js";
import { loadNetworks, PodNetnsError } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins } from "./helpers.js";

let d: Dirs;
let fake: FakePlugins;

beforeEach(async () => {
  d = await dirs();
  fake = new FakePlugins();
  await writeFile(
    join(d.confDir, "10-pods.conflist"),
    '{"cniVersion":"1.0.0","name":"pods","plugins":[{"type":"bridge"},{"type":"portmap"}]}',
  );
});
afterEach(() => d.cleanup());

/** What the setup threw. */
async function setupError(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** Nothing was started: no plugin call, no setup intent, no record. */
async function nothingStarted(): Promise<void> {
  expect(fake.calls).toEqual([]);
  const cached = await readdir(d.cacheDir, { recursive: true });
  expect(cached).toEqual([]);
}

describe("setupPod checks the pod's netns first (checkNetns)", () => {
  it("a missing path: PodNetnsError, nothing run, nothing written", async () => {
    const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    const missing = join(d.base, "no-such-netns");
    const error = await setupError(rt.setupPod({ id: "p1", netns: missing }, { checkNetns: true }));
    expect(error).toBeInstanceOf(PodNetnsError);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toBeInstanceOf(LibcniError);
    const e = error as PodNetnsError;
    expect(e.id).toBe("LIBCNI_ERR_POD_NETNS");
    expect(e.reason).toBe("missing");
    expect(e.argument).toBe("pod.netns");
    expect(e.netns).toBe(missing);
    expect(e.podID).toBe("p1");
    expect(e.message).toBe(
      `set up pod p1: netns ${JSON.stringify(missing)} does not exist (nothing was run; checkNetns: false if the plugins create it)`,
    );
    expect((e.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
    await nothingStarted();
  });

  it("a regular file, a directory, a procfs file: not a network namespace", async () => {
    const rt = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      exec: fake.exec,
      checkNetns: true,
    });
    const file = join(d.base, "netns-file");
    await writeFile(file, "");
    const dir = join(d.base, "netns-dir");
    await mkdir(dir);
    for (const path of [file, dir, "/proc/self/status", "/dev/null"]) {
      const error = await setupError(rt.setupPod({ id: "p1", netns: path }));
      expect(error, path).toBeInstanceOf(PodNetnsError);
      expect((error as PodNetnsError).reason, path).toBe("not-a-netns");
      expect((error as Error).message).toContain(
        "is not a network namespace (an nsfs mount or a /proc/<pid>/ns/net link)",
      );
    }
    await nothingStarted();
  });

  it("no netns at all, or not a string: refused before anything runs", async () => {
    const rt = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      exec: fake.exec,
      checkNetns: true,
    });
    const empty = await setupError(rt.setupPod({ id: "p1", netns: "" }));
    expect(empty).toBeInstanceOf(PodNetnsError);
    expect((empty as PodNetnsError).reason).toBe("missing");
    expect((empty as Error).message).toMatch(/^set up pod p1: no netns given /);
    const wrong = await setupError(rt.setupPod({ id: "p1", netns: undefined as never }));
    expect(wrong).toBeInstanceOf(InvalidArgumentError);
    expect((wrong as InvalidArgumentError).argument).toBe("pod.netns");
    await nothingStarted();
  });

  it("a process's namespace link (/proc/<pid>/ns/net) passes, and the plugins get the path", async () => {
    const rt = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      exec: fake.exec,
      checkNetns: true,
    });
    const netns = `/proc/${process.pid}/ns/net`;
    await rt.setupPod({ id: "p1", netns });
    expect(fake.seq()).toEqual(["ADD pods:eth0", "ADD pods:eth0"]);
    expect(fake.calls.every((c) => c.netns === netns)).toBe(true);
    await rt.teardownPod("p1");
  });

  it("off with a caller's Exec unless asked for; a call's option overrides the runtime's", async () => {
    const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    // The plugins of a caller's Exec may run elsewhere (a VM, a fake): nothing is judged.
    await rt.setupPod({ id: "p1", netns: "/var/run/netns/p1" });
    expect(fake.seq("ADD")).toEqual(["ADD pods:eth0", "ADD pods:eth0"]);
    const strict = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      exec: fake.exec,
      checkNetns: true,
    });
    await strict.setupPod({ id: "p2", netns: "/var/run/netns/p2" }, { checkNetns: false });
    expect(fake.seq("ADD")).toHaveLength(4);
  });
});

describe("with the runtime's own exec (real plugin processes)", () => {
  let log = "";
  let bin = "";

  beforeEach(async () => {
    bin = join(d.base, "bin");
    log = join(d.base, "calls.log");
    await mkdir(bin);
    for (const type of ["bridge", "portmap"]) {
      const path = join(bin, type);
      // A recording plugin: appends its command and netns, answers an empty 1.0.0 result.
      await writeFile(
        path,
        `#!/bin/sh\necho "$CNI_COMMAND ${type} $CNI_NETNS" >> '${log}'\ncat > /dev/null\nprintf '{"cniVersion":"1.0.0"}'\n`,
      );
      await chmod(path, 0o755);
    }
  });

  const calls = (): Promise<string[]> =>
    readFile(log, "utf8").then(
      (t) => t.split("\n").filter((l) => l !== ""),
      () => [],
    );

  it("is on by default: a missing netns runs no plugin", async () => {
    const rt = await loadNetworks({ confDir: d.confDir, binDirs: [bin], cacheDir: d.cacheDir });
    const error = await setupError(rt.setupPod({ id: "p1", netns: join(d.base, "gone") }));
    expect(error).toBeInstanceOf(PodNetnsError);
    expect(await calls()).toEqual([]);
    expect(await rt.interruptedSetups()).toEqual([]);
  });

  it("checkNetns: false lets a path that is no namespace through (plugins that make it)", async () => {
    const rt = await loadNetworks({
      confDir: d.confDir,
      binDirs: [bin],
      cacheDir: d.cacheDir,
      checkNetns: false,
    });
    const later = join(d.base, "made-by-the-plugin");
    await rt.setupPod({ id: "p1", netns: later });
    expect(await calls()).toEqual([`ADD bridge ${later}`, `ADD portmap ${later}`]);
    const own = await loadNetworks({ confDir: d.confDir, binDirs: [bin], cacheDir: d.cacheDir });
    await own.setupPod({ id: "p2", netns: later }, { checkNetns: false });
    expect(await calls()).toHaveLength(4);
  });
});
