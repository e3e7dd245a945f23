/**
 * A durable setup commits its records together (setup.ts' commitRecords): written without
 * fsync while the setup intent covers them, flushed at once before the intent goes. A commit
 * that fails rolls the pod back as a record write's failure does; a setup without a durable
 * cache commits nothing.
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadNetworks, PodSetupError } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const execFileAsync = promisify(execFile);

describe("setupPod: the records' group commit", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["ptp"]);
  });
  afterEach(() => d.cleanup());

  const load = (durableCache?: boolean) =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, durableCache });
  const list = async (dir: string) => (await readdir(dir).catch(() => [])).sort();
  const results = () => list(join(d.cacheDir, "results"));
  const intents = () => list(join(d.cacheDir, "libcni", "setup-intents"));
  const pod = { id: "pod1", netns: "/run/netns/pod1" };
  const outside = () => join(d.base, "outside-file");

  // During b's ADD, a's record is swapped for a link to nothing: the commit cannot open it.
  const breakFirstRecord = () => {
    fake.gate = async (call) => {
      if (call.network !== "b" || call.command !== "ADD") return;
      const record = join(d.cacheDir, "results", "a-pod1-eth0");
      await rm(record);
      await symlink(join(d.cacheDir, "nowhere"), record);
    };
  };

  it("rolls the pod back when its records cannot be committed", async () => {
    const rt = await load();
    breakFirstRecord();
    const error = await rt.setupPod(pod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    expect((error as PodSetupError).message).toContain("commit the cache records");
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0"]);
    expect(await results()).toEqual([]);
    expect(await intents()).toEqual([]);
  });

  it.each([
    ["a FIFO", (path: string) => execFileAsync("mkfifo", [path])],
    ["a link to a file elsewhere", (path: string) => symlink(outside(), path)],
  ])("rolls the pod back, never waiting, when a record was swapped for %s", async (_, swap) => {
    const rt = await load();
    await writeFile(outside(), "not a record");
    fake.gate = async (call) => {
      if (call.network !== "b" || call.command !== "ADD") return;
      const record = join(d.cacheDir, "results", "a-pod1-eth0");
      await rm(record);
      await swap(record);
    };
    const error = await rt.setupPod(pod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    expect((error as PodSetupError).message).toContain("commit the cache records");
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0"]);
    expect(await intents()).toEqual([]);
  });

  it("fails before any plugin runs, its intent removed, when the results dir cannot be made", async () => {
    const rt = await load();
    await mkdir(d.cacheDir, { recursive: true });
    await writeFile(join(d.cacheDir, "results"), "not a directory");
    const error = await rt.setupPod(pod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    expect((error as PodSetupError).message).toMatch(
      /make the results directory: .*not a directory/,
    );
    expect(fake.calls).toEqual([]);
    expect(await intents()).toEqual([]);
  });

  it("commits nothing without a durable cache", async () => {
    const rt = await load(false);
    breakFirstRecord();
    await rt.setupPod(pod);
    expect(fake.seq("DEL")).toEqual([]);
    expect(await results()).toEqual(["a-pod1-eth0", "b-pod1-net1"]);
    expect(await intents()).toEqual([]);
  });
});
