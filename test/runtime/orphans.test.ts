/**
 * Plugins die with their owner, and a run whose outcome is unknown counts as started (the
 * system tier runs the same trials through the built helper: orphans.system.test.ts).
 * - A helper killed while 40 setups run: the runs it had started are ended before their ADDs
 *   fail, and the setups roll them back; nothing keeps state without a record.
 * - A runtime killed while a plugin's ADD runs (the direct spawn, plugins in sessions of their
 *   own): teardown from another process ends the plugin before its DEL.
 * - Recovery on one cache dir never ends a live runtime's plugin for the same pod ID on another.
 */
import { describe, expect, it } from "vitest";
import { crossCacheTrial, fakeSpawner, helperKillTrial, lateKillTrial } from "./orphan-trials.js";

// ORPHAN_TRIALS=<n> repeats each trial (the closing figures: 10).
const trials = Number(process.env.ORPHAN_TRIALS ?? 1);

describe("plugins die with their owner (fake helper, direct spawn)", () => {
  it("helper killed under 40 setups: every failed setup rolled back, no state without a record", async () => {
    for (let trial = 0; trial < trials; trial++) {
      const outcome = await helperKillTrial(fakeSpawner);
      expect(outcome.failed).toBeGreaterThan(0);
      expect(outcome.survivors).toBe(0);
      expect(outcome.leaks).toEqual([]);
      expect(outcome.rollbackFailures).toBe(0);
    }
  }, 300_000);

  it("runtime killed during a plugin's ADD: teardown ends the plugin before its DEL", async () => {
    for (let trial = 0; trial < Math.max(trials, 2); trial++) {
      const outcome = await lateKillTrial({ kind: "direct" });
      expect(outcome.killedMidRun).toBe(true);
      expect(outcome.leaks).toEqual([]);
    }
  }, 300_000);
});

describe("recovery ends only the dead owner's plugins (direct spawn)", () => {
  // The dead setup's netns is another pod's, or the live one's own (then only the run ID tells
  // them apart); an intent of an earlier version has no run ID.
  for (const variant of [
    { netns: "other", runID: true },
    { netns: "same", runID: true },
    { netns: "other", runID: false },
  ] as const) {
    it(`a live runtime on another cache dir keeps its plugin (netns ${variant.netns}, run ID ${variant.runID})`, async () => {
      const outcome = await crossCacheTrial(variant);
      expect(outcome.collected).toBe(true);
      expect(outcome.setup).toBe("ok");
    }, 60_000);
  }
});
