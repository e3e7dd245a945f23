/**
 * CI's root run of the system tier leaves out the `rootless-too` project because the rootless
 * tier runs those suites in its sandbox (.ci/run, docs/development.md): a suite listed there
 * must be one the sandbox runs, or it would run nowhere in CI.
 */
import { describe, expect, it } from "vitest";
import system from "../../vitest.system.config.js";

// A plain .mjs (no declarations): read as data.
const rootless: unknown = (await import(`${"../../vitest.rootless.config.mjs"}`)).default;

type Project = { test?: { name?: string; include?: string[] } };
const projects = (config: unknown): Project[] =>
  ((config as { test?: { projects?: Project[] } }).test?.projects ?? []) as Project[];
const include = (config: unknown, name: string): string[] =>
  projects(config).find((p) => p.test?.name === name)?.test?.include ?? [];

describe("the system tier's projects and the rootless tier", () => {
  it("every suite CI leaves to the rootless tier runs in its sandbox", () => {
    const leftToRootless = include(system, "rootless-too");
    expect(leftToRootless.length).toBeGreaterThan(0);
    const inSandbox = [
      ...include(rootless, "in-sandbox"),
      ...include(rootless, "in-sandbox-alone"),
    ];
    expect(leftToRootless.filter((file) => !inSandbox.includes(file))).toEqual([]);
  });
});
