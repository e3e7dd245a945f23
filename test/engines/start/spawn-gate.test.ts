/**
 * The spawn gate: starts queued first in, first out, at most one per turn of the event loop,
 * so that a burst of calls does not run its forks back to back inside one turn.
 */
import { describe, expect, it } from "vitest";
import { SpawnGate } from "../../../src/engines/start/spawn-gate.js";
import { manualLoop as manualScheduler } from "../../internal/manual-loop.js";

describe("SpawnGate", () => {
  it("runs jobs in order, one per turn, none in the caller's turn", () => {
    const { schedule, turn } = manualScheduler();
    const gate = new SpawnGate(schedule);
    const ran: number[] = [];
    for (let i = 0; i < 5; i++) gate.enqueue(() => ran.push(i));
    expect(ran).toEqual([]);
    expect(gate.pending).toBe(5);
    for (let t = 1; t <= 5; t++) {
      // The gate never books more than one callback per turn.
      expect(turn()).toBe(1);
      expect(ran).toEqual(Array.from({ length: t }, (_, i) => i));
    }
    expect(gate.pending).toBe(0);
    // Nothing left: no further turn is booked.
    expect(turn()).toBe(0);
  });

  it("a cancelled job never runs and takes no turn; cancelling twice or after the run is a no-op", () => {
    const { schedule, turn } = manualScheduler();
    const gate = new SpawnGate(schedule);
    const ran: string[] = [];
    const cancelA = gate.enqueue(() => ran.push("a"));
    const cancelB = gate.enqueue(() => ran.push("b"));
    gate.enqueue(() => ran.push("c"));
    expect(cancelB()).toBe(true);
    expect(cancelB()).toBe(false);
    expect(gate.pending).toBe(2);
    turn();
    expect(ran).toEqual(["a"]);
    expect(cancelA()).toBe(false);
    turn();
    expect(ran).toEqual(["a", "c"]);
    expect(turn()).toBe(0);
  });

  it("cancelling every queued job leaves the gate idle, and it restarts for the next job", () => {
    const { schedule, turn } = manualScheduler();
    const gate = new SpawnGate(schedule);
    const ran: string[] = [];
    const cancel = gate.enqueue(() => ran.push("x"));
    cancel();
    expect(gate.pending).toBe(0);
    turn();
    expect(turn()).toBe(0);
    gate.enqueue(() => ran.push("y"));
    expect(turn()).toBe(1);
    expect(ran).toEqual(["y"]);
  });

  it("a job that throws does not stall the queue", () => {
    const { schedule, turn } = manualScheduler();
    const gate = new SpawnGate(schedule);
    const ran: string[] = [];
    gate.enqueue(() => {
      throw new Error("boom");
    });
    gate.enqueue(() => ran.push("after"));
    expect(turn).toThrow("boom");
    turn();
    expect(ran).toEqual(["after"]);
  });

  it("keeps order over many jobs queued while others run (the queue is compacted as it drains)", () => {
    const { schedule, turn } = manualScheduler();
    const gate = new SpawnGate(schedule);
    const ran: number[] = [];
    let next = 0;
    const add = (): void => {
      const id = next++;
      gate.enqueue(() => ran.push(id));
    };
    for (let i = 0; i < 3000; i++) add();
    for (let t = 0; t < 6000; t++) {
      if (t % 2 === 0) add();
      turn();
    }
    expect(ran).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  it("with the default scheduler, jobs are spread over turns of the real event loop", async () => {
    const gate = new SpawnGate();
    let tick = 0;
    let ticking = true;
    const ticker = (): void => {
      tick++;
      if (ticking) setImmediate(ticker);
    };
    setImmediate(ticker);
    const ticks: number[] = [];
    await Promise.all(
      Array.from(
        { length: 20 },
        () => new Promise<void>((resolve) => gate.enqueue(() => resolve(void ticks.push(tick)))),
      ),
    );
    ticking = false;
    expect(ticks).toHaveLength(20);
    expect(new Set(ticks).size).toBe(20);
  });
});
