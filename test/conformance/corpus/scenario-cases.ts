/**
 * Hand-written scenarios: the result cache (section E: legacy, corrupt, wrong kind,
 * unconvertible, unwritable), DEL (F), CHECK (G), validation (A), plugin lookup and plugin
 * errors (K), VERSION and validation (J), CNI_ARGS, capability args and the single-network
 * verbs.
 */
import type { CaseOp, CaseRuntimeConf, ConformanceCase, ScriptedReply } from "../harness/case.js";
import { defaultRuntimeConf, result, versionReply } from "./data.js";

type Plugins = Record<string, Record<string, ScriptedReply>>;

const list = (
  version: string,
  types = ["rec-a", "rec-b"],
  extra: Record<string, unknown> = {},
): string =>
  JSON.stringify({
    cniVersion: version,
    name: "net",
    ...extra,
    plugins: types.map((type) => ({ type })),
  });

const okPlugins = (version = "1.0.0"): Plugins => ({
  "rec-a": { ADD: { out: result(`${version}-full`) } },
  "rec-b": { ADD: { out: result(`${version}-v4`) } },
});

const cacheFile = "results/net-ctr-1-eth0";

function make(
  id: string,
  description: string,
  confList: string,
  plugins: Plugins,
  ops: CaseOp[],
  more: Partial<ConformanceCase> = {},
): ConformanceCase {
  return {
    id: `scenario/${id}`,
    description,
    confList,
    plugins,
    runtimeConf: defaultRuntimeConf(),
    ops,
    ...more,
  };
}

function record(fields: Record<string, unknown>): string {
  return JSON.stringify({
    kind: "cniCacheV1",
    containerId: "ctr-1",
    config: Buffer.from(list("1.0.0")).toString("base64"),
    ifName: "eth0",
    networkName: "net",
    ...fields,
  });
}

function cacheCases(): ConformanceCase[] {
  const ops: CaseOp[] = [
    "getCachedAttachments",
    "getCachedResult",
    "getCachedConfig",
    "check",
    "del",
    "getCachedResult",
    "getCachedAttachments:all",
  ];
  const seeds: [string, string, string][] = [
    ["legacy-1.0.0", "1.0.0", result("1.0.0-full")],
    ["legacy-0.4.0-under-1.0.0", "1.0.0", result("0.4.0-full")],
    ["legacy-0.2.0-under-0.4.0", "0.4.0", result("0.2.0-full")],
    ["legacy-noips-under-0.2.0", "0.4.0", result("1.0.0-noips")],
    ["legacy-1.1.0", "1.1.0", result("1.1.0-full")],
    ["corrupt-json", "1.0.0", "{"],
    ["zero-bytes", "1.0.0", ""],
    ["json-array", "0.4.0", "[1,2]"],
    ["wrong-kind", "1.0.0", record({ kind: "cniCacheV2", result: JSON.parse(result("1.0.0-v4")) })],
    ["no-result", "1.0.0", record({})],
    ["result-null", "1.0.0", record({ result: null })],
    ["unconvertible-to-0.2.0", "0.4.0", record({ result: JSON.parse(result("1.0.0-noips")) })],
    ["result-0.2.0-to-1.0.0", "1.0.0", record({ result: JSON.parse(result("0.2.0-full")) })],
    ["result-unknown-version", "1.0.0", record({ result: { cniVersion: "7.0.0" } })],
    ["result-1.1.0", "1.1.0", record({ result: JSON.parse(result("1.1.0-full")) })],
    [
      "config-bad-base64",
      "1.0.0",
      record({ config: "!!!", result: JSON.parse(result("1.0.0-v4")) }),
    ],
    ["config-not-string", "1.0.0", record({ config: 5 })],
    ["cniArgs-null", "1.0.0", record({ cniArgs: null, capabilityArgs: { x: 1 } })],
    ["cniArgs-empty", "1.0.0", record({ cniArgs: [], capabilityArgs: {} })],
    [
      "cniArgs-set",
      "1.0.0",
      record({
        cniArgs: [
          ["A", "1"],
          ["B", "=;"],
        ],
        capabilityArgs: { z: [1, { "<": ">" }], a: null },
      }),
    ],
    ["cniArgs-wrong-type", "1.0.0", record({ cniArgs: "A=1" })],
    [
      "extra-fields",
      "1.0.0",
      record({ netns: "/x", future: { a: 1 }, result: JSON.parse(result("1.0.0-v6")) }),
    ],
    [
      "case-insensitive-fields",
      "1.0.0",
      '{"KIND":"cniCacheV1","ContainerID":"ctr-1","IFNAME":"eth0","Result":{"cniVersion":"1.0.0","ips":[{"address":"10.1.0.5/16"}]}}',
    ],
  ];
  return seeds.map(([id, version, text]) =>
    make(
      `cache/${id}`,
      `cache seeded with ${id}`,
      list(version),
      okPlugins(version === "1.1.0" ? "1.1.0" : "1.0.0"),
      ops,
      {
        cacheSeed: { [cacheFile]: text },
      },
    ),
  );
}

