// The skel examples of examples/plugins pass every rule of the checker (root: it makes network
// namespaces). The checker found one bug there: hello-net labelled a 1.x result with a 0.x
// version; fixed, and exampleBugs below lists any a later change brings.
import { access } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type ConformanceReport, formatReport } from "../../../src/testing/conformance/index.js";
import { allVersions, builtSkel, check, examples, useCheckSandbox } from "./check-run.js";

useCheckSandbox();

/**
 * What the checker finds wrong with the skel examples, each the example's bug (not skel's nor
 * the checker's): when an example is fixed, its entry goes and the test says so.
 * - hello-net builds its Result100 with `cniVersion: conf.cniVersion`: a 1.x result labelled
 *   0.4.0 is printed as is by printResult (as Go's types.PrintResult: same version, no
 *   conversion), so a 0.3.x/0.4.0 ADD prints ips without their "version". Go plugins label the
 *   result with the version they implement (current.ImplementedSpecVersion): "1.1.0" here.
 */
const exampleBugs: Record<string, { rule: string; versions: string[]; evidence: RegExp }> = {};

/** Every rule passes, but for the example's known bug (exactly that failure, nothing else). */
function expectOnlyKnownBug(name: string, report: ConformanceReport) {
  const bug = exampleBugs[name];
  const failures = report.results.filter((r) => r.status === "fail" || r.status === "warn");
  expect(
    failures.map((r) => `${r.rule} [${r.version}]`),
    `${formatReport(report)}\n(exampleBugs in this file lists what is known)`,
  ).toEqual(bug === undefined ? [] : bug.versions.map((v) => `${bug.rule} [${v}]`));
  for (const r of failures) expect(r.evidence).toMatch(bug?.evidence ?? /^$/);
  expect(report.versions).toEqual(allVersions);
}

describe(
  "the skel examples (examples/plugins, run from the built package)",
  { timeout: 600_000 },
  () => {
    beforeAll(async () => {
      await access(builtSkel).catch(() => {
        throw new Error("the examples import libcni/skel from dist/: run `npm run build` first");
      });
    });

    it.concurrent("hello-net passes every rule for every version it claims", async () => {
      const report = await check(join(examples, "hello-net.mjs"), {
        config: { type: "hello-net", subnet: "10.22.0.0/24" },
      });
      expectOnlyKnownBug("hello-net", report);
    });

    it.concurrent("hello-portmap, chained, passes every rule for every version it claims", async () => {
      const report = await check(join(examples, "hello-portmap.mjs"), {
        chained: true,
        config: {
          type: "hello-portmap",
          capabilities: { portMappings: true },
          runtimeConfig: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] },
        },
      });
      expectOnlyKnownBug("hello-portmap", report);
    });
  },
);
