/**
 * Generated conflists (fast-check, fixed seed: the same cases on every run): random plugin
 * chains with random extra fields (any JSON: unicode and lone surrogates, HTML characters,
 * integer-like keys, extreme numbers, deep nesting), random capabilities and capability
 * args, random CNI_ARGS and random results of every version.
 */
import fc from "fast-check";
import type { CaseRuntimeConf, ConformanceCase, ScriptedReply } from "../harness/case.js";
import { result, specVersions } from "./data.js";

/** The seed: change it only together with the documented counts. */
export const generatedSeed = 20_251_202;

const capabilityNames = [
  "portMappings",
  "bandwidth",
  "dns",
  "ips",
  "mac",
  "ipRanges",
  "aliases",
  "x-custom",
];
const argChars = fc.constantFrom(...'aZ09_-.=;, <>&é日\u2028"\\\t/'.split(""));
const anyKey = fc.oneof(
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.constantFrom(
    "10",
    "9",
    "a",
    "B",
    "",
    "_",
    "é",
    "<tag>",
    "TYPE",
    "Type",
    "capabilities",
    "prevResult",
    "runtimeConfig",
    "args",
    "ipam",
    "dns",
  ),
);
const anyJSON = fc.jsonValue({ maxDepth: 3 });

const pluginArb = fc.record(
  {
    type: fc.constantFrom("rec-a", "rec-b", "rec-c"),
    capabilities: fc.dictionary(fc.constantFrom(...capabilityNames), fc.boolean(), { maxKeys: 4 }),
    extra: fc.dictionary(anyKey, anyJSON, { maxKeys: 4 }),
  },
  { requiredKeys: ["type", "extra"] },
);

const resultNames = specVersions.flatMap((v) =>
  ["full", "v4", "v6", "noips"].map((s) => `${v}-${s}`),
);

const caseArb = fc.record({
  name: fc.oneof(
    { weight: 9, arbitrary: fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,15}$/) },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
  ),
  cniVersion: fc.option(fc.constantFrom("", ...specVersions, "1.0", "0.4"), { nil: undefined }),
  disableCheck: fc.option(fc.boolean(), { nil: undefined }),
  listExtra: fc.dictionary(fc.constantFrom("foo", "runtimeConfig", "ipam", "x"), anyJSON, {
    maxKeys: 2,
  }),
  plugins: fc.array(pluginArb, { minLength: 1, maxLength: 3 }),
  results: fc.array(fc.constantFrom(...resultNames), { minLength: 3, maxLength: 3 }),
  containerID: fc.constantFrom("ctr-1", "a", "0123456789abcdef0123456789abcdef", "x.y_z-1"),
  ifName: fc.constantFrom("eth0", "net1", "e", "eth012345678901"),
  netNS: fc.constantFrom("/var/run/netns/ctr-1", "", "/proc/123/ns/net"),
  args: fc.option(
    fc.array(
      fc.tuple(
        fc.string({ unit: argChars, maxLength: 5 }),
        fc.string({ unit: argChars, maxLength: 5 }),
      ),
      { maxLength: 3 },
    ),
    { nil: null },
  ),
  capabilityArgs: fc.option(
    fc.dictionary(fc.constantFrom(...capabilityNames), anyJSON, { maxKeys: 4 }),
    { nil: null },
  ),
});

type Generated = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function toCase(g: Generated, i: number): ConformanceCase {
  const list: Record<string, unknown> = { name: g.name, ...g.listExtra };
  if (g.cniVersion !== undefined) list.cniVersion = g.cniVersion;
  if (g.disableCheck !== undefined) list.disableCheck = g.disableCheck;
  list.plugins = g.plugins.map((p) => {
    const o: Record<string, unknown> = { ...p.extra, type: p.type };
    if (p.capabilities) o.capabilities = p.capabilities;
    return o;
  });
  const types = ["rec-a", "rec-b", "rec-c"];
  const plugins: Record<string, Record<string, ScriptedReply>> = {};
  types.forEach((t, k) => {
    plugins[t] = { ADD: { out: result(g.results[k]) } };
  });
  const runtimeConf: CaseRuntimeConf = {
    containerID: g.containerID,
    netNS: g.netNS,
    ifName: g.ifName,
    args: g.args,
    capabilityArgs: g.capabilityArgs,
  };
  return {
    id: `generated/${String(i).padStart(3, "0")}`,
    description: "fast-check generated conflist, runtime conf and results",
    confList: JSON.stringify(list),
    plugins,
    runtimeConf,
    ops: [
      "add",
      "getCachedResult",
      "getCachedConfig",
      "getCachedAttachments",
      "check",
      "del",
      "getCachedResult",
    ],
  };
}

/** `count` generated cases, the same on every run. */
export function generatedCases(count = 200): ConformanceCase[] {
  return fc.sample(caseArb, { seed: generatedSeed, numRuns: count }).map(toCase);
}
