/**
 * The exec suites of test/invoke, run again with every RawExec starting its plugins through
 * the spawner helper (`npm test` runs them with the direct spawn). Forced, not "auto": with no
 * built binary (`npm run build:native`) every run here fails, loudly, rather than quietly
 * testing the direct spawn a second time.
 */
import { access, constants } from "node:fs/promises";
import { expect, it } from "vitest";
import { sharedSpawner, spawnerBinaryPath } from "../../../src/engines/start/select.js";
import { RawExec } from "../../../src/invoke/raw-exec.js";

process.env.LIBCNI_LAUNCHER = "spawner";

it("has the spawner binary for this platform, and runs plugins through it", async () => {
  await expect(access(spawnerBinaryPath(), constants.X_OK)).resolves.toBeUndefined();
  const exec = new RawExec({ stderr: null });
  expect(exec.launcher.name).toBe("spawner");
  const out = await exec.execPlugin("/bin/cat", new TextEncoder().encode("through"), []);
  expect(new TextDecoder().decode(out)).toBe("through");
  expect(sharedSpawner().helpers.length).toBeGreaterThan(0);
});

// spawn-burst.test.ts wraps child_process.spawn itself; spawner.system.test.ts has the burst.
await import("../../invoke/raw-exec.test.js");
await import("../../invoke/abort.test.js");
await import("../../invoke/output-limit.test.js");
await import("../../invoke/text-busy.test.js");
await import("../../invoke/misbehaving.test.js");
await import("../../invoke/exec-integration.test.js");
