/**
 * The pacer: synchronous steps run at once while the turn's budget lasts and nothing waits,
 * else in order on later turns, a budget's worth per turn; a lone step never waits.
 */
import { describe, expect, it } from "vitest";
import { Pacer } from "../../src/internal/pacer.js";
import { manualLoop } from "./manual-loop.js";

/** Lets the microtasks of settled promises run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("Pacer", () => {
  it("runs a lone step in the caller's turn, and the next turn only ends the turn's count", async () => {
    const loop = manualLoop();
    const pacer = new Pacer(1, loop.now, loop.schedule);
    let ran = false;
    const value = pacer.run(() => {
      ran = true;
      return 42;
    });
    expect(ran).toBe(true);
    await expect(value).resolves.toBe(42);
    expect(loop.turn()).toBe(1);
    // Idle: nothing more is booked.
    expect(loop.turn()).toBe(0);
  });

  it("defers the steps past the budget to later turns, in order, a budget's worth per turn", async () => {
    const loop = manualLoop();
    const pacer = new Pacer(1, loop.now, loop.schedule);
    const ran: number[] = [];
    // Each step takes 0.4 ms: three fit the 1 ms budget (the third starts at 0.8 ms).
    const step = (i: number) => () => {
      ran.push(i);
      loop.advance(0.4);
      return i;
    };
    const results = Array.from({ length: 8 }, (_, i) => pacer.run(step(i)));
    expect(ran).toEqual([0, 1, 2]);
    expect(pacer.waiting).toBe(5);
    loop.turn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5]);
    loop.turn();
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(pacer.waiting).toBe(0);
    await expect(Promise.all(results)).resolves.toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // One more turn ends the count, then the pacer is idle.
    expect(loop.turn()).toBe(1);
    expect(loop.turn()).toBe(0);
  });

  it("runs at least one waiting step per turn, however long it takes", () => {
    const loop = manualLoop();
    const pacer = new Pacer(1, loop.now, loop.schedule);
    const ran: number[] = [];
    for (let i = 0; i < 3; i++) {
      pacer.run(() => {
        ran.push(i);
        loop.advance(5);
      });
    }
    expect(ran).toEqual([0]);
    loop.turn();
    expect(ran).toEqual([0, 1]);
    loop.turn();
    expect(ran).toEqual([0, 1, 2]);
  });

  it("a step that throws rejects its own promise only, in the caller's turn or a later one", async () => {
    const loop = manualLoop();
    const pacer = new Pacer(1, loop.now, loop.schedule);
    const boom = new Error("boom");
    const first = pacer.run(() => {
      loop.advance(2);
      throw boom;
    });
    const second = pacer.run(() => {
      throw boom;
    });
    const third = pacer.run(() => "ok");
    await expect(first).rejects.toBe(boom);
    loop.turn();
    await expect(second).rejects.toBe(boom);
    await expect(third).resolves.toBe("ok");
  });

  it("with the real event loop, a burst leaves room for an immediate booked before it", async () => {
    const pacer = new Pacer(1);
    const order: string[] = [];
    setImmediate(() => order.push("other"));
    const busy = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end) {
        // Synchronous work, as a step's encoding is.
      }
    };
    const steps = Array.from({ length: 20 }, (_, i) =>
      pacer.run(() => {
        busy(0.5);
        order.push(`step${i}`);
      }),
    );
    await Promise.all(steps);
    await settle();
    // The other callback ran before the last steps: the burst did not hold the whole turn.
    expect(order.indexOf("other")).toBeGreaterThan(0);
    expect(order.indexOf("other")).toBeLessThan(order.indexOf("step19"));
    expect(order.filter((s) => s.startsWith("step"))).toEqual(
      Array.from({ length: 20 }, (_, i) => `step${i}`),
    );
  });
});
