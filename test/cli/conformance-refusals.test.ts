/**
 * `cnitool conformance` refuses, with its own usage error (exit 2, cobra's layout), what the
 * check could never run with, before any namespace is made: a per-call limit longer than a
 * timer holds (which would stop every call at once, or reach Node's own range error) and a
 * plugin that is a directory (every call would fail with EACCES). The real checker here, not
 * conformance.test.ts's stub: the refusals are its and parseTimeout's.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginDir } from "../fixtures/plugins/noop-debug.js";
import { runInProcess } from "./helpers.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "libcni-cli-refusals-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const run = (argv: string[]) =>
  runInProcess(["conformance", ...argv], { CNI_PATH: pluginDir.replace(/\/$/, "") }, dir);

function expectUsageError(out: { code: number; stdout: string; stderr: string }, message: string) {
  expect(out.code).toBe(2);
  expect(out.stdout).toBe("");
  expect(out.stderr.split("\n")[0]).toBe(`Error: ${message}`);
  expect(out.stderr).toContain("Usage:\n  cnitool conformance <plugin> [flags]");
}

describe("cnitool conformance refuses up front", () => {
  it.each([
    ["597h", "596h31m23.647s"],
    ["596h31m23.648s", "596h31m23.647s"],
    ["9999999999h", "596h31m23.647s"],
  ])("--timeout %s: longer than a timer waits (at most %s)", async (timeout, max) => {
    const out = await run(["noop.mjs", "--timeout", timeout]);
    expectUsageError(
      out,
      `invalid argument "${timeout}" for "--timeout" flag: the per-call limit must be at most ${max}`,
    );
  });

  it("a directory given as the plugin, as a file that is not executable", async () => {
    expectUsageError(await run([dir]), `${dir} is not an executable file`);
    // A relative path is taken from the working directory, and named as the checker got it.
    await mkdir(join(dir, "plugins"));
    expectUsageError(await run(["./plugins"]), `${join(dir, "plugins")} is not an executable file`);
  });
});
