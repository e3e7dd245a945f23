import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { liveLocks, lockAttachment, lockNetwork, withLock } from "../../src/api/lock.js";

/** Records when each task starts and ends, to check overlaps. */
function recorder() {
  const events: string[] = [];
  let running = 0;
  let maxRunning = 0;
  const task =
    (name: string, ms = 5) =>
    async (): Promise<string> => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      events.push(`start ${name}`);
      await sleep(ms);
      events.push(`end ${name}`);
      running--;
      return name;
    };
  return { events, task, max: () => maxRunning };
}

describe("lockAttachment", () => {
  it("serialises calls on the same attachment, in call order", async () => {
    const r = recorder();
    const runs = ["a", "b", "c"].map((name) =>
      withLock(lockAttachment("/cache", "net", "cid", "eth0"), r.task(name)),
    );
    expect(await Promise.all(runs)).toEqual(["a", "b", "c"]);
    expect(r.events).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  });

  it("runs different attachments in parallel", async () => {
    const r = recorder();
    await Promise.all([
      withLock(lockAttachment("/cache", "net", "cid", "eth0"), r.task("a", 20)),
      withLock(lockAttachment("/cache", "net", "cid", "eth1"), r.task("b", 20)),
      withLock(lockAttachment("/cache", "net", "cid2", "eth0"), r.task("c", 20)),
      withLock(lockAttachment("/cache", "other", "cid", "eth0"), r.task("d", 20)),
      withLock(lockAttachment("/other-cache", "net", "cid", "eth0"), r.task("e", 20)),
    ]);
    expect(r.max()).toBe(5);
  });

  it("treats equal cache directories written differently as one", async () => {
    const r = recorder();
    await Promise.all([
      withLock(lockAttachment("/cache/", "net", "cid", "eth0"), r.task("a")),
      withLock(lockAttachment("/cache/x/..", "net", "cid", "eth0"), r.task("b")),
    ]);
    expect(r.max()).toBe(1);
  });

  it("releases the lock when the task throws", async () => {
    await expect(
      withLock(lockAttachment("/cache", "net", "cid", "eth0"), async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
    await withLock(lockAttachment("/cache", "net", "cid", "eth0"), async () => undefined);
  });
});

describe("lockNetwork (GC)", () => {
  it("waits for attachment calls in flight and holds off later ones", async () => {
    const r = recorder();
    const first = withLock(lockAttachment("/cache", "net", "c1", "eth0"), r.task("add1", 20));
    const second = withLock(lockAttachment("/cache", "net", "c2", "eth0"), r.task("add2", 20));
    const gc = withLock(lockNetwork("/cache", "net"), r.task("gc", 10));
    const later = withLock(lockAttachment("/cache", "net", "c3", "eth0"), r.task("add3", 5));
    const elsewhere = withLock(
      lockAttachment("/cache", "other-net", "c1", "eth0"),
      r.task("other", 5),
    );
    await Promise.all([first, second, gc, later, elsewhere]);
    const at = (e: string): number => r.events.indexOf(e);
    expect(at("start gc")).toBeGreaterThan(at("end add1"));
    expect(at("start gc")).toBeGreaterThan(at("end add2"));
    expect(at("start add3")).toBeGreaterThan(at("end gc"));
    // Another network is not held up by this GC.
    expect(at("end other")).toBeLessThan(at("start gc"));
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  });

  it("excludes two GCs of the same network from each other", async () => {
    const r = recorder();
    await Promise.all([
      withLock(lockNetwork("/cache", "net"), r.task("gc1")),
      withLock(lockNetwork("/cache", "net"), r.task("gc2")),
    ]);
    expect(r.events).toEqual(["start gc1", "end gc1", "start gc2", "end gc2"]);
  });
});

describe("abort while waiting", () => {
  it("rejects with the signal's reason and lets the others through", async () => {
    const r = recorder();
    const holder = withLock(lockAttachment("/cache", "net", "cid", "eth0"), r.task("holder", 30));
    const controller = new AbortController();
    const waiting = withLock(
      lockAttachment("/cache", "net", "cid", "eth0", controller.signal),
      r.task("aborted"),
    );
    const after = withLock(lockAttachment("/cache", "net", "cid", "eth0"), r.task("after"));
    controller.abort(new Error("gave up"));
    await expect(waiting).rejects.toThrow("gave up");
    await Promise.all([holder, after]);
    expect(r.events).toEqual(["start holder", "end holder", "start after", "end after"]);
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  });

  it("an aborted GC waiting at the head no longer holds back attachment calls", async () => {
    const r = recorder();
    const holder = withLock(lockAttachment("/cache", "net", "c1", "eth0"), r.task("add1", 30));
    const controller = new AbortController();
    const gc = withLock(lockNetwork("/cache", "net", controller.signal), r.task("gc"));
    const add2 = withLock(lockAttachment("/cache", "net", "c2", "eth0"), r.task("add2", 5));
    await sleep(5);
    controller.abort();
    await expect(gc).rejects.toThrow();
    await Promise.all([holder, add2]);
    // add2 ran while add1 still held its lock, once the GC gave up.
    expect(r.events.indexOf("end add2")).toBeLessThan(r.events.indexOf("end add1"));
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  });

  it("rejects at once with an already aborted signal", async () => {
    await expect(
      lockNetwork("/cache", "net", AbortSignal.abort(new Error("late"))),
    ).rejects.toThrow("late");
    expect(liveLocks()).toEqual({ networks: 0, attachments: 0 });
  });
});
