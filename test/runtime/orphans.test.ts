/**
 * Plugins die with their owner, and a run whose outcome is unknown counts as started (the
 * system tier runs the same trials through the built helper: orphans.system.test.ts).
 * - A helper killed while 40 setups run: the runs it had started are ended before their ADDs
 *   fail, and the setups roll them back; nothing keeps state without a record.
 * - A runtime killed while a plugin's ADD runs (the direct spawn, plugins in sessions of their
 *   own): teardown from another process ends the plugin before its DEL.
 */
import { describe, expect, it } from "vitest";
import { fakeSpawner, helperKillTrial, lateKillTrial } from "./orphan-trials.js";

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
