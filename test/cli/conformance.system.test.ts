/**
 * `cnitool conformance` on a real plugin: Debian's loopback, through the built binary, with
 * --json. Its known failures (docs/conformance.md) make the exit status 1. Needs root, Debian's
 * containernetworking-plugins and `npm run build`.
 */
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../src/testing/conformance/index.js";
import { runBinary } from "./helpers.js";

describe("cnitool conformance on Debian's loopback", () => {
  it("--json prints the report; a failed rule exits 1", async () => {
    const out = await runBinary(["conformance", "loopback", "--json"], {
      CNI_PATH: "/usr/lib/cni",
    });
    expect(out.stderr).toBe("");
    const report = JSON.parse(out.stdout) as ConformanceReport;
    expect(report.plugin).toBe("/usr/lib/cni/loopback");
    expect(report.versions).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"]);
    const failed = report.results.filter((r) => r.status === "fail");
    expect(failed.map((r) => `${r.rule} ${r.version}`)).toEqual([
      "add-result 0.3.0",
      "add-result 0.3.1",
      "add-result 0.4.0",
      "check-wrong-prevresult 0.4.0",
      "check-wrong-prevresult 1.0.0",
    ]);
    expect(report.passed).toBe(false);
    expect(out.code).toBe(1);
  });

  it("only the rules and versions asked for; all pass: exit 0", async () => {
    const out = await runBinary(
      [
        "conformance",
        "/usr/lib/cni/loopback",
        "--rules",
        "add-result,del-idempotent",
        "--versions",
        "1.0.0",
      ],
      { CNI_PATH: "" },
    );
    expect(out.stdout).toContain("checked with 1.0.0");
    expect(out.stdout).toContain("PASS add-result [1.0.0]");
    expect(out.stdout).toContain("PASS del-idempotent [1.0.0]");
    expect(out.stdout).toContain("2 passed, 0 failed, 0 not applicable");
    expect(out.code).toBe(0);
  });
});
