/**
 * `cnitool conformance`'s command line, without root: usage errors (exit 2, cobra's layout),
 * the plugin's lookup in CNI_PATH, and what reaches the checker, whose `checkPlugin` is
 * replaced by a stub here (the real run is conformance.system.test.ts).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { CheckPluginOptions, ConformanceReport } from "../../src/testing/conformance/index.js";
import { pluginDir } from "../fixtures/plugins/noop-debug.js";
import { runInProcess } from "./helpers.js";

const calls: { plugin: string; options: CheckPluginOptions }[] = [];
let nextReport: ConformanceReport;

vi.mock("../../src/testing/conformance/index.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/testing/conformance/index.js")>();
  return {
    ...real,
    checkPlugin: async (plugin: string, options: CheckPluginOptions) => {
      calls.push({ plugin, options });
      return nextReport;
    },
  };
});

const report = (status: "pass" | "fail" | "warn"): ConformanceReport => ({
  plugin: "/x/noop.mjs",
  supportedVersions: ["1.0.0"],
  versions: ["1.0.0"],
  results: [
    {
      rule: status === "warn" ? "del-cleans-up" : "add-result",
      version: "1.0.0",
      section: status === "warn" ? "Section 2, DEL" : "Section 5, ADD Success",
      level: status === "warn" ? "should" : "must",
      status,
      evidence: status === "pass" ? "" : "cniVersion missing",
    },
  ],
  counts: [
    { version: "", pass: 0, fail: 0, warn: 0, "n/a": 0 },
    {
      version: "1.0.0",
      pass: status === "pass" ? 1 : 0,
      fail: status === "fail" ? 1 : 0,
      warn: status === "warn" ? 1 : 0,
      "n/a": 0,
    },
  ],
  passed: status !== "fail",
});

let dir: string;
const env = () => ({ CNI_PATH: pluginDir.replace(/\/$/, ""), NETCONFPATH: "/nonexistent" });
const run = (argv: string[]) => runInProcess(["conformance", ...argv], env(), dir);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "libcni-cli-conformance-"));
  await writeFile(join(dir, "conf.json"), '{"type":"noop.mjs","ipam":{"type":"host-local"}}');
  await writeFile(join(dir, "array.json"), "[]");
  await writeFile(join(dir, "broken.json"), "{");
});
afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(() => {
  calls.length = 0;
  nextReport = report("pass");
});

describe("cnitool conformance: usage errors exit 2 with cobra's layout", () => {
  it.each([
    [[], "accepts 1 arg(s), received 0"],
    [["a", "b"], "accepts 1 arg(s), received 2"],
    [["noop.mjs", "--bogus"], "unknown flag: --bogus"],
    [["noop.mjs", "--config"], "flag needs an argument: --config"],
    [["noop.mjs", "--json=maybe"], 'invalid argument "maybe" for "--json" flag'],
    [
      ["noop.mjs", "--format", "html"],
      'invalid argument "html" for "--format" flag: the formats are text, json, markdown',
    ],
    [
      ["noop.mjs", "--json", "--format", "markdown"],
      "--json and --format markdown: give one format",
    ],
    [["noop.mjs", "--format"], "flag needs an argument: --format"],
    [
      ["noop.mjs", "--timeout", "5"],
      'invalid argument "5" for "--timeout" flag: time: missing unit in duration "5"',
    ],
    [
      ["noop.mjs", "--timeout", "soon"],
      'invalid argument "soon" for "--timeout" flag: time: invalid duration "soon"',
    ],
    [
      ["noop.mjs", "--timeout", "5d"],
      'invalid argument "5d" for "--timeout" flag: time: unknown unit "d" in duration "5d"',
    ],
    [
      ["noop.mjs", "--timeout", "0s"],
      'invalid argument "0s" for "--timeout" flag: the per-call limit must be 1ms or more',
    ],
    [
      ["noop.mjs", "--rules", "add-result,bogus"],
      "unknown rules: bogus; the rules are version-output,",
    ],
    [["noop.mjs", "--rules", ","], "--rules names nothing"],
    [
      ["noop.mjs", "--versions", "1.0.0,9.9.9"],
      "unknown spec versions: 9.9.9; the versions are 0.1.0,",
    ],
    [["noop.mjs", "--versions", ""], "--versions names nothing"],
    [["noop.mjs", "--config", "missing.json"], "--config: ENOENT"],
    [["noop.mjs", "--config", "array.json"], "the plugin config must be a JSON object"],
    [["noop.mjs", "--config", "broken.json"], "not JSON"],
    [["no-such-plugin"], 'failed to find plugin "no-such-plugin" in path'],
  ])("%j", async (argv, message) => {
    const out = await run(argv);
    expect(out.code).toBe(2);
    expect(out.stdout).toBe("");
    expect(out.stderr.split("\n")[0]).toMatch(/^Error: /);
    expect(out.stderr.split("\n")[0]).toContain(message);
    expect(out.stderr).toContain("Usage:\n  cnitool conformance <plugin> [flags]");
    expect(calls).toEqual([]);
  });

  it("a name without CNI_PATH or --path: one line, once, with the fix, and no usage", async () => {
    for (const envCniPath of [{ CNI_PATH: "" }, {}]) {
      for (const argv of [["noop.mjs"], ["noop.mjs", "--path", ""]]) {
        const out = await runInProcess(["conformance", ...argv], envCniPath, dir);
        expect(out.code).toBe(2);
        expect(out.stdout).toBe("");
        expect(out.stderr).toBe(
          'Error: plugin "noop.mjs" is given by name, and there is no directory to look it up in: ' +
            "set CNI_PATH (CNI_PATH=/opt/cni/bin) or pass --path dir1:dir2, " +
            "or give the plugin's path (/opt/cni/bin/noop.mjs)\n",
        );
      }
    }
    expect(calls).toEqual([]);
  });
});

describe("cnitool conformance: what the checker is given", () => {
  it("a name is looked up in CNI_PATH, which is also the delegated plugins' path", async () => {
    const out = await run(["noop.mjs"]);
    expect(out.code).toBe(0);
    expect(calls).toEqual([
      {
        plugin: join(pluginDir, "noop.mjs"),
        options: {
          config: undefined,
          versions: undefined,
          rules: undefined,
          path: [pluginDir.replace(/\/$/, "")],
          signal: undefined,
        },
      },
    ]);
  });

  it("a name is looked up in --path when given, before CNI_PATH (no CNI_PATH needed)", async () => {
    const flagged = await runInProcess(
      ["conformance", "noop.mjs", "--path", `/nonexistent:${pluginDir}`],
      { CNI_PATH: "" },
      dir,
    );
    expect(flagged.code).toBe(0);
    expect(calls[0].plugin).toBe(join(pluginDir, "noop.mjs"));
    expect(calls[0].options.path).toEqual(["/nonexistent", pluginDir.replace(/\/$/, "")]);
    // --path is the whole search path: CNI_PATH is not looked in then.
    const elsewhere = await runInProcess(
      ["conformance", "noop.mjs", "--path", "/nonexistent"],
      env(),
      dir,
    );
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('failed to find plugin "noop.mjs" in path [/nonexistent]');
    expect(calls).toHaveLength(1);
  });

  it("a path is taken from the working directory; the flags are passed on", async () => {
    const out = await run([
      "./plugins/p",
      "--config=conf.json",
      "--versions",
      "0.4.0, 1.0.0",
      "--rules",
      "add-result,status",
      "--path",
      "ipam:/opt/cni/bin",
      "--timeout",
      "1m2.5s",
    ]);
    expect(out.code).toBe(0);
    expect(calls[0].plugin).toBe(join(dir, "plugins/p"));
    expect(calls[0].options).toMatchObject({
      config: '{"type":"noop.mjs","ipam":{"type":"host-local"}}',
      versions: ["0.4.0", "1.0.0"],
      rules: ["add-result", "status"],
      path: [join(dir, "ipam"), "/opt/cni/bin"],
      callTimeoutMs: 62_500,
    });
  });

  it.each([
    ["500ms", 500],
    ["2s", 2000],
    ["1.5m", 90_000],
    ["1h", 3_600_000],
  ])("--timeout %s is %d ms a call", async (flag, ms) => {
    expect((await run(["noop.mjs", `--timeout=${flag}`])).code).toBe(0);
    expect(calls[0].options.callTimeoutMs).toBe(ms);
  });

  it("the text report; exit 1 when a rule failed", async () => {
    nextReport = report("fail");
    const out = await run(["noop.mjs"]);
    expect(out.code).toBe(1);
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe(
      [
        "plugin /x/noop.mjs",
        "claims 1.0.0; checked with 1.0.0",
        "",
        "FAIL add-result [1.0.0] (must: Section 5, ADD Success)",
        "       cniVersion missing",
        "",
        "version   passed  failed  warnings  n/a",
        "(plugin)       0       0         0    0",
        "1.0.0          0       1         0    0",
        "total          0       1         0    0",
        "",
        '0 passed, 1 failed, 0 warnings, 0 not applicable (FAIL: a "must" of the spec is broken; WARN: a "should" is, which fails no check)',
        "",
      ].join("\n"),
    );
  });

  it("warnings alone exit 0", async () => {
    nextReport = report("warn");
    const out = await run(["noop.mjs"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain("WARN del-cleans-up [1.0.0] (should: Section 2, DEL)\n");
  });

  it("--format markdown prints the table for a README; a failed rule still exits 1", async () => {
    nextReport = report("fail");
    const out = await run(["noop.mjs", "--format", "markdown"]);
    expect(out.code).toBe(1);
    expect(out.stdout.startsWith("### CNI conformance of `noop.mjs`\n")).toBe(true);
    expect(out.stdout).toContain("| `add-result` | must |  | FAIL |\n");
    expect(out.stdout).toContain("- **FAIL** `add-result` (1.0.0): cniVersion missing\n");
    expect(out.stdout).not.toContain("/x/");
  });

  it("--json (or --format json) prints the report as JSON, counts per version included", async () => {
    nextReport = report("fail");
    const out = await run(["noop.mjs", "--json"]);
    expect(out.code).toBe(1);
    expect(JSON.parse(out.stdout)).toEqual(nextReport);
    expect(JSON.parse(out.stdout).counts[1]).toEqual({
      version: "1.0.0",
      pass: 0,
      fail: 1,
      warn: 0,
      "n/a": 0,
    });
    nextReport = report("pass");
    const passed = await run(["--json=true", "noop.mjs"]);
    expect(passed.code).toBe(0);
    expect(JSON.parse(passed.stdout).passed).toBe(true);
    const format = await run(["noop.mjs", "--format=json", "--json"]);
    expect(format.code).toBe(0);
    expect(JSON.parse(format.stdout)).toEqual(nextReport);
  });

  it("the root help lists it; its help names the flags", async () => {
    const root = await runInProcess(["--help"], env(), dir);
    expect(root.stdout).toContain(
      "  conformance Check a plugin binary against the CNI spec's rules\n",
    );
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const flag of [
      "--config string",
      "--format string     The report's format: text, json or markdown (a table for the plugin's README) (default \"text\")",
      "--json",
      "--path string",
      "--rules string",
      "--timeout string",
      "--versions string",
    ])
      expect(help.stdout).toContain(flag);
    expect(calls).toEqual([]);
  });
});
