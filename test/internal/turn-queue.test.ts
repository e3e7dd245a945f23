/**
 * The turn queue under the pacer and the spawn gate: first in, first out, at most one turn
 * booked at a time, taken slots let go and the consumed prefix dropped as it drains.
 */
import { describe, expect, it } from "vitest";
import { TurnQueue } from "../../src/internal/turn-queue.js";
import { manualLoop } from "./manual-loop.js";

describe("TurnQueue", () => {
  it("gives items back in order, and undefined once empty", () => {
    const queue = new TurnQueue<number>(() => undefined, manualLoop().schedule);
    for (let i = 0; i < 3; i++) queue.push(i);
    expect(queue.length).toBe(3);
    expect([queue.shift(), queue.shift()]).toEqual([0, 1]);
    queue.push(3);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([2, 3, undefined]);
    expect(queue.length).toBe(0);
  });

  it("books at most one turn at a time, and a new one once it has run", () => {
    const loop = manualLoop();
    let turns = 0;
    const queue = new TurnQueue<number>(() => {
      turns++;
    }, loop.schedule);
    queue.bookTurn();
    queue.bookTurn();
    expect(loop.turn()).toBe(1);
    expect(turns).toBe(1);
    expect(loop.turn()).toBe(0);
    queue.bookTurn();
    expect(loop.turn()).toBe(1);
    expect(turns).toBe(2);
  });

  it("lets the owner book its next turn from its own callback", () => {
    const loop = manualLoop();
    const taken: number[] = [];
    const queue: TurnQueue<number> = new TurnQueue(() => {
      const item = queue.shift();
      if (item !== undefined) taken.push(item);
      if (queue.length > 0) queue.bookTurn();
    }, loop.schedule);
    for (let i = 0; i < 3; i++) queue.push(i);
    queue.bookTurn();
    while (loop.turn() > 0);
    expect(taken).toEqual([0, 1, 2]);
  });

  it("keeps order over a long interleaving of pushes and takes (compaction as it drains)", () => {
    const queue = new TurnQueue<number>(() => undefined, manualLoop().schedule);
    const taken: number[] = [];
    let next = 0;
    for (let i = 0; i < 3000; i++) queue.push(next++);
    for (let t = 0; t < 6000; t++) {
      if (t % 2 === 0) queue.push(next++);
      const item = queue.shift();
      if (item !== undefined) taken.push(item);
      expect(queue.length).toBe(next - taken.length);
    }
    expect(taken).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  it("uses setImmediate by default", async () => {
    let ran = false;
    const queue = new TurnQueue<never>(() => {
      ran = true;
    });
    queue.bookTurn();
    expect(ran).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toBe(true);
  });
});
