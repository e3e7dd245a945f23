import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type InterruptedSetupError,
  loadNetworks,
  NetworkTimeoutError,
  PodCheckError,
  PodNotFoundError,
  RuntimeGCError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("checkPod, status, gc", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"], "1.1.0");
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"], "1.1.0");
  });
  afterEach(() => d.cleanup());

  const load = () => loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  const records = async () => (await readdir(join(d.cacheDir, "results"))).sort();
  /** The attachments a network's plugin GC was told are valid. */
  const validTold = (network: string) =>
    fake.calls.find((c) => c.command === "GC" && c.network === network)?.config[
      "cni.dev/valid-attachments"
    ];

  describe("checkPod", () => {
    it("CHECKs every cached attachment in attach order with the cached result", async () => {
      const rt = await load();
      await rt.setupPod({ id: "p1", netns: "/n/p1" });
      fake.calls.length = 0;
      expect(await rt.checkPod("p1")).toEqual([
        { network: "a", ifName: "eth0" },
        { network: "b", ifName: "net1" },
      ]);
      expect(fake.seq()).toEqual(["CHECK a:eth0", "CHECK b:net1"]);
      expect(fake.calls[0].config.prevResult).toBeDefined();
    });

    it("throws every failure together", async () => {
      const rt = await load();
      await rt.setupPod({ id: "p1", netns: "/n/p1" });
      fake.fail.set("a/CHECK", "veth gone");
      const e = (await rt.checkPod("p1").catch((x: unknown) => x)) as PodCheckError;
      expect(e).toBeInstanceOf(PodCheckError);
      expect(e.failures.map((f) => f.network)).toEqual(["a"]);
      expect(fake.seq("CHECK")).toEqual(["CHECK a:eth0", "CHECK b:net1"]);
    });

    it("reports an interrupted setup: the pod is not whole, with or without records", async () => {
      const rt = await load();
      // b's ADD fails, and the rollback's DEL of a too: a keeps its record.
      fake.fail.set("b/ADD", "b add").set("a/DEL", "a del");
      await rt.setupPod({ id: "p1", netns: "/n/p1" }).catch(() => undefined);
      fake.fail.clear();
      const intent = join(d.cacheDir, "libcni", "setup-intents", "p1");
      const e = (await rt.checkPod("p1").catch((x: unknown) => x)) as PodCheckError;
      expect(e).toBeInstanceOf(PodCheckError);
      expect(e.failures.map((f) => [f.network, (f.error as Error).constructor.name])).toEqual([
        ["", "InterruptedSetupError"],
      ]);
      expect(e.message).toContain(`pod p1 has an interrupted setup (setup intent ${intent})`);
      expect(fake.seq("CHECK")).toEqual(["CHECK a:eth0"]);
      const status = await rt.podStatus("p1");
      expect(status.attachments.map((a) => a.network)).toEqual(["a"]);
      expect(status.problems.map((p) => (p.error as InterruptedSetupError).path)).toEqual([intent]);
      // Only the intent: not "not found" either.
      await rm(join(d.cacheDir, "results"), { recursive: true });
      await expect(rt.checkPod("p1")).rejects.toBeInstanceOf(PodCheckError);
      expect((await rt.podStatus("p1")).problems).toHaveLength(1);
      await rt.teardownPod("p1");
      await expect(rt.checkPod("p1")).rejects.toBeInstanceOf(PodNotFoundError);
    });

    it("throws PodNotFoundError for a pod with nothing cached", async () => {
      const rt = await load();
      const e = await rt.checkPod("never").catch((x: unknown) => x);
      expect(e).toBeInstanceOf(PodNotFoundError);
      expect((e as PodNotFoundError).id).toBe("LIBCNI_ERR_POD_NOT_FOUND");
    });
  });

  describe("status", () => {
    it("a VERSION that hangs: its network not ready after 10 s when no timeout is given, not a status() that hangs", async () => {
      const rt = await load();
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      try {
        fake.hang.add("VERSION");
        const report = rt.status();
        await vi.advanceTimersByTimeAsync(10_000);
        const { ready, networks } = await report;
        expect(ready).toBe(false);
        expect(networks.map((n) => n.error)).toEqual([
          expect.any(NetworkTimeoutError),
          expect.any(NetworkTimeoutError),
        ]);
      } finally {
        vi.useRealTimers();
      }
    });

    it("asks every network; ready when at least minReady are", async () => {
      await writeNetwork(d.confDir, "05-old.conflist", "old", ["ancient"], "0.4.0");
      const rt = await load();
      fake.fail.set("b/STATUS", "not ready yet");
      const report = await rt.status();
      expect(report.networks.map((n) => [n.network, n.ready])).toEqual([
        ["old", true],
        ["a", true],
        ["b", false],
      ]);
      expect(String((report.networks[2].error as Error).message)).toContain("not ready yet");
      expect(report.ready).toBe(true);
      expect(report.defaultReady).toBe(true);
      // The networks are asked concurrently: in either order.
      expect([...fake.seq("STATUS")].sort()).toEqual(["STATUS a:", "STATUS b:"]);
      expect((await rt.status({ minReady: 3 })).ready).toBe(false);
      const rtA = await loadNetworks({
        confDir: d.confDir,
        cacheDir: d.cacheDir,
        exec: fake.exec,
        defaultNetwork: "a",
      });
      fake.fail.set("a/STATUS", "down");
      const down = await rtA.status();
      expect(down.defaultReady).toBe(false);
      // The default network must be ready: minReady counts the others on top of it.
      expect(down.ready).toBe(false);
      expect(down.reason).toMatch(/^default network "a" \(.*10-a\.conflist\): not ready: .*down/);
    });

    it("the loopback network ready does not make a runtime ready whose one network is not", async () => {
      await rm(join(d.confDir, "20-b.conflist"));
      fake.fail.set("a/STATUS", "code 50");
      const rt = await loadNetworks({
        confDir: d.confDir,
        cacheDir: d.cacheDir,
        exec: fake.exec,
        loopback: true,
      });
      const report = await rt.status();
      expect(report.networks.map((n) => n.ready)).toEqual([true, false]);
      expect(report.ready).toBe(false);
      expect(report.reason).toMatch(/^default network "a" .*: not ready: .*code 50/);
    });
  });

  describe("gc", () => {
    it("DELs the leaked pods' attachments, then GCs each network with its valid set from the cache", async () => {
      const rt = await load();
      await rt.setupPod({ id: "keep", netns: "/n/keep" });
      await rt.setupPod({ id: "leak", netns: "/n/leak", networks: ["b", "a"] });
      fake.calls.length = 0;
      const report = await rt.gc(["keep"]);
      expect(report.removed).toEqual([
        { podID: "leak", network: "a", ifName: "net1" },
        { podID: "leak", network: "b", ifName: "eth0" },
      ]);
      expect(fake.seq()).toEqual(["DEL a:net1", "DEL b:eth0", "GC a:", "GC b:"]);
      expect(validTold("a")).toEqual([{ containerID: "keep", ifname: "eth0" }]);
      expect(validTold("b")).toEqual([{ containerID: "keep", ifname: "net1" }]);
      expect(await records()).toEqual(["a-keep-eth0", "b-keep-net1"]);
    });

    it("a kept pod's setup that ends while the GC runs keeps its attachment (a runtime beside)", async () => {
      // Two runtimes on one cache (a conf dir each, say): one sets up "new" while the other's
      // GC, told "new" is valid, is at network a. b's record is written once a's GC has begun.
      const [rt1, rt2] = [await load(), await load()];
      await rt1.setupPod({ id: "running", netns: "/n/running" });
      let releaseB = () => {};
      const heldB = new Promise<void>((resolve) => {
        releaseB = resolve;
      });
      let bArrived = () => {};
      const bHeld = new Promise<void>((resolve) => {
        bArrived = resolve;
      });
      let setup: Promise<unknown> = Promise.resolve();
      fake.gate = async (call) => {
        if (call.command === "ADD" && call.network === "b" && call.containerID === "new") {
          bArrived();
          await heldB;
        }
        if (call.command === "GC" && call.network === "a") {
          releaseB();
          await setup;
        }
      };
      setup = rt1.setupPod({ id: "new", netns: "/n/new" });
      await bHeld;
      fake.calls.length = 0;
      expect(await rt2.gc(["running", "new"])).toEqual({ removed: [], inFlightElsewhere: [] });
      await setup;
      expect(fake.seq("DEL")).toEqual([]);
      expect(await records()).toEqual([
        "a-new-eth0",
        "a-running-eth0",
        "b-new-net1",
        "b-running-net1",
      ]);
      expect(validTold("b")).toEqual([
        { containerID: "new", ifname: "net1" },
        { containerID: "running", ifname: "net1" },
      ]);
    });

    it("tells every pod a torn record's name may be of, when IDs hold dashes", async () => {
      const rt = await load();
      await rt.setupPod({ id: "keep", netns: "/n/keep" });
      await rt.setupPod({ id: "keep-2", netns: "/n/keep-2" });
      // Records that decode are told as they say, not by their names too.
      await rt.gc(["keep", "keep-2"]);
      expect(validTold("a")).toEqual([
        { containerID: "keep-2", ifname: "eth0" },
        { containerID: "keep", ifname: "eth0" },
      ]);
      await writeFile(join(d.cacheDir, "results", "a-keep-eth0"), "{ torn");
      await writeFile(join(d.cacheDir, "results", "a-keep-2-eth0"), "{ torn");
      fake.calls.length = 0;
      await rt.gc(["keep", "keep-2"]);
      expect(fake.seq()).toEqual(["GC a:", "GC b:"]);
      // "a-keep-2-eth0" reads as keep-2's eth0 or keep's "2-eth0": a plugin keeps both.
      expect(validTold("a")).toEqual([
        { containerID: "keep", ifname: "2-eth0" },
        { containerID: "keep-2", ifname: "eth0" },
        { containerID: "keep", ifname: "eth0" },
      ]);
    });

    it("reports setup intents it cannot list, and collects the records still", async () => {
      const rt = await load();
      await rt.setupPod({ id: "leak", netns: "/n/leak" });
      // The intents' directory is a file: not "no intent", a cache dir that is not right.
      await rm(join(d.cacheDir, "libcni", "setup-intents"), { recursive: true, force: true });
      await writeFile(join(d.cacheDir, "libcni", "setup-intents"), "");
      fake.calls.length = 0;
      const preview = await rt.gc([], { dryRun: true });
      expect(preview.removed.map((r) => r.podID)).toEqual(["leak", "leak"]);
      expect(String(preview.unusable?.[0]?.error)).toContain("list setup intents in");
      const error = await rt.gc([]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RuntimeGCError);
      expect(String(error)).toContain("ENOTDIR");
      expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0"]);
      await expect(rt.interruptedSetups()).rejects.toThrow("list setup intents in");
    });

    it("reports a record that names no container, and DELs no valid pod for it", async () => {
      const rt = await load();
      await rt.setupPod({ id: "keep", netns: "/n/keep" });
      // A record without a container ID: the listing's "" means every pod, which no pod is.
      const record = JSON.parse(await readFile(join(d.cacheDir, "results", "a-keep-eth0"), "utf8"));
      await writeFile(
        join(d.cacheDir, "results", "junk"),
        JSON.stringify({ ...record, containerId: "" }),
      );
      fake.calls.length = 0;
      const preview = await rt.gc(["keep"], { dryRun: true });
      expect(preview.removed).toEqual([]);
      expect(preview.unusable?.map((u) => [u.podID, u.network, u.ifName])).toEqual([
        ["", "a", "eth0"],
      ]);
      const error = await rt.gc(["keep"]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RuntimeGCError);
      expect(String(error)).toContain("cached attachment a/eth0 names no container ID");
      expect(fake.calls.filter((c) => c.containerID === "keep")).toEqual([]);
      expect(await records()).toEqual(["a-keep-eth0", "b-keep-net1", "junk"]);
    });

    it("tells the plugins a valid pod's record that does not decode is valid, by its name", async () => {
      const rt = await load();
      await rt.setupPod({ id: "keep", netns: "/n/keep" });
      await rt.setupPod({ id: "leak", netns: "/n/leak" });
      await writeFile(join(d.cacheDir, "results", "a-keep-eth0"), "{ torn");
      fake.calls.length = 0;
      await rt.gc(["keep"]);
      expect(fake.seq()).toEqual(["DEL b:net1", "DEL a:eth0", "GC a:", "GC b:"]);
      expect(fake.calls.filter((c) => c.containerID === "keep")).toEqual([]);
      expect(validTold("a")).toEqual([{ containerID: "keep", ifname: "eth0" }]);
      expect(validTold("b")).toEqual([{ containerID: "keep", ifname: "net1" }]);
      expect(await records()).toEqual(["a-keep-eth0", "b-keep-net1"]);
    });

    it("valid attachments come from the cache, not today's names, after the conf dir changed", async () => {
      const rt = await load();
      await rt.setupPod({ id: "keep", netns: "/n/keep" });
      // A new first network shifts today's allocation (a would now be net1).
      await writeNetwork(d.confDir, "01-first.conflist", "first", ["ptp"], "1.1.0");
      await rt.reload();
      fake.calls.length = 0;
      await rt.gc([{ id: "keep" }]);
      expect(validTold("a")).toEqual([{ containerID: "keep", ifname: "eth0" }]);
      expect(validTold("first")).toEqual([]);
    });

    it("DELs a leaked attachment of a network no longer in the conf dir with its cached config", async () => {
      const rt = await load();
      await rt.setupPod({ id: "leak", netns: "/n/leak" });
      await rm(join(d.confDir, "20-b.conflist"));
      await rt.reload();
      fake.calls.length = 0;
      await rt.gc([]);
      expect(fake.calls.map((c) => `${c.command} ${c.network}/${c.type}`)).toEqual([
        "DEL b/macvlan",
        "DEL a/bridge",
        "GC a/bridge",
      ]);
      expect(await records()).toEqual([]);
    });

    it("tries everything and throws the failures together", async () => {
      const rt = await load();
      await rt.setupPod({ id: "leak", netns: "/n/leak" });
      fake.fail.set("b/DEL", "stuck");
      fake.fail.set("a/GC", "gc failed");
      fake.calls.length = 0;
      const e = (await rt.gc([]).catch((x: unknown) => x)) as RuntimeGCError;
      expect(e).toBeInstanceOf(RuntimeGCError);
      expect(e.failures.map((f) => `${f.network}:${f.ifName}`)).toEqual(["b:net1", "a:"]);
      // b's own GC left the record it failed to DEL alone: the next GC tries it again.
      expect(fake.seq()).toEqual(["DEL b:net1", "DEL a:eth0", "GC a:", "GC b:"]);
      expect(await records()).toEqual(["b-leak-net1"]);
      fake.fail.clear();
      expect((await rt.gc([])).removed).toEqual([{ podID: "leak", network: "b", ifName: "net1" }]);
    });

    it("a DEL that failed is retried with the cached config, never with an edited network's", async () => {
      const rt = await load();
      await rt.setupPod({ id: "leak", netns: "/n/leak" });
      // Network b now runs another plugin; the leaked attachment was made by macvlan.
      await writeNetwork(d.confDir, "20-b.conflist", "b", ["ipvlan"], "1.1.0");
      await rt.reload();
      fake.fail.set("b/DEL", "busy");
      fake.calls.length = 0;
      await expect(rt.gc([])).rejects.toBeInstanceOf(RuntimeGCError);
      const dels = () => fake.calls.filter((c) => c.command === "DEL").map((c) => c.type);
      expect(dels()).toEqual(["macvlan", "bridge"]);
      expect(await records()).toEqual(["b-leak-net1"]);
      fake.fail.clear();
      fake.calls.length = 0;
      await rt.gc([]);
      expect(dels()).toEqual(["macvlan"]);
      expect(await records()).toEqual([]);
    });
  });
});
