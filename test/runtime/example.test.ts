/**
 * examples/runtime/runtime.mjs, run as a user would (`node examples/runtime/runtime.mjs` after
 * `npm run build`): every step prints what the runtime did, and the script removes its temporary directory.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");

describe("examples/runtime", () => {
  it("runs a pod through setup, check, status, gc and teardown after a conf-dir edit", async () => {
    if (!existsSync(join(root, "dist/runtime/index.js"))) {
      throw new Error("dist/ is missing: run `npm run build` first");
    }
    const r = await execa("node", ["examples/runtime/runtime.mjs"], { cwd: root, reject: false });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      "networks: pods, storage (default pods)",
      "skipped net.d/30-broken.conflist: invalid",
      "web-1 pods eth0 10.30.0.2/24",
      "web-1 storage net1 10.31.0.2/24",
      "dns: []",
      "check: ok",
      "status: ready=true (pods:true storage:true)",
      "gc removed: leaked-1/storage/eth0",
      "conf dir changed: added [] removed [] changed [pods]",
      "teardown: storage/net1 pods/eth0",
      "teardown again: 0 left",
      "done; temporary files removed",
    ]);
  }, 60_000);
});
