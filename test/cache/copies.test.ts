/**
 * Two copies of the library in one thread (two versions of the package, each bundled by a
 * dependency) share the registry of setups in flight: a setup the one runs is in flight to the
 * other, never an interrupted one its GC or `interruptedSetups()` would undo.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import * as intent from "../../src/cache/intent.js";

let cacheDir: string;
beforeEach(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "libcni-copies-"));
});
afterEach(() => rm(cacheDir, { recursive: true, force: true }));

it("a setup one copy runs is running to the other, and ends for both", async () => {
  // A query string makes the module loader evaluate the file a second time: a second copy.
  const secondCopy = "../../src/cache/intent.js?second-copy";
  const other = (await import(/* @vite-ignore */ secondCopy)) as typeof intent;
  expect(other.asSetupHere).not.toBe(intent.asSetupHere);
  let finish: () => void = () => {};
  const running = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const setup = intent.asSetupHere(cacheDir, "p", () => running);
  expect(await other.setupRunning(cacheDir, "p")).toBe(true);
  // Nor may the other copy begin the same setup meanwhile.
  expect(await other.asSetupHere(cacheDir, "p", async () => "ran")).toBeUndefined();
  finish();
  await setup;
  expect(await other.setupRunning(cacheDir, "p")).toBe(false);
  expect(await intent.setupRunning(cacheDir, "p")).toBe(false);
});
