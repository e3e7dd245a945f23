/**
 * `cnitool conformance` on Debian's bridge, run by a user who is not root through
 * `cnitool rootless`: every rule passes as under root (docs/conformance.md's bridge row), the
 * IPAM state in the sandbox's own /var/lib/cni (host-local's default dataDir, no dataDir
 * given). Needs `npm run build` and Debian's containernetworking-plugins.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { cnitool, requireNonRoot, rootless } from "./helpers.js";

let dir: string;

beforeAll(async () => {
  requireNonRoot();
  dir = await mkdtemp(join(tmpdir(), "lcni-rootless-conformance-"));
});
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

it("cnitool conformance /usr/lib/cni/bridge passes every rule, rootless", async () => {
  const config = join(dir, "bridge.json");
  const conf = JSON.stringify({
    type: "bridge",
    bridge: "lcni-cf0",
    isGateway: true,
    ipMasq: true,
    ipam: { type: "host-local", subnet: "10.99.45.0/24" },
  });
  await writeFile(config, conf);
  const { code, stdout, stderr } = await rootless([
    process.execPath,
    cnitool,
    "conformance",
    "/usr/lib/cni/bridge",
    "--config",
    config,
    "--path",
    "/usr/lib/cni",
    "--format",
    "json",
  ]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const report = JSON.parse(stdout) as {
    passed: boolean;
    versions: string[];
    results: { rule: string; version: string; status: string; evidence: string }[];
  };
  expect(report.passed).toBe(true);
  expect(report.versions).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"]);
  const notPassed = report.results.filter((r) => r.status !== "pass" && r.status !== "n/a");
  expect(notPassed).toEqual([]);
  // What needs the namespaces (an interface made and removed on both sides) passed in each.
  for (const rule of ["add-result", "add-ifname", "check-after-add", "del-cleans-up"]) {
    const passed = report.results.filter((r) => r.rule === rule && r.status === "pass");
    expect(
      passed.map((r) => r.version),
      rule,
    ).toEqual(report.versions.filter((v) => v >= "0.4.0" || rule !== "check-after-add"));
  }
}, 180_000);