/** GetCachedAttachments over a directory of records it must list, filter or skip. */
function attachmentCases(): ConformanceCase[] {
  const seed: Record<string, string> = {
    "results/net-ctr-1-eth0": record({ result: JSON.parse(result("1.0.0-v4")) }),
    "results/other-ctr-1-net1": record({
      networkName: "other",
      ifName: "net1",
      netns: "/ns/2",
      cniArgs: [["A", "b"]],
    }),
    "results/net-ctr-10-eth0": record({ containerId: "ctr-10" }),
    "results/net-ctr-1-": record({ ifName: "" }),
    "results/ctr-1-eth0": record({}),
    "results/x-ctr-1-eth1": record({ containerId: "ctr-2" }),
    "results/y-ctr-1-eth2": record({ kind: "cniCacheV0" }),
    "results/z-ctr-1-eth3": "{bad",
    "results/w-ctr-1-eth4": record({ networkName: "" }),
    "results/v-ctr-1-eth5": record({ config: null, capabilityArgs: { b: 1, a: [true] } }),
    "results/sub-ctr-1-dir/ignored": record({}),
  };
  return [
    make(
      "attachments/mixed",
      "records to list, filter and skip",
      list("1.0.0"),
      okPlugins(),
      [
        "getCachedAttachments",
        "getCachedAttachments:all",
        "add",
        "getCachedAttachments",
        "del",
        "getCachedAttachments:all",
      ],
      { cacheSeed: seed },
    ),
    make("attachments/none", "no results directory", list("1.0.0"), okPlugins(), [
      "getCachedAttachments",
      "getCachedAttachments:all",
    ]),
    make(
      "attachments/two-interfaces",
      "same container, second ifName via seed",
      list("0.4.0"),
      okPlugins("0.4.0"),
      ["add", "getCachedAttachments"],
      {
        cacheSeed: { "results/net-ctr-1-eth1": record({ ifName: "eth1" }) },
      },
    ),
  ];
}

