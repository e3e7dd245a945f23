import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RuntimeLocks } from "../../src/runtime/runtime.js";
import { type Call, twoNetworks, writeNetwork } from "./helpers.js";

/** A gate that holds the calls matching `match` until `open()`. */
function holder(match: (c: Call) => boolean) {
  let open!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  let reached!: () => void;
  const reachedP = new Promise<void>((r) => {
    reached = r;
  });
  return {
    gate: async (c: Call) => {
      if (!match(c)) return;
      reached();
      await opened;
    },
    reached: reachedP,
    open: () => open(),
  };
}

describe("concurrency", () => {
  const t = twoNetworks();

  it("serialises one pod's calls: a teardown issued during setup sees the whole setup", async () => {
    const rt = await t.load();
    const h = holder((c) => c.command === "ADD" && c.network === "b");
    t.fake.gate = h.gate;
    const setup = rt.setupPod({ id: "p", netns: "/n/p" });
    await h.reached;
    const teardown = rt.teardownPod("p");
    await new Promise((r) => setTimeout(r, 20));
    expect(t.fake.seq("DEL")).toEqual([]);
    h.open();
    await setup;
    expect(await teardown).toEqual([
      { network: "b", ifName: "net1" },
      { network: "a", ifName: "eth0" },
    ]);
    expect(await readdir(join(t.d.cacheDir, "results"))).toEqual([]);
  });

  it("runs different pods in parallel: a held pod does not hold another", async () => {
    const rt = await t.load();
    const h = holder((c) => c.containerID === "slow");
    t.fake.gate = h.gate;
    const slow = rt.setupPod({ id: "slow", netns: "/n/slow" });
    await h.reached;
    await rt.setupPod({ id: "fast", netns: "/n/fast" });
    await rt.teardownPod("fast");
    h.open();
    await slow;
    expect(t.fake.calls.filter((c) => c.containerID === "fast").map((c) => c.command)).toEqual([
      "ADD",
      "ADD",
      "DEL",
      "DEL",
    ]);
  });

  it("GC waits for the pod calls in flight and holds off those that come after it", async () => {
    // 1.1.0, so the networks' plugins get GC calls to order against.
    await writeNetwork(t.d.confDir, "10-a.conflist", "a", ["bridge"], "1.1.0");
    await writeNetwork(t.d.confDir, "20-b.conflist", "b", ["macvlan"], "1.1.0");
    const rt = await t.load();
    const h = holder((c) => c.containerID === "p1" && c.command === "ADD" && c.network === "a");
    t.fake.gate = h.gate;
    const setup1 = rt.setupPod({ id: "p1", netns: "/n/p1" });
    await h.reached;
    const gc = rt.gc(["p1"]);
    const setup2 = rt.setupPod({ id: "p2", netns: "/n/p2" });
    await new Promise((r) => setTimeout(r, 20));
    expect(t.fake.calls.some((c) => c.command === "GC" || c.containerID === "p2")).toBe(false);
    h.open();
    await Promise.all([setup1, gc, setup2]);
    const order = t.fake.calls.map((c) => `${c.command}:${c.containerID}`);
    const lastP1 = order.lastIndexOf("ADD:p1");
    const firstGC = order.findIndex((s) => s.startsWith("GC"));
    const firstP2 = order.indexOf("ADD:p2");
    expect(lastP1).toBeLessThan(firstGC);
    expect(firstGC).toBeLessThan(firstP2);
    // p2 was set up after the GC, so it survived it.
    expect((await readdir(join(t.d.cacheDir, "results"))).sort()).toEqual([
      "a-p1-eth0",
      "a-p2-eth0",
      "b-p1-net1",
      "b-p2-net1",
    ]);
  });

  it("a reload during a pod's setup does not change the networks that setup uses", async () => {
    const rt = await t.load();
    const h = holder((c) => c.command === "ADD" && c.network === "a");
    t.fake.gate = h.gate;
    const setup = rt.setupPod({ id: "p", netns: "/n/p" });
    await h.reached;
    await writeNetwork(t.d.confDir, "20-b.conflist", "b", ["changed"]);
    await rt.reload();
    h.open();
    await setup;
    expect(t.fake.calls.filter((c) => c.network === "b").map((c) => c.type)).toEqual(["macvlan"]);
  });

  it("20 pods set up and torn down at once leave nothing behind, and the locks return to idle", async () => {
    const rt = await t.load();
    const ids = Array.from({ length: 20 }, (_, i) => `pod${i}`);
    await Promise.all(ids.map((id) => rt.setupPod({ id, netns: `/n/${id}` }, { parallel: true })));
    expect(await readdir(join(t.d.cacheDir, "results"))).toHaveLength(40);
    await Promise.all(ids.map((id) => rt.teardownPod(id)));
    expect(await readdir(join(t.d.cacheDir, "results"))).toEqual([]);
  });
});

describe("RuntimeLocks", () => {
  it("drops a pod's mutex once idle, and an aborted waiter leaves the queue", async () => {
    const locks = new RuntimeLocks();
    const release = await locks.pod("x");
    const controller = new AbortController();
    const waiting = locks.pod("x", controller.signal);
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    release();
    expect(locks.pods.size).toBe(0);
    expect(locks.gc.idle).toBe(true);
    const again = await locks.pod("x");
    again();
    again();
    expect(locks.pods.size).toBe(0);
  });
});
