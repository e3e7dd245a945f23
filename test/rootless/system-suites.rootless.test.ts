/**
 * Dogfood: the system tier's namespace, testing-kit and checker suites (test/netns, tempNetns,
 * testHost, failpoints, the sweep, the checker on its reference and hanging plugins) run by a
 * user who is not root inside one `cnitool rootless -- vitest run` (the `in-sandbox` projects of
 * vitest.rootless.config.mjs), as a plugin author's or runtime author's suite would. They check
 * `process.getuid() === 0` as under root: inside, the user is uid 0. Their output is this
 * test's. Needs `npm run build` and `npm run build:native` (the spawner suites).
 */
import { spawn } from "node:child_process";
import { expect, it } from "vitest";
import { cleanEnv, cnitool, repo, requireNonRoot, vitestBin } from "./helpers.js";

it("the namespace, testing-kit and checker suites pass in a rootless sandbox", async () => {
  requireNonRoot();
  const child = spawn(
    process.execPath,
    [
      cnitool,
      "rootless",
      "--",
      process.execPath,
      vitestBin,
      "run",
      "--configLoader",
      "native",
      "--config",
      "vitest.rootless.config.mjs",
      "--project",
      "in-sandbox*",
    ],
    { cwd: repo, env: cleanEnv(), stdio: ["ignore", "inherit", "inherit"] },
  );
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  expect(code).toBe(0);
}, 600_000);
