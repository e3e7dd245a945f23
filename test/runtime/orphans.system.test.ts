/**
 * The orphan trials of orphans.test.ts through the built spawner helper (npm run build:native):
 * a helper SIGKILLed under 40 setups, and a runtime SIGKILLed during a plugin's ADD (the
 * helper ends its plugins when its parent goes; the teardown's own check backs it up).
 * ORPHAN_TRIALS=<n> repeats each (the closing figures: 10). And two runtimes on two cache dirs
 * with one pod ID: recovery on one never ends the other's plugin, started through the helper.
 */
import { access, constants } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { spawnerBinaryPath } from "../../src/engines/start/select.js";
import { crossCacheTrial, helperKillTrial, lateKillTrial } from "./orphan-trials.js";

const trials = Number(process.env.ORPHAN_TRIALS ?? 2);

describe("plugins die with their owner (the built helper)", () => {
  it("helper killed under 40 setups: no state without a record", async () => {
    const binary = spawnerBinaryPath();
    await access(binary, constants.X_OK);
    for (let trial = 0; trial < trials; trial++) {
      const outcome = await helperKillTrial(binary);
      expect(outcome.failed).toBeGreaterThan(0);
      expect(outcome.survivors).toBe(0);
      expect(outcome.leaks).toEqual([]);
      expect(outcome.rollbackFailures).toBe(0);
    }
  }, 300_000);

  it("runtime killed during a plugin's ADD: nothing left after teardown", async () => {
    const binary = spawnerBinaryPath();
    for (let trial = 0; trial < trials; trial++) {
      const outcome = await lateKillTrial({ kind: "spawner", binaryPath: binary });
      expect(outcome.killedMidRun).toBe(true);
      expect(outcome.leaks).toEqual([]);
    }
  }, 300_000);
});

describe("recovery ends only the dead owner's plugins (the built helper)", () => {
  it("a live runtime on another cache dir keeps its plugin, even on the same netns", async () => {
    await access(spawnerBinaryPath(), constants.X_OK);
    for (const netns of ["other", "same"] as const) {
      const outcome = await crossCacheTrial({ netns, runID: true });
      expect(outcome.collected).toBe(true);
      expect(outcome.setup).toBe("ok");
    }
  }, 120_000);
});
