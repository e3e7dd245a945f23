/**
 * `cnitool conformance` on a real plugin: Debian's loopback, through the built binary, with
 * --json and --format markdown (its golden: testdata/conformance/markdown/loopback.md). Its
 * known failures (docs/conformance.md) make the exit status 1. A plugin that hangs (the
 * checker's test plugin) is a report, not a usage error. Needs root, Debian's
 * containernetworking-plugins and `npm run build`.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ConformanceReport } from "../../src/testing/conformance/index.js";
import { runBinary } from "./helpers.js";

const golden = fileURLToPath(
  new URL("../../testdata/conformance/markdown/loopback.md", import.meta.url),
);
const hangsOnVersion = fileURLToPath(
  new URL("../testing/conformance/plugins/hangs-on-version", import.meta.url),
);

describe("cnitool conformance on Debian's loopback", () => {
  it("--json prints the report; a failed rule exits 1", async () => {
    const out = await runBinary(["conformance", "loopback", "--json"], {
      CNI_PATH: "/usr/lib/cni",
    });
    expect(out.stderr).toBe("");
    const report = JSON.parse(out.stdout) as ConformanceReport;
    expect(report.plugin).toBe("/usr/lib/cni/loopback");
    expect(report.versions).toEqual(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"]);
    const found = report.results.filter((r) => r.status === "fail" || r.status === "warn");
    expect(found.map((r) => `${r.status} ${r.rule} ${r.version}`)).toEqual([
      "fail add-result 0.3.0",
      "fail add-ifname 0.3.0",
      "fail add-result 0.3.1",
      "fail add-ifname 0.3.1",
      "fail add-result 0.4.0",
      "fail add-ifname 0.4.0",
      "warn check-wrong-prevresult 0.4.0",
      "fail add-ifname 1.0.0",
      "warn check-wrong-prevresult 1.0.0",
    ]);
    expect(report.counts.find((c) => c.version === "1.0.0")).toMatchObject({ fail: 1, warn: 1 });
    expect(report.passed).toBe(false);
    expect(out.code).toBe(1);
  });

  it("--format markdown prints the README table, the same from run to run (its golden)", async () => {
    const out = await runBinary(["conformance", "loopback", "--format", "markdown"], {
      CNI_PATH: "/usr/lib/cni",
    });
    expect(out.stderr).toBe("");
    expect(out.code).toBe(1);
    // Regenerate: CNI_PATH=/usr/lib/cni node dist/cli/main.js conformance loopback --format markdown > testdata/conformance/markdown/loopback.md
    expect(out.stdout).toBe(await readFile(golden, "utf8"));
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
    expect(out.stdout).toContain("2 passed, 0 failed, 0 warnings, 0 not applicable");
    expect(out.code).toBe(0);
  });
});

describe("cnitool conformance on a plugin that hangs", () => {
  it("on VERSION: a report saying so (the verb, the limit), exit 1, no usage text, within --timeout", async () => {
    const started = Date.now();
    const out = await runBinary(["conformance", hangsOnVersion, "--timeout", "1s"], {});
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(out.stderr).toBe("");
    expect(out.stdout).toContain(
      "FAIL version-output (must: Section 2, VERSION; Section 5, Version)\n       VERSION: hung (no answer within 1 s; stopped)\n",
    );
    expect(out.code).toBe(1);
  });
});
