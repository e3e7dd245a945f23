// Each broken plugin (plugins/broken-<rule>, the reference with one bug) is caught by exactly its
// rule: a failure for a "must" rule, a warning for a "should" one; what a plugin leaves running
// is ended (root: the checker makes network namespaces).
import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatReport, rules } from "../../../src/testing/conformance/index.js";
import { check, failing, plugins, processes, useCheckSandbox } from "./check-run.js";

useCheckSandbox();

/**
 * One broken plugin per rule (the bug: the plugin's first comment line), with what its rule
 * must say. Every rule runs, with 0.4.0 (the last version of the 0.x result shape, the first
 * with CHECK) and 1.1.0 (GC, STATUS); the reference's runs (checker.system.test.ts) show every
 * rule passing without the bug. check-after-add's bug spares 1.1.0: a CHECK that fails at 1.1.0
 * fails the GC rules too (they read the kept attachments' health from CHECK).
 */
const broken: { rule: string; evidence: RegExp; chained?: boolean; status?: "warn" }[] = [
  { rule: "version-output", evidence: /^no cniVersion: VERSION: exit 0/ },
  {
    rule: "version-honest",
    evidence:
      /^claims 1\.3\.0, which is no spec version \(the spec's are 0\.1\.0, .*, 1\.1\.0\); claims 0\.3\.0 but refuses it: ADD: exit 1, stdout .*"code":1,"msg":"incompatible CNI version \\"0\.3\.0\\""/,
  },
  { rule: "version-unsupported", evidence: /^ADD of cniVersion 99\.0\.0: accepted/ },
  { rule: "env-missing", evidence: /^ADD without CNI_NETNS: code 999 .*, the spec's is 4$/ },
  { rule: "command-unknown", evidence: /^CNI_COMMAND=BOGUS: accepted \(BOGUS: exit 0\)$/ },
  {
    rule: "input-malformed",
    evidence: /: code 1 \(incompatible CNI version ""\), the spec's is 6$/,
  },
  { rule: "add-result", evidence: /routes\[0\]\.dst "default" is not an address with a prefix/ },
  { rule: "add-ifname", evidence: /^ADD made neth0 in the pod, and no eth0 \(CNI_IFNAME\)$/ },
  {
    rule: "result-sane",
    evidence:
      /^\/ips\/1: a null entry in ips; \/dns\/nameservers: "192\.0\.2\.53" is not a list of strings$/,
  },
  // Only a chained ADD has a prevResult to keep.
  {
    rule: "add-prevresult",
    evidence: /^the result lost the prevResult's address 10\.99\.0\.5\/24$/,
    chained: true,
  },
  {
    rule: "check-after-add",
    evidence: /"code":1,"msg":"cannot read a prevResult of version 0\.4\.0"/,
  },
  {
    rule: "check-wrong-prevresult",
    evidence: /^CHECK succeeded with a wrong prevResult \(address /,
  },
  { rule: "del-idempotent", evidence: /^DEL: exit 1, stdout .*"code":3,"msg":"eth0 is not in / },
  { rule: "del-without-add", evidence: /^DEL: exit 1, stdout .*"code":3,"msg":"no attachment / },
  { rule: "del-netns-gone", evidence: /^DEL: exit 1, .*"code":999,"msg":"cannot enter / },
  {
    rule: "del-cleans-up",
    evidence: /^eth0 left in the pod; veth vr[0-9a-f]{8} left on the host side$/,
  },
  {
    rule: "gc-valid-attachments",
    // The "should" of the rule: GC completes without error.
    status: "warn",
    evidence:
      /^GC failed: GC: exit 1, stdout .*"code":999,"msg":"cannot collect: the store is busy"/,
  },
  {
    rule: "gc-partial-list",
    evidence: /^the second listed attachment's CHECK failed after GC: CHECK: exit 1, .*"code":3,/,
  },
  {
    rule: "gc-concurrent",
    evidence:
      /^the listed attachment's CHECK failed after a GC run alongside \d+ ADD and DEL of other attachments: CHECK: exit 1, .*"code":3,/,
  },
  { rule: "status", evidence: /^STATUS: exit 1, stdout .*"code":7,/ },
  {
    rule: "no-leftover-processes",
    // Both kinds, in either order: a look may meet the daemon before setsid made it one.
    evidence:
      /^\d+ processes outlived their calls \(ended by the checker\): (?=.*\d+ after ADD \(first in version-honest\): `sleep 7201` \(a daemon: a session of its own, in the plugin's network namespace\))(?=.*\d+ after ADD \(first in version-honest\): `sleep 7202` \(in the plugin's process group, in the plugin's network namespace\))/,
  },
  {
    rule: "error-format",
    evidence:
      /^\d+ of \d+ failures without a proper error object: CHECK: exit 1, stdout .*"code":0,/,
  },
];
const versions = ["0.4.0", "1.1.0"];

describe("a broken plugin is caught by exactly its rule", { timeout: 600_000 }, () => {
  it("covers every rule of the checker, one broken plugin each", async () => {
    expect(broken.map((b) => b.rule).sort()).toEqual(rules.map((r) => r.id).sort());
    for (const { rule } of broken) await access(join(plugins, `broken-${rule}`));
  });

  // Side by side (vitest's maxConcurrency, 5): each check has its own namespaces, state dir and
  // process groups, and most of its time is spent waiting on plugins, not on this process.
  it.concurrent.each(broken.map((b) => [b.rule, b] as const))("broken-%s", async (_, b) => {
    const report = await check(join(plugins, `broken-${b.rule}`), { chained: b.chained, versions });
    expect(failing(report), formatReport(report)).toEqual([b.rule]);
    // A "must" broken fails the check; a "should" broken warns, and the check passes.
    const level = rules.find((r) => r.id === b.rule)?.level;
    const status = b.status ?? (level === "must" ? "fail" : "warn");
    const found = report.results.filter((r) => r.status === "fail" || r.status === "warn");
    for (const r of found) expect(r.status, `${r.rule} [${r.version}]`).toBe(status);
    expect(report.passed).toBe(status === "warn");
    // The bug did not keep the other rules from running: both versions were checked.
    expect(report.versions).toEqual(versions);
    for (const r of found) expect(r.evidence, `${r.rule} [${r.version}]`).toMatch(b.evidence);
  });

  it("what broken-no-leftover-processes left running was ended by the checker", async () => {
    const left = (await processes()).filter((l) => /^sleep 720[12]$/.test(l));
    expect(left).toEqual([]);
  });
});