function lifeCycleCases(): ConformanceCase[] {
  const v1 = okPlugins();
  return [
    make(
      "del/without-add",
      "DEL with no cache runs every plugin, reverse order",
      list("1.0.0", ["rec-a", "rec-b", "rec-c"]),
      { ...v1, "rec-c": {} },
      ["del", "del"],
    ),
    make("del/twice-after-add", "ADD then DEL twice", list("0.4.0"), okPlugins("0.4.0"), [
      "add",
      "del",
      "del",
      "getCachedResult",
    ]),
    make(
      "del/0.3.1-no-prevResult",
      "DEL below 0.4.0 sends no prevResult",
      list("0.3.1"),
      okPlugins("0.3.1"),
      ["add", "del"],
    ),
    make("del/0.2.0", "legacy DEL", list("0.2.0"), okPlugins("0.2.0"), [
      "add",
      "getCachedResult",
      "del",
    ]),
    make(
      "del/mid-chain-failure-keeps-cache",
      "DEL fails in rec-a (called last): cache kept, retry",
      list("1.0.0"),
      {
        "rec-a": {
          ADD: { out: result("1.0.0-full") },
          DEL: { out: '{"code":11,"msg":"try again","details":"busy"}', code: 1 },
        },
        "rec-b": { ADD: { out: result("1.0.0-v4") } },
      },
      ["add", "del", "getCachedResult", "getCachedConfig"],
    ),
    make("del/bad-version", "DEL with an unparsable version", list("x.y"), v1, [
      "del",
      "check",
      "add",
    ]),
    make(
      "cache-dir/via-runtime-conf",
      "deprecated RuntimeConf.cacheDir",
      list("1.0.0"),
      v1,
      ["add", "getCachedResult", "getCachedConfig", "check", "del", "getCachedResult"],
      {
        cacheViaRuntimeConf: true,
      },
    ),
    make(
      "cache-dir/via-runtime-conf-0.4.0",
      "deprecated RuntimeConf.cacheDir, seeded legacy record",
      list("0.4.0"),
      okPlugins("0.4.0"),
      ["getCachedResult", "check", "add", "del"],
      {
        cacheViaRuntimeConf: true,
        cacheSeed: { [cacheFile]: result("0.4.0-v6") },
      },
    ),
    make("add/twice", "ADD twice overwrites the cache", list("1.0.0"), v1, [
      "add",
      "add",
      "getCachedResult",
    ]),
    make(
      "add/mid-chain-failure",
      "ADD fails in rec-b: no cache",
      list("1.0.0", ["rec-a", "rec-b", "rec-c"]),
      {
        ...v1,
        "rec-b": { ADD: { out: '{"code":7,"msg":"bad config","details":"field x"}', code: 1 } },
        "rec-c": {},
      },
      ["add", "getCachedResult", "getCachedConfig", "del"],
    ),
    make(
      "add/unwritable-cache",
      "cache results path is a file",
      list("1.0.0"),
      v1,
      ["add", "getCachedResult"],
      {
        cacheSeed: { results: "not a directory" },
      },
    ),
    make(
      "add/empty-result",
      "plugin prints nothing on ADD",
      list("1.0.0"),
      { "rec-a": { ADD: {} } },
      ["add"],
    ),
    make(
      "add/result-without-version",
      "result without cniVersion gets the config's",
      list("0.4.0"),
      {
        "rec-a": { ADD: { out: result("no-version") } },
        "rec-b": { ADD: { out: result("no-version") } },
      },
      ["add", "getCachedResult", "del"],
    ),
    make("check/0.3.1", "CHECK below 0.4.0", list("0.3.1"), okPlugins("0.3.1"), ["add", "check"]),
    make(
      "check/disableCheck-0.3.1",
      "disableCheck still errors below 0.4.0",
      list("0.3.1", ["rec-a"], { disableCheck: true }),
      okPlugins("0.3.1"),
      ["add", "check"],
    ),
    make(
      "check/disableCheck",
      "disableCheck: no plugin called",
      list("1.0.0", ["rec-a"], { disableCheck: true }),
      v1,
      ["add", "check"],
    ),
    make("check/no-cache", "CHECK without ADD: no prevResult", list("1.0.0"), v1, ["check"]),
    make(
      "check/failure-stops",
      "CHECK error in rec-a stops the chain",
      list("1.0.0"),
      {
        "rec-a": {
          ADD: { out: result("1.0.0-full") },
          CHECK: { out: '{"code":5,"msg":"io"}', code: 1 },
        },
        "rec-b": { ADD: { out: result("1.0.0-v4") } },
      },
      ["add", "check"],
    ),
    make("check/bad-version", "CHECK with an unparsable version", list("1.a.0"), v1, ["check"]),
  ];
}

