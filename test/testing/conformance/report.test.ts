// The conformance checker's parts that need no root: the list of rules (each named, with the
// SPEC section it enforces and the level the spec words it with), the reports (formatReport:
// text and Markdown) and result-sane's findings on hand-made results. The checker itself,
// against real plugins in namespaces, is checker.system.test.ts.
import { access, constants } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../../src/errors/index.js";
import {
  type ConformanceReport,
  checkPlugin,
  conformanceRules,
  formatReport,
  rules,
} from "../../../src/testing/conformance/index.js";
import { countsOf, stableText } from "../../../src/testing/conformance/report.js";
import { resultProblems, sanityFindings } from "../../../src/testing/conformance/result-shape.js";
import { all } from "../../../src/version/index.js";

const plugins = join(dirname(fileURLToPath(import.meta.url)), "plugins");

describe("rules", () => {
  it("are the 16 of issue #26 and the 6 of issue #34, in their running order, the call readers last", () => {
    expect(rules.map((r) => r.id)).toEqual([
      "version-output",
      "version-honest",
      "version-unsupported",
      "env-missing",
      "command-unknown",
      "input-malformed",
      "add-result",
      "add-ifname",
      "result-sane",
      "add-prevresult",
      "check-after-add",
      "check-wrong-prevresult",
      "del-idempotent",
      "del-without-add",
      "del-netns-gone",
      "del-cleans-up",
      "gc-valid-attachments",
      "gc-partial-list",
      "gc-concurrent",
      "status",
      "no-leftover-processes",
      "error-format",
    ]);
    expect(rules.filter((r) => r.last).map((r) => r.id)).toEqual([
      "no-leftover-processes",
      "error-format",
    ]);
  });

  it("are a failure when the spec says must, a warning when it says should", () => {
    const should = conformanceRules.filter((r) => r.level === "should").map((r) => r.id);
    expect(should).toEqual([
      "check-wrong-prevresult",
      "del-cleans-up",
      "gc-concurrent",
      "no-leftover-processes",
      "error-format",
    ]);
    for (const rule of conformanceRules) expect(["must", "should"], rule.id).toContain(rule.level);
  });

  it("have unique kebab-case ids, a SPEC section, a title, a scope and a known first version", () => {
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
    for (const rule of rules) {
      expect(rule.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(rule.section, rule.id).toMatch(/^Section \d/);
      expect(rule.title.trim(), rule.id).not.toBe("");
      expect(["plugin", "version"], rule.id).toContain(rule.scope);
      expect(["must", "should"], rule.id).toContain(rule.level);
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
  it("refuses a plugin that is not an executable file (a directory too), and unknown rules", async () => {
    await expect(checkPlugin(join(plugins, "no-such-plugin"))).rejects.toThrow(
      InvalidArgumentError,
    );
    await expect(checkPlugin(join(plugins, "lib", "plugin.sh"))).rejects.toThrow(
      /is not an executable file/,
    );
    // A directory passes an X_OK test (its search bit); every call of it would fail with EACCES.
    await expect(checkPlugin(plugins)).rejects.toThrow(`${plugins} is not an executable file`);
    await expect(
      checkPlugin(join(plugins, "reference"), { rules: ["status", "no-such-rule"] }),
    ).rejects.toThrow(/unknown rules: no-such-rule; the rules are version-output, /);
  });
});

const results: ConformanceReport["results"] = [
  {
    rule: "version-output",
    version: "",
    section: "Section 2, VERSION; Section 5, Version",
    level: "must",
    status: "pass",
    evidence: "supports 0.4.0, 1.1.0",
  },
  {
    rule: "del-idempotent",
    version: "1.1.0",
    section: "Section 2, DEL",
    level: "must",
    status: "fail",
    evidence: "DEL: exit 1, stdout {...}",
  },
  {
    rule: "add-prevresult",
    version: "1.1.0",
    section: "Section 3",
    level: "must",
    status: "n/a",
    evidence: "the config has no prevResult",
  },
  {
    rule: "del-cleans-up",
    version: "1.1.0",
    section: "Section 2, DEL (should)",
    level: "should",
    status: "warn",
    evidence: "eth0 left in lcnicheck-4242-2ab9.0a1b2c3d-7-pod",
  },
  {
    rule: "status",
    version: "1.1.0",
    section: "Section 2, STATUS",
    level: "must",
    status: "pass",
    evidence: "",
  },
];
const report: ConformanceReport = {
  plugin: "/opt/cni/bin/example",
  supportedVersions: ["0.4.0", "1.1.0"],
  versions: ["1.1.0"],
  results,
  counts: countsOf(results, ["1.1.0"]),
  passed: false,
};

describe("formatReport", () => {
  it("prints the plugin, its versions, one line per rule and version with its level and the evidence under it, and the counts per version", () => {
    expect(formatReport(report)).toBe(
      [
        "plugin /opt/cni/bin/example",
        "claims 0.4.0, 1.1.0; checked with 1.1.0",
        "",
        "PASS version-output (must: Section 2, VERSION; Section 5, Version)",
        "       supports 0.4.0, 1.1.0",
        "FAIL del-idempotent [1.1.0] (must: Section 2, DEL)",
        "       DEL: exit 1, stdout {...}",
        "n/a  add-prevresult [1.1.0] (must: Section 3)",
        "       the config has no prevResult",
        "WARN del-cleans-up [1.1.0] (should: Section 2, DEL (should))",
        "       eth0 left in lcnicheck-4242-2ab9.0a1b2c3d-7-pod",
        "PASS status [1.1.0] (must: Section 2, STATUS)",
        "",
        "version   passed  failed  warnings  n/a",
        "(plugin)       1       0         0    0",
        "1.1.0          1       1         1    1",
        "total          2       1         1    1",
        "",
        '2 passed, 1 failed, 1 warning, 1 not applicable (FAIL: a "must" of the spec is broken; WARN: a "should" is, which fails no check)',
      ].join("\n"),
    );
  });

  it("says so when the plugin gave no usable VERSION answer and nothing was checked", () => {
    const text = formatReport({
      plugin: "/x",
      supportedVersions: [],
      versions: [],
      results: [],
      counts: [{ version: "", pass: 0, fail: 0, warn: 0, "n/a": 0 }],
      passed: true,
    });
    expect(text.split("\n").slice(0, 2)).toEqual([
      "plugin /x",
      "claims (no usable VERSION answer: see version-output); checked with (none)",
    ]);
    expect(text.endsWith("0 passed, 0 failed, 0 warnings, 0 not applicable")).toBe(true);
  });

  it("counts a report written before it had counts", () => {
    const { counts: _, ...old } = report;
    expect(formatReport(old as ConformanceReport)).toBe(formatReport(report));
  });

  it("works from the report's JSON (the machine-readable form)", () => {
    const copy = JSON.parse(JSON.stringify(report)) as ConformanceReport;
    expect(copy).toEqual(report);
    expect(formatReport(copy)).toBe(formatReport(report));
    expect(formatReport(copy, { format: "markdown" })).toBe(
      formatReport(report, { format: "markdown" }),
    );
  });
});

describe("formatReport, markdown", () => {
  it("a table of rules by version with their level, the counts, and the findings; no path, pid or checker name", () => {
    expect(formatReport(report, { format: "markdown" })).toBe(
      [
        "### CNI conformance of `example`",
        "",
        'Checked with libcni\'s conformance checker (`cnitool conformance`) against the rules of [SPEC.md 1.1.0](https://github.com/containernetworking/cni/blob/main/SPEC.md). The plugin claims 0.4.0, 1.1.0; checked with 1.1.0. FAIL: a "must" of the spec is broken; WARN: a "should" is; n/a: the rule does not apply.',
        "",
        "| rule | level | plugin | 1.1.0 |",
        "| --- | --- | --- | --- |",
        "| `version-output` | must | PASS |  |",
        "| `del-idempotent` | must |  | FAIL |",
        "| `add-prevresult` | must |  | n/a |",
        "| `del-cleans-up` | should |  | WARN |",
        "| `status` | must |  | PASS |",
        "| **passed** | | 1 | 1 |",
        "| **failed** | | 0 | 1 |",
        "| **warnings** | | 0 | 1 |",
        "| **n/a** | | 0 | 1 |",
        "",
        "2 passed, 1 failed, 1 warning, 1 not applicable.",
        "",
        "#### Findings",
        "",
        "- **FAIL** `del-idempotent` (1.1.0): DEL: exit 1, stdout {...}",
        "- **WARN** `del-cleans-up` (1.1.0): eth0 left in lcnicheck-…-pod",
      ].join("\n"),
    );
  });

  it("is the same for two runs that differ only in the checker's names and pids", () => {
    const other = JSON.parse(
      JSON.stringify(report)
        .replaceAll("4242-2ab9.0a1b2c3d-7", "977-3kq.zz9y8x7w-31")
        .replace("/opt/cni/bin/", "/home/ci/build/"),
    ) as ConformanceReport;
    expect(formatReport(other, { format: "markdown" })).toBe(
      formatReport(report, { format: "markdown" }),
    );
  });

  it("stableText strips what changes from run to run, and nothing else", () => {
    expect(
      stableText(
        "lcnicheck-12-1ab.0a1b2c3d-3-pod, lcnicheck-9-0.0-4, pid 31337, pc=0x7f3a9c0b12, 2024/05/06 07:08:09, goroutine 17 [running]",
      ),
    ).toBe("lcnicheck-…-pod, lcnicheck-…, pid …, pc=0x…, …, goroutine … [running]");
    expect(stableText("address 10.1.0.2/24, 2 processes")).toBe("address 10.1.0.2/24, 2 processes");
    // sbr's refusal of a stray file names its filesystem's magic: ext4 under root on a VM
    // whose /run is its root disk, tmpfs in a rootless sandbox.
    for (const magic of ["ef53", "1021994"]) {
      expect(stableText(`unknown FS magic on \\"/run/netns/x\\": ${magic}; exit 1`)).toBe(
        'unknown FS magic on \\"/run/netns/x\\": …; exit 1',
      );
    }
  });
});

describe("result-sane's findings (each with its JSON pointer) and add-result's share", () => {
  const netns = "/run/netns/p";
  const sane = (result: object, version = "1.0.0") =>
    sanityFindings(JSON.parse(JSON.stringify({ cniVersion: version, ...result })), version);

  it("a well-formed result has none", () => {
    expect(
      sane({
        interfaces: [{ name: "br0" }, { name: "eth0", sandbox: netns }, { name: "eth0" }],
        ips: [{ address: "10.0.0.2/24", gateway: "10.0.0.1", interface: 1 }],
        routes: [{ dst: "0.0.0.0/0", gw: "10.0.0.1" }],
        dns: { nameservers: ["10.0.0.1", "2001:db8::1"], domain: "x", search: ["a"], options: [] },
      }),
    ).toEqual([]);
    expect(sane({ ips: [{ address: "10.0.0.2/24" }], dns: null })).toEqual([]);
  });

  it.each([
    [
      "null entries (cni#1191, cni#1192)",
      { interfaces: [null], ips: [null] },
      ["/interfaces/0: a null entry in interfaces", "/ips/0: a null entry in ips"],
    ],
    ["a null route", { routes: [null] }, ["/routes/0: a null entry in routes"]],
    [
      "an entry that is no object",
      { ips: ["10.0.0.2/24"] },
      ['/ips/0: "10.0.0.2/24" is not an object'],
    ],
    [
      "a list that is no list",
      { interfaces: { name: "eth0" } },
      ['/interfaces: {"name":"eth0"} is not a list'],
    ],
    [
      "ips[].interface out of range, negative, not an integer",
      {
        interfaces: [{ name: "eth0" }],
        ips: [
          { address: "10.0.0.2/24", interface: 1 },
          { address: "10.0.0.3/24", interface: -1 },
          { address: "10.0.0.4/24", interface: "0" },
        ],
      },
      [
        "/ips/0/interface: 1 is not an index of interfaces (1 entry)",
        "/ips/1/interface: -1 is not an index of interfaces (1 entry)",
        '/ips/2/interface: "0" is not an index of interfaces (1 entry)',
      ],
    ],
    [
      "ips[].interface naming a null entry",
      { interfaces: [{ name: "eth0" }, null], ips: [{ address: "10.0.0.2/24", interface: 1 }] },
      [
        "/interfaces/1: a null entry in interfaces",
        "/ips/0/interface: 1 is the index of /interfaces/1, which is no interface",
      ],
    ],
    [
      "two interfaces of one name in one sandbox",
      {
        interfaces: [
          { name: "eth0", sandbox: netns },
          { name: "veth1" },
          { name: "eth0", sandbox: netns },
        ],
      },
      ['/interfaces/2/name: a second interface "eth0" in the same sandbox (as /interfaces/0)'],
    ],
    [
      "gateways that are no IP",
      {
        ips: [{ address: "10.0.0.2/24", gateway: "router" }],
        routes: [{ dst: "0.0.0.0/0", gw: 5 }],
      },
      [
        '/ips/0/gateway: the gateway "router" is not an IP address',
        "/routes/0/gw: the gateway 5 is not an IP address",
      ],
    ],
    [
      "DNS fields of the wrong type",
      { dns: { nameservers: "10.0.0.1", domain: 7, search: [null], options: {} } },
      [
        "/dns/domain: 7 is not a string",
        '/dns/nameservers: "10.0.0.1" is not a list of strings',
        "/dns/search/0: null is not a string",
        "/dns/options: {} is not a list of strings",
      ],
    ],
    [
      "a nameserver that is no IP",
      { dns: { nameservers: ["dns.example"] } },
      ['/dns/nameservers/0: nameserver "dns.example" is not an IP address'],
    ],
    ["dns that is no object", { dns: ["10.0.0.1"] }, ['/dns: ["10.0.0.1"] is not an object']],
  ])("%s", (_, result, findings) => {
    expect(sane(result)).toEqual(findings);
  });

  it("the 0.1.0 and 0.2.0 shape: gateways and DNS", () => {
    expect(
      sane(
        {
          ip4: { ip: "10.0.0.2/24", gateway: "x", routes: [{ dst: "0.0.0.0/0", gw: "y" }, null] },
          ip6: "::1",
          dns: { nameservers: [1] },
        },
        "0.2.0",
      ),
    ).toEqual([
      '/ip4/gateway: the gateway "x" is not an IP address',
      "/ip4/routes/1: a null entry in routes",
      '/ip4/routes/0/gw: the gateway "y" is not an IP address',
      '/ip6: "::1" is not an object',
      "/dns/nameservers/0: 1 is not a string",
    ]);
  });

  it("add-result leaves to result-sane what it names (the decoder refuses a null entry too), and keeps the rest", () => {
    const stdout = JSON.stringify({
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0", sandbox: netns }],
      ips: [{ address: "10.0.0.2/24", interface: 0 }, null],
    });
    expect(resultProblems(stdout, JSON.parse(stdout), "1.0.0", netns)).toEqual([]);
    const bad = JSON.stringify({
      cniVersion: "1.0.0",
      interfaces: [{ name: "eth0", sandbox: "/elsewhere" }],
      ips: [{ address: "10.0.0.2", interface: 7 }],
      routes: [{ dst: "default" }],
    });
    expect(resultProblems(bad, JSON.parse(bad), "1.0.0", netns)).toEqual([
      'interfaces[0] (eth0) has sandbox "/elsewhere", not the attachment\'s CNI_NETNS /run/netns/p',
      'ips[0].address "10.0.0.2" is not an address with a prefix length',
      'routes[0].dst "default" is not an address with a prefix length',
    ]);
    expect(sanityFindings(JSON.parse(bad), "1.0.0")).toEqual([
      "/ips/0/interface: 7 is not an index of interfaces (1 entry)",
    ]);
  });
});
