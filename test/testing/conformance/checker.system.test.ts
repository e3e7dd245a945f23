// The conformance checker held to what issues #26 and #34 ask of it (root: it makes network
// namespaces): the reference plugin (plugins/reference, POSIX sh) passes every rule for every
// version it claims, plain and chained, and only the rules and versions asked for run; a plugin
// that hangs is reported as hanging, with the verb and the limit. Each broken plugin is caught
// by exactly its rule in broken-plugins.system.test.ts; the skel examples are checked in
// examples.system.test.ts (the three files run side by side).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatReport, rules } from "../../../src/testing/conformance/index.js";
import { allVersions, check, failing, plugins, statusOf, useCheckSandbox } from "./check-run.js";

useCheckSandbox();

// A whole check runs for minutes on a loaded machine.
describe("the reference plugin", { timeout: 600_000 }, () => {
  it("passes every rule for every version it claims; n/a only where a rule's version or chaining does not apply", async () => {
    const report = await check(join(plugins, "reference"));
    expect(failing(report), formatReport(report)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.supportedVersions).toEqual(allVersions);
    expect(report.versions).toEqual(allVersions);
    // Every rule ran: the two VERSION rules and error-format once, the others once a version.
    for (const rule of rules) {
      const results = report.results.filter((r) => r.rule === rule.id);
      expect(results.length, rule.id).toBe(rule.scope === "plugin" ? 1 : allVersions.length);
    }
    for (const r of report.results.filter((r) => r.status === "n/a")) {
      const rule = rules.find((x) => x.id === r.rule);
      const tooOld = rule?.since !== undefined && r.version < rule.since;
      expect(tooOld || r.rule === "add-prevresult", `${r.rule} [${r.version}]`).toBe(true);
    }
    // 1.1.0: everything but the chained rule passes (error-format: the refusals were proper).
    for (const rule of rules.filter((r) => r.scope === "version" && r.id !== "add-prevresult"))
      expect(statusOf(report, rule.id, "1.1.0"), rule.id).toBe("pass");
    for (const id of ["version-honest", "no-leftover-processes", "error-format"])
      expect(statusOf(report, id, ""), id).toBe("pass");
    // The counts per version add up to the results, the plugin-wide ones first.
    expect(report.counts.map((c) => c.version)).toEqual(["", ...allVersions]);
    for (const c of report.counts) {
      const mine = report.results.filter((r) => r.version === c.version);
      expect(c.pass + c.fail + c.warn + c["n/a"], c.version).toBe(mine.length);
      expect(c.fail + c.warn, c.version).toBe(0);
    }
  });

  it("passes every rule chained (a prevResult in the config), add-prevresult included", async () => {
    const report = await check(join(plugins, "reference"), { chained: true });
    expect(failing(report), formatReport(report)).toEqual([]);
    expect(report.versions).toEqual(allVersions);
    for (const v of allVersions) expect(statusOf(report, "add-prevresult", v), v).toBe("pass");
    expect(statusOf(report, "check-wrong-prevresult", "1.1.0")).toBe("pass");
  });

  it("runs only the rules and versions asked for", async () => {
    const report = await check(join(plugins, "reference"), {
      rules: ["status", "del-without-add"],
      versions: ["1.0.0", "1.1.0"],
    });
    expect(report.versions).toEqual(["1.0.0", "1.1.0"]);
    expect(report.results.map((r) => `${r.rule} ${r.version} ${r.status}`)).toEqual([
      "del-without-add 1.0.0 pass",
      "status 1.0.0 n/a",
      "del-without-add 1.1.0 pass",
      "status 1.1.0 pass",
    ]);
  });
});

describe("a plugin that hangs, or leaves no version to check with", { timeout: 600_000 }, () => {
  it("on VERSION: reported as a hang of VERSION with the limit, in a report (not a refusal of the request)", async () => {
    const started = Date.now();
    const report = await check(join(plugins, "hangs-on-version"), { callTimeoutMs: 1000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.supportedVersions).toEqual([]);
    expect(report.versions).toEqual([]);
    expect(report.passed).toBe(false);
    const versionOutput = report.results.find((r) => r.rule === "version-output");
    expect(versionOutput?.status).toBe("fail");
    expect(versionOutput?.evidence).toBe("VERSION: hung (no answer within 1 s; stopped)");
    // Nothing else could be asked; what was asked is still judged (no leftover, no error object
    // to judge in a hang).
    expect(report.results.map((r) => `${r.rule} ${r.status}`)).toEqual([
      "version-output fail",
      "version-honest n/a",
      "no-leftover-processes pass",
      "error-format n/a",
    ]);
  });

  it("claiming only versions that do not exist: version-honest says so, in a report", async () => {
    const report = await check(join(plugins, "claims-only-future"), {
      rules: ["add-result", "status"],
    });
    expect(report.supportedVersions).toEqual(["1.3.0"]);
    expect(report.versions).toEqual([]);
    expect(report.passed).toBe(false);
    expect(report.results.map((r) => `${r.rule} ${r.status}`)).toEqual([
      "version-output pass",
      "version-honest fail",
    ]);
    expect(report.results[1].evidence).toMatch(/^claims 1\.3\.0, which is no spec version/);
  });

  it("on ADD: each rule whose ADD hung says so, with the verb and the limit", async () => {
    const report = await check(join(plugins, "hangs-on-add"), {
      callTimeoutMs: 1500,
      rules: ["add-result", "del-without-add"],
      versions: ["1.1.0"],
    });
    expect(report.results.map((r) => `${r.rule} ${r.version} ${r.status}`)).toEqual([
      "add-result 1.1.0 fail",
      "del-without-add 1.1.0 pass",
    ]);
    expect(report.results[0].evidence).toBe(
      "ADD failed, so the rule could not run: ADD: hung (no answer within 1.5 s; stopped)",
    );
  });
});