function errorCases(): ConformanceCase[] {
  const errs: [string, ScriptedReply][] = [
    ["typed-50", { out: '{"code":50,"msg":"plugin not available","details":"waiting"}', code: 1 }],
    ["typed-51", { out: '{"code":51,"msg":"limited"}', code: 1 }],
    [
      "typed-999-pretty",
      { out: '{\n    "code": 999,\n    "msg": "internal",\n    "details": "x\\ny"\n}\n', code: 1 },
    ],
    ["typed-0", { out: '{"code":0,"msg":"zero"}', code: 1 }],
    ["typed-code-string", { out: '{"code":"7","msg":"str"}', code: 1 }],
    ["no-output", { code: 1 }],
    ["no-output-exit-3", { code: 3 }],
    ["stderr-only", { err: "something broke\n\tat line 2 \u00e9", code: 1 }],
    ["stderr-and-stdout", { out: '{"code":4,"msg":"env"}', err: "noise", code: 1 }],
    ["non-json-stdout", { out: "panic: oh no", code: 2 }],
    ["json-not-error", { out: '{"foo":1}', code: 1 }],
    ["json-array", { out: "[1]", code: 1 }],
    ["exit0-not-json", { out: "hello" }],
    ["exit0-error-json", { out: '{"code":7,"msg":"not really an error"}' }],
    ["exit0-null", { out: "null" }],
    ["exit0-bad-address", { out: result("bad-address") }],
    ["exit0-unknown-version", { out: result("unknown-version") }],
    ["exit0-version-number", { out: result("version-number") }],
  ];
  const cases: ConformanceCase[] = [];
  for (const [id, reply] of errs) {
    for (const verb of ["ADD", "DEL", "CHECK"] as const) {
      if (verb !== "ADD" && id.startsWith("exit0-")) continue;
      const plugins: Plugins = {
        "rec-a": { ADD: { out: result("1.0.0-full") } },
        "rec-b": { ADD: { out: result("1.0.0-v4") }, [verb]: reply },
      };
      const ops: CaseOp[] =
        verb === "ADD"
          ? ["add", "getCachedResult"]
          : ["add", verb === "DEL" ? "del" : "check", "getCachedResult"];
      cases.push(
        make(
          `plugin-error/${verb}/${id}`,
          `rec-b ${verb} replies ${id}`,
          list("1.0.0"),
          plugins,
          ops,
        ),
      );
    }
  }
  return cases;
}

function validationCases(): ConformanceCase[] {
  const rt = (over: Partial<CaseRuntimeConf>): CaseRuntimeConf => ({
    ...defaultRuntimeConf(),
    ...over,
  });
  const bad: [string, Partial<CaseRuntimeConf>][] = [
    ["containerID-empty", { containerID: "" }],
    ["containerID-invalid", { containerID: "ctr 1" }],
    ["containerID-dash-first", { containerID: "-ctr" }],
    ["ifName-empty", { ifName: "" }],
    ["ifName-too-long", { ifName: "eth0123456789012" }],
    ["ifName-15-bytes", { ifName: "eth012345678901" }],
    ["ifName-multibyte-long", { ifName: "ééééééééé" }],
    ["ifName-dot", { ifName: "." }],
    ["ifName-dotdot", { ifName: ".." }],
    ["ifName-slash", { ifName: "a/b" }],
    ["ifName-colon", { ifName: "a:b" }],
    ["ifName-space", { ifName: "a b" }],
    ["ifName-nbsp", { ifName: "a\u00a0b" }],
    ["ifName-escape-cache", { ifName: "../../x" }],
  ];
  const cases = bad.map(([id, over]) =>
    make(
      `validate/${id}`,
      `ADD then DEL with ${id}`,
      list("1.0.0"),
      okPlugins(),
      ["add", "check", "del", "getCachedResult"],
      {
        runtimeConf: rt(over),
      },
    ),
  );
  cases.push(
    make(
      "validate/name-invalid",
      "network name with a space",
      JSON.stringify({ cniVersion: "1.0.0", name: "my net", plugins: [{ type: "rec-a" }] }),
      okPlugins(),
      ["add", "del"],
    ),
    make(
      "validate/name-empty",
      "empty network name",
      JSON.stringify({ cniVersion: "1.0.0", name: "", plugins: [{ type: "rec-a" }] }),
      okPlugins(),
      ["add", "getCachedResult", "del"],
    ),
  );
  return cases;
}

function lookupCases(): ConformanceCase[] {
  return [
    make(
      "find/missing-plugin",
      "type not installed",
      list("1.0.0", ["rec-a", "rec-x"]),
      okPlugins(),
      ["add", "check", "del", "validate", "versionInfo:rec-x"],
    ),
    make(
      "find/second-dir",
      "first path missing, plugin in the second",
      list("1.0.0"),
      okPlugins(),
      ["add", "del"],
      {
        pluginPaths: ["nowhere", "bin"],
      },
    ),
    make(
      "find/no-paths",
      "no plugin paths",
      list("1.0.0"),
      okPlugins(),
      ["add", "validate", "versionInfo:rec-a"],
      {
        pluginPaths: [],
      },
    ),
    make(
      "find/type-with-slash",
      "type containing a slash",
      JSON.stringify({ cniVersion: "1.0.0", name: "net", plugins: [{ type: "bin/rec-a" }] }),
      okPlugins(),
      ["add", "validate"],
    ),
    make(
      "find/type-empty",
      "empty type",
      JSON.stringify({ cniVersion: "1.0.0", name: "net", plugins: [{ type: "" }] }),
      okPlugins(),
      ["add"],
    ),
    make(
      "find/type-is-dir",
      "type names a directory",
      JSON.stringify({ cniVersion: "1.0.0", name: "net", plugins: [{ type: "bin" }] }),
      okPlugins(),
      ["add"],
      {
        pluginPaths: ["."],
      },
    ),
  ];
}

