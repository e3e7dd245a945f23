/**
 * GC you can preview: `gc(valid, { dryRun: true })` lists what a GC would collect now, in the
 * order it would, and runs nothing (no plugin, no process ended) and touches no file (the whole
 * cache dir is compared before and after, stale temporary files and damaged intents included).
 * The GC events name what was collected: `libcni:pod`'s and `libcni:verb`'s `collected`.
 */
import { execFile } from "node:child_process";
import diagnosticsChannel from "node:diagnostics_channel";
import { mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { intentsDir, writeIntent } from "../../src/cache/intent.js";
import {
  DamagedIntentError,
  InvalidArgumentError,
  RuntimeGCError,
} from "../../src/errors/index.js";
import type { PodMessage, VerbMessage } from "../../src/index.js";
import { type CNIRuntime, loadNetworks, planPod } from "../../src/runtime/index.js";
import { intentOf } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, oneNetwork, writeNetwork } from "./helpers.js";

/** Every entry under `root`: its kind, size, modification time and content. */
async function tree(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      const s = await stat(path, { bigint: true });
      const key = relative(root, path);
      if (e.isDirectory()) {
        out[key] = `dir ${s.mtimeNs}`;
        await walk(path);
      } else {
        out[key] = `file ${s.size} ${s.mtimeNs} ${(await readFile(path)).toString("base64")}`;
      }
    }
  };
  await walk(root);
  return out;
}

describe("gc(valid, { dryRun: true })", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "portmap"], "1.1.0");
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"], "1.1.0");
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(() => d.cleanup());

  const intentFile = (id: string) => join(intentsDir(d.cacheDir), id);

  /** Two pods set up, one leaked; one interrupted setup; stale temp files in both dirs. */
  async function leakSome(): Promise<void> {
    await rt.setupPod({ id: "keep", netns: "/n/keep" });
    await rt.setupPod({ id: "leak", netns: "/n/leak", networks: ["b", "a"] });
    // As a process killed while b's plugins ran: nothing recorded, only the intent.
    const crashed = { id: "crashed", netns: "/n/crashed" };
    await writeIntent(
      d.cacheDir,
      "crashed",
      intentOf(planPod(rt.networkSet, crashed, undefined)),
      true,
    );
    const old = new Date(Date.now() - 3_600_000);
    for (const dir of [intentsDir(d.cacheDir), join(d.cacheDir, "results")]) {
      const temp = join(dir, ".libcni-dead-1.tmp");
      await writeFile(temp, "{");
      await utimes(temp, old, old);
    }
    fake.calls.length = 0;
    fake.exec.calls.length = 0;
  }

  it("lists what a GC would collect, in its order, and runs and touches nothing", async () => {
    await leakSome();
    const before = await tree(d.cacheDir);
    const preview = await rt.gc(["keep"], { dryRun: true });
    expect(preview).toEqual({
      dryRun: true,
      // Per pod in reverse attach order (leak was set up on b, then a); the interrupted
      // setup's attachments in reverse planned order.
      removed: [
        { podID: "leak", network: "a", ifName: "net1" },
        { podID: "leak", network: "b", ifName: "eth0" },
        { podID: "crashed", network: "b", ifName: "net1" },
        { podID: "crashed", network: "a", ifName: "eth0" },
      ],
      inFlightElsewhere: [],
      unusable: [],
    });
    // No plugin run (not even VERSION), no file removed, moved or written.
    expect(fake.exec.calls).toEqual([]);
    expect(await tree(d.cacheDir)).toEqual(before);
    // What the GC then does is what the preview said, in the same order.
    const done = await rt.gc(["keep"]);
    expect(done.dryRun).toBeUndefined();
    expect(done.unusable).toBeUndefined();
    expect(done.removed).toEqual(preview.removed);
    const dels = fake.seq("DEL").filter((c, i, all) => c !== all[i - 1]);
    expect(dels.slice(0, 4)).toEqual(["DEL a:net1", "DEL b:eth0", "DEL b:net1", "DEL a:eth0"]);
    expect(await rt.gc(["keep"], { dryRun: true })).toMatchObject({ removed: [], unusable: [] });
  });

  it("reports what a GC could not collect (a damaged intent) without setting it aside", async () => {
    await rt.setupPod({ id: "leak", netns: "/n/leak" });
    await mkdir(intentFile("broken"));
    fake.calls.length = 0;
    const before = await tree(d.cacheDir);
    const preview = await rt.gc([], { dryRun: true });
    expect(preview.removed).toEqual([
      { podID: "leak", network: "b", ifName: "net1" },
      { podID: "leak", network: "a", ifName: "eth0" },
    ]);
    expect(preview.unusable).toHaveLength(1);
    expect(preview.unusable?.[0]).toMatchObject({ podID: "broken", network: "", ifName: "" });
    expect(preview.unusable?.[0].error).toBeInstanceOf(DamagedIntentError);
    expect(fake.calls).toEqual([]);
    expect(await tree(d.cacheDir)).toEqual(before);
    // The GC itself fails on it once, as before.
    const error = await rt.gc([]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeGCError);
  });

  it("leaves valid pods out, and a dryRun that is not a boolean runs nothing", async () => {
    await rt.setupPod({ id: "keep", netns: "/n/keep" });
    fake.calls.length = 0;
    expect((await rt.gc(["keep"], { dryRun: true })).removed).toEqual([]);
    for (const dryRun of ["yes", 1, null]) {
      const error = await rt.gc([], { dryRun } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
    }
    expect(fake.calls).toEqual([]);
    expect(await readdir(join(d.cacheDir, "results"))).toHaveLength(2);
  });

  it("libcni:pod says what a GC collected (also when it fails), and marks a dry run", async () => {
    await rt.setupPod({ id: "leak", netns: "/n/leak" });
    const messages: PodMessage[] = [];
    const channel = diagnosticsChannel.tracingChannel<PodMessage, PodMessage>("libcni:pod");
    const handlers = {
      start() {},
      end() {},
      asyncStart(m: PodMessage) {
        messages.push(m);
      },
      asyncEnd() {},
      error() {},
    };
    channel.subscribe(handlers);
    try {
      await rt.gc([], { dryRun: true });
      fake.fail.set("a/GC", "gc failed");
      await rt.gc([]).catch(() => undefined);
    } finally {
      channel.unsubscribe(handlers);
    }
    const gcs = messages.filter((m) => m.operation === "gc");
    expect(gcs.map((m) => [m.dryRun, m.collected])).toEqual([
      [true, []],
      [
        false,
        [
          { podID: "leak", network: "b", ifName: "net1" },
          { podID: "leak", network: "a", ifName: "eth0" },
        ],
      ],
    ]);
    expect(gcs[1].error).toBeInstanceOf(RuntimeGCError);
  });
});

