// The conformance checker's parts that need no root: the list of rules (each named, with the
// SPEC section it enforces) and the human report (formatReport). The checker itself, against
// real plugins in namespaces, is checker.system.test.ts.
import { access, constants } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../src/errors.js";
import {
  type ConformanceReport,
  checkPlugin,
  formatReport,
  rules,
} from "../../../src/testing/conformance/index.js";
import { all } from "../../../src/version/index.js";

const plugins = join(dirname(fileURLToPath(import.meta.url)), "plugins");

describe("rules", () => {
  it("are the 16 of issue #26, in their running order, error-format last", () => {
    expect(rules.map((r) => r.id)).toEqual([
      "version-output",
      "version-unsupported",
      "env-missing",
      "command-unknown",
      "input-malformed",
      "add-result",
      "add-prevresult",
      "check-after-add",
      "check-wrong-prevresult",
      "del-idempotent",
      "del-without-add",
      "del-netns-gone",
      "del-cleans-up",
      "gc-valid-attachments",
      "status",
      "error-format",
    ]);
  });

  it("have unique kebab-case ids, a SPEC section, a title, a scope and a known first version", () => {
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(rule.section, rule.id).toMatch(/^Section \d/);
      expect(rule.title.trim(), rule.id).not.toBe("");
      expect(["plugin", "version"], rule.id).toContain(rule.scope);
      if (rule.since !== undefined) expect(all.supportedVersions(), rule.id).toContain(rule.since);
      expect(typeof rule.run, rule.id).toBe("function");
    }
  });

  it("each has a broken test plugin breaking just it, and there is a reference plugin", async () => {
    for (const name of ["reference", ...rules.map((r) => `broken-${r.id}`)])
      await expect(access(join(plugins, name), constants.X_OK), name).resolves.toBeUndefined();
  });
});

describe("checkPlugin's arguments", () => {
  // Refused before any namespace is made: no root needed.
  it("refuses a plugin that is not an executable file, and unknown rules", async () => {
    await expect(checkPlugin(join(plugins, "no-such-plugin"))).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(checkPlugin(join(plugins, "lib", "plugin.sh"))).rejects.toThrow(
      /is not an executable file/,
    );
    await expect(
      checkPlugin(join(plugins, "reference"), { rules: ["status", "no-such-rule"] }),
    ).rejects.toThrow(/unknown rules: no-such-rule; the rules are version-output, /);
  });
});

const report: ConformanceReport = {
  plugin: "/opt/cni/bin/example",
  supportedVersions: ["0.4.0", "1.1.0"],
  versions: ["1.1.0"],
  results: [
    {
      rule: "version-output",
      version: "",
      section: "Section 2, VERSION; Section 5, Version",
      status: "pass",
      evidence: "supports 0.4.0, 1.1.0",
    },
    {
      rule: "del-idempotent",
      version: "1.1.0",
      section: "Section 2, DEL",
      status: "fail",
      evidence: "DEL: exit 1, stdout {...}",
    },
    {
      rule: "add-prevresult",
      version: "1.1.0",
      section: "Section 3",
      status: "n/a",
      evidence: "the config has no prevResult",
    },
    {
      rule: "status",
      version: "1.1.0",
      section: "Section 2, STATUS",
      status: "pass",
      evidence: "",
    },
  ],
  passed: false,
};

describe("formatReport", () => {
  it("prints the plugin, its versions, one line per rule and version with the evidence under it, and the counts", () => {
    expect(formatReport(report)).toBe(
      [
        "plugin /opt/cni/bin/example",
        "claims 0.4.0, 1.1.0; checked with 1.1.0",
        "",
        "PASS version-output (Section 2, VERSION; Section 5, Version)",
        "       supports 0.4.0, 1.1.0",
        "FAIL del-idempotent [1.1.0] (Section 2, DEL)",
        "       DEL: exit 1, stdout {...}",
        "n/a  add-prevresult [1.1.0] (Section 3)",
        "       the config has no prevResult",
        "PASS status [1.1.0] (Section 2, STATUS)",
        "",
        "2 passed, 1 failed, 1 not applicable",
      ].join("\n"),
    );
  });

  it("says so when the plugin gave no usable VERSION answer and nothing was checked", () => {
    const text = formatReport({
      plugin: "/x",
      supportedVersions: [],
      versions: [],
      results: [],
      passed: true,
    });
    expect(text.split("\n").slice(0, 2)).toEqual([
      "plugin /x",
      "claims (no usable VERSION answer); checked with (none)",
    ]);
    expect(text.endsWith("0 passed, 0 failed, 0 not applicable")).toBe(true);
  });

  it("works from the report's JSON (the machine-readable form)", () => {
    const copy = JSON.parse(JSON.stringify(report)) as ConformanceReport;
    expect(copy).toEqual(report);
    expect(formatReport(copy)).toBe(formatReport(report));
  });
});