function versionCases(): ConformanceCase[] {
  const replies: [string, ScriptedReply][] = [
    ["all", versionReply(["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"])],
    ["with-1.1.0", versionReply(["1.0.0", "1.1.0"], "1.1.0")],
    ["unknown-command", { out: '{"code":4,"msg":"unknown CNI_COMMAND: VERSION"}', code: 1 }],
    ["other-error", { out: '{"code":4,"msg":"unknown CNI_COMMAND: VERSIONS"}', code: 1 }],
    ["no-cniVersion", { out: '{"supportedVersions":["1.0.0"]}' }],
    ["0.2.0-empty-list", { out: '{"cniVersion":"0.2.0"}' }],
    ["0.3.0-empty-list", { out: '{"cniVersion":"0.3.0","supportedVersions":[]}' }],
    ["not-json", { out: "1.0.0" }],
    ["empty", {}],
    ["crash", { err: "segfault", code: 139 }],
  ];
  const cases: ConformanceCase[] = [];
  for (const [id, reply] of replies) {
    for (const v of ["1.0.0", "0.1.0", ""]) {
      const l =
        v === ""
          ? JSON.stringify({ name: "net", plugins: [{ type: "rec-a" }, { type: "rec-b" }] })
          : list(v);
      cases.push(
        make(
          `version/${id}@${v || "none"}`,
          `VERSION replies ${id}; validate config ${v || "(none)"}`,
          l,
          {
            "rec-a": { VERSION: reply },
            "rec-b": { VERSION: versionReply(["0.1.0", "1.0.0"]) },
          },
          ["versionInfo:rec-a", "validate"],
        ),
      );
    }
  }
  return cases;
}

function argsCases(): ConformanceCase[] {
  const argSets: [string, [string, string][] | null][] = [
    ["null", null],
    ["empty", []],
    [
      "special-chars",
      [
        ["A", "x=y"],
        ["B", "a;b"],
        ["C", ""],
        ["", "v"],
        ["IgnoreUnknown", "1"],
      ],
    ],
    [
      "unicode",
      [
        ["K", "日本"],
        ["E", "é\u2028<>&"],
      ],
    ],
    ["many", Array.from({ length: 20 }, (_, i): [string, string] => [`K${i}`, `v${i}`])],
  ];
  const capSets: [string, Record<string, unknown> | null][] = [
    ["null", null],
    ["empty", {}],
    [
      "html-unicode-numbers",
      {
        portMappings: [{ hostPort: 1e21, host: "<&>", n: 0.1, big: 12345678901234567000 }],
        bandwidth: { "10": 1, "9": 2, b: "\u2028" },
      },
    ],
    ["non-capability-only", { other: 1 }],
    ["nested-null", { portMappings: null, bandwidth: [null, { a: null }] }],
  ];
  const l = JSON.stringify({
    cniVersion: "1.0.0",
    name: "net",
    plugins: [
      { type: "rec-a", capabilities: { portMappings: true, bandwidth: true } },
      { type: "rec-b", capabilities: { portMappings: true }, runtimeConfig: { keep: 1 } },
    ],
  });
  const cases: ConformanceCase[] = [];
  for (const [aid, args] of argSets) {
    cases.push(
      make(
        `args/${aid}`,
        `CNI_ARGS ${aid}`,
        l,
        okPlugins(),
        ["add", "getCachedConfig", "check", "del"],
        {
          runtimeConf: { ...defaultRuntimeConf(), args },
        },
      ),
    );
  }
  for (const [cid, capabilityArgs] of capSets) {
    cases.push(
      make(
        `capabilityArgs/${cid}`,
        `capability args ${cid}`,
        l,
        okPlugins(),
        ["add", "getCachedConfig", "check", "del"],
        {
          runtimeConf: { ...defaultRuntimeConf(), capabilityArgs },
        },
      ),
    );
  }
  for (const [nid, netNS] of [
    ["empty", ""],
    ["quoting", '/run/netns/ä <x>&\u2028"q"'],
  ] as const) {
    cases.push(
      make(`netns/${nid}`, `netNS ${nid}`, l, okPlugins(), ["add", "getCachedConfig", "del"], {
        runtimeConf: { ...defaultRuntimeConf(), netNS },
      }),
    );
  }
  return cases;
}