describe("libcni:verb of a GC", () => {
  const t = oneNetwork();

  it("lists the attachments the GC DELeted; the other verbs have no list", async () => {
    const { fake } = t;
    const rt = await t.load();
    await rt.setupPod({ id: "p1", netns: "/n/p1" });
    await rt.setupPod({ id: "p2", netns: "/n/p2" });
    const list = rt.networks[0].config;
    const messages: VerbMessage[] = [];
    const channel = diagnosticsChannel.tracingChannel<VerbMessage, VerbMessage>("libcni:verb");
    const handlers = {
      start() {},
      end() {},
      asyncStart(m: VerbMessage) {
        messages.push(m);
      },
      asyncEnd() {},
      error() {},
    };
    channel.subscribe(handlers);
    try {
      await rt.cni.gcNetworkList(list, {
        validAttachments: [{ containerID: "p2", ifname: "eth0" }],
      });
      await rt.cni.getStatusNetworkList(list);
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(messages.map((m) => [m.verb, m.collected])).toEqual([
      ["GC", [{ containerID: "p1", ifName: "eth0" }]],
      ["STATUS", undefined],
    ]);
    // The plugin's own GC got the options as the caller gave them (no sink key leaked).
    expect(fake.seq()).toContain("GC a:");
  });
});

// NODE_DEBUG=libcni is read when the process starts: a child process runs the built library.
const root = join(import.meta.dirname, "../..");
const script = `
import { FakeExec } from ${JSON.stringify(join(root, "dist/invoke/index.js"))};
import { loadNetworks } from ${JSON.stringify(join(root, "dist/runtime/index.js"))};
const [confDir, cacheDir] = process.argv.slice(1);
const exec = new FakeExec();
exec.findInPathCall.returns.path = "/fake/p";
exec.execPluginCall.handler = (call) => {
  const env = call.environ ?? [];
  if (env.includes("CNI_COMMAND=VERSION")) return '{"cniVersion":"1.1.0","supportedVersions":["1.1.0"]}';
  return env.includes("CNI_COMMAND=ADD") ? '{"cniVersion":"1.1.0"}' : "";
};
const rt = await loadNetworks({ confDir, cacheDir, exec });
for (const id of ["p1", "p2", "p3"]) await rt.setupPod({ id, netns: "/run/netns/" + id });
await rt.gc(["p2", "p3"], { dryRun: true });
await rt.gc(["p2", "p3"]);
await rt.cni.gcNetworkList(rt.networks[0].config, { validAttachments: [{ containerID: "p3", ifname: "eth0" }] });
await rt.status();
`;

describe("debug lines of a GC", () => {
  let d: Dirs;
  beforeEach(async () => {
    d = await dirs();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["fake"], "1.1.0");
  });
  afterEach(() => d.cleanup());

  it("name what was collected, not an empty container or pod", async () => {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ["--input-type=module", "-e", script, d.confDir, d.cacheDir],
      { env: { ...process.env, NODE_DEBUG: "libcni" } },
    );
    const lines = stderr
      .split("\n")
      .filter((l) => / (pod (gc|status)|verb (GC|STATUS)) /.test(l))
      .map((l) => l.replace(/^LIBCNI \d+: /, "").replace(/duration=[\d.]+ms/, "duration=Xms"));
    expect(lines).toEqual([
      "pod gc dryRun=true collected=[] duration=Xms outcome=ok",
      // The pod-level GC DELs p1 itself; the network's own GC then finds nothing stale.
      'verb GC network="a" collected=[] cniVersion=1.1.0 duration=Xms outcome=ok',
      "pod gc collected=[a/p1:eth0] duration=Xms outcome=ok",
      'verb GC network="a" collected=[p2:eth0] cniVersion=1.1.0 duration=Xms outcome=ok',
      'verb STATUS network="a" cniVersion=1.1.0 duration=Xms outcome=ok',
      "pod status duration=Xms outcome=ok",
    ]);
  });
});
