/**
 * Two processes that set up the same pod at the same moment: both can find no intent on disk,
 * but the intent is made exclusively, so only one setup runs its plugins; the other is refused
 * (InterruptedSetupError) and leaves the winner's intent alone. Another process is played here
 * by a second runtime with the process-wide registry of setups in flight taken out.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { InterruptedSetupError } from "../../src/runtime/index.js";
import { twoNetworks } from "./helpers.js";

// Both setups read the intent dir before either writes: the race the exclusive create closes.
const barrier = vi.hoisted(() => ({ waiting: [] as (() => void)[], size: 0 }));
vi.mock("../../src/cache/intent.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/cache/intent.js")>();
  return {
    ...real,
    asSetupHere: <T>(_dir: string, _pod: string, setup: () => Promise<T>) => setup(),
    readIntent: async (cacheDir: string, podID: string) => {
      const read = await real.readIntent(cacheDir, podID);
      if (barrier.waiting.length + 1 < barrier.size) {
        await new Promise<void>((resolve) => barrier.waiting.push(resolve));
      } else {
        barrier.size = 0;
        for (const go of barrier.waiting.splice(0)) go();
      }
      return read;
    },
  };
});

const t = twoNetworks();

it("of two setups of one pod that both found no intent, one runs; the other is refused", async () => {
  const [a, b] = [await t.load(), await t.load()];
  barrier.size = 2;
  // The one that makes the intent is held in its first ADD while the other is refused.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  t.fake.gate = async (c) => {
    if (c.command === "ADD") await held;
  };
  const setups = [a, b].map((rt) => rt.setupPod({ id: "p", netns: "/n/p" }));
  const refused = await Promise.race(setups.map((s) => s.catch((e: unknown) => e)));
  expect(refused).toBeInstanceOf(InterruptedSetupError);
  expect((refused as InterruptedSetupError).inFlightElsewhere).toBe(true);
  // The winner's intent is left alone.
  expect(await readdir(join(t.d.cacheDir, "libcni", "setup-intents"))).toEqual(["p"]);
  release();
  const settled = await Promise.allSettled(setups);
  expect(settled.map((s) => s.status).sort()).toEqual(["fulfilled", "rejected"]);
  expect(t.fake.seq("ADD")).toEqual(["ADD a:eth0", "ADD b:net1"]);
  expect(t.fake.seq("DEL")).toEqual([]);
  // The winner cleared its own intent at its end; its records are whole.
  expect(await readdir(join(t.d.cacheDir, "libcni", "setup-intents"))).toEqual([]);
  expect((await readdir(join(t.d.cacheDir, "results"))).sort()).toEqual(["a-p-eth0", "b-p-net1"]);
});