function singleNetworkCases(): ConformanceCase[] {
  const ops: CaseOp[] = [
    "addNet",
    "getNetCachedResult",
    "getNetCachedConfig",
    "checkNet",
    "validateNet",
    "delNet",
    "getNetCachedResult",
    "confListFromConf",
  ];
  const confs: [string, string][] = [
    [
      "1.0.0",
      JSON.stringify({
        cniVersion: "1.0.0",
        name: "single",
        type: "rec-a",
        capabilities: { portMappings: true, mac: false },
      }),
    ],
    [
      "0.4.0",
      JSON.stringify({
        cniVersion: "0.4.0",
        name: "single",
        type: "rec-a",
        disableCheck: true,
        extra: { "<": 1 },
      }),
    ],
    ["0.3.1", JSON.stringify({ cniVersion: "0.3.1", name: "single", type: "rec-a" })],
    ["0.2.0", JSON.stringify({ cniVersion: "0.2.0", name: "single", type: "rec-a" })],
    ["none", JSON.stringify({ name: "single", type: "rec-a" })],
    ["1.1.0", JSON.stringify({ cniVersion: "1.1.0", name: "single", type: "rec-a" })],
    ["no-type", JSON.stringify({ cniVersion: "1.0.0", name: "single" })],
    ["bad-json", '{"cniVersion":"1.0.0",'],
    ["no-name", JSON.stringify({ cniVersion: "1.0.0", type: "rec-a" })],
    [
      "pretty",
      '{\n  "cniVersion": "1.0.0",\n  "name": "single",\n  "type": "rec-a",\n  "b": "\\u0008"\n}\n',
    ],
  ];
  return confs.map(([id, conf]) => {
    const v = /"cniVersion":"([^"]+)"/.exec(conf.replace(/\s/g, ""))?.[1] ?? "0.2.0";
    return {
      id: `single/${id}`,
      description: `single-network verbs, config ${id}`,
      conf,
      plugins: {
        "rec-a": {
          ADD: {
            out: result(
              `${v === "1.1.0" ? "1.1.0" : v === "0.3.1" || v === "0.4.0" ? v : v === "0.2.0" ? "0.2.0" : "1.0.0"}-full`,
            ),
          },
          VERSION: versionReply([
            "0.2.0",
            "0.3.1",
            "0.4.0",
            "1.0.0",
            ...(v === "1.1.0" ? ["1.1.0"] : []),
          ]),
        },
      },
      runtimeConf: defaultRuntimeConf(),
      ops,
    };
  });
}

/** Every hand-written scenario. */
export function scenarioCases(): ConformanceCase[] {
  return [
    ...cacheCases(),
    ...attachmentCases(),
    ...lifeCycleCases(),
    ...errorCases(),
    ...validationCases(),
    ...lookupCases(),
    ...versionCases(),
    ...argsCases(),
    ...singleNetworkCases(),
  ];
}

/**
 * The runtime's own environment reaches the plugins: CNI_* variables already set in it are
 * overridden by the call's values (last wins) and the others pass through. These cases change
 * process.env while they run, so the suite runs them one at a time.
 */
export function parentEnvCases(): ConformanceCase[] {
  const envs: [string, Record<string, string>][] = [
    [
      "cni-vars-overridden",
      {
        CNI_PATH: "/parent/bin",
        CNI_ARGS: "PARENT=1",
        CNI_IFNAME: "parent0",
        CNI_COMMAND: "PARENT",
      },
    ],
    ["extra-cni-vars-pass", { CNI_EXTRA: "x=y;z", CNI_NETNS_OVERRIDE: "1" }],
  ];
  return envs.map(([id, parentEnv]) =>
    make(
      `parent-env/${id}`,
      `parent environment ${id}`,
      list("1.0.0"),
      { ...okPlugins(), "rec-a": { ...okPlugins()["rec-a"], VERSION: versionReply(["1.0.0"]) } },
      ["add", "check", "versionInfo:rec-a", "del"],
      { parentEnv },
    ),
  );
}
