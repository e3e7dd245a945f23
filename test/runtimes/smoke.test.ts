/**
 * The built library under Deno and Bun (their npm packages, installed in .runtimes/ by
 * `node scripts/runtimes.mjs install`) and this Node: CNIConfig's ADD/CHECK/DEL and a pod's
 * setup/CHECK/teardown with a fake plugin (test/runtimes/smoke.mjs), through the spawner
 * helper where the runtime allows it, reads through the helper's file channel where the runtime gives it one, and the
 * NODE_DEBUG=libcni lines there. A runtime missing fails, never skips.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain script of the repository, not a typed module
import { runtimePath } from "../../scripts/runtimes.mjs";

const execFileP = promisify(execFile);
const smoke = fileURLToPath(new URL("./smoke.mjs", import.meta.url));

const commands: Record<string, () => [string, string[]]> = {
  node: () => [process.execPath, [smoke]],
  deno: () => [runtimePath("deno") as string, ["run", "-A", smoke]],
  bun: () => [runtimePath("bun") as string, [smoke]],
};

describe.each(Object.keys(commands))("under %s", (name) => {
  it("ADD/CHECK/DEL and a pod's setup/CHECK/teardown, through the helper, with debug lines", async () => {
    const [file, args] = commands[name]();
    if (!existsSync(file)) {
      throw new Error(`${name} not installed at ${file}: run node scripts/runtimes.mjs install`);
    }
    const dir = await mkdtemp(join(tmpdir(), `libcni-smoke-${name}-`));
    try {
      const { stdout, stderr } = await execFileP(file, [...args, dir], {
        env: { ...process.env, NODE_DEBUG: "libcni", NO_COLOR: "1" },
        timeout: 60_000,
      });
      expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({
        add: true,
        recordAfterAdd: ["smoke-c1-eth0"],
        recordsAfterDel: [],
        pod: ["eth0 10.0.0.2/24"],
        checked: ["smoke"],
        removed: ["smoke"],
        status: true,
      });
      expect(stderr).toMatch(/launcher: spawner /);
      expect(stderr).toMatch(/verb ADD network="smoke" container=c1 ifname=eth0/);
      expect(stderr).toMatch(/exec ADD plugin=.*fake/);
      // Reads: the helper's file channel where the runtime gives it an fd 3 (Node), else fs
      // calls; either way said once, and the run above succeeded.
      if (name === "node") expect(stderr).toMatch(/file reads: spawner /);
      expect(stderr.match(/file reads: /g) ?? []).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
