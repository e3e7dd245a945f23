/**
 * The documented differences between Go libcni 1.1.2 (the oracle we can run) and the port
 * (which targets v1.3.0 plus later fixes on main). Each entry is a precise rewrite of one
 * side, or a precise test, never a blanket "ignore": a difference counts as documented only
 * when one of these explains it exactly. docs/deviations/conformance.md lists the same ids.
 */
import {
  type JNode,
  mapTokens,
  member,
  serializeTree,
  sortKeysDeep,
  stringValue,
  tryParseTree,
} from "./ordered-json.js";

/** Why a difference exists. */
export type DifferenceKind =
  | "1.1.2-older" // v1.3.0 (the target) changed it after 1.1.2
  | "toolchain" // Go 1.19 (Debian's) vs the Go that builds v1.3.0
  | "improvement"; // the port does better on purpose (reference section 5)

/** One documented difference. */
export interface KnownDifference {
  id: string;
  kind: DifferenceKind;
  reason: string;
}

/** The table: every id the comparator may report. */
export const knownDifferences: readonly KnownDifference[] = [
  {
    id: "result-1x-sorted",
    kind: "1.1.2-older",
    reason:
      'v1.3.0\'s 1.x Result.MarshalJSON goes through a map: every key sorted at every level and an empty dns dropped; 1.1.2 writes struct order with "dns":{} (results, Print, prevResult, cache).',
  },
  {
    id: "go-escape-b-f",
    kind: "toolchain",
    reason:
      "encoding/json in Go >= 1.22 writes U+0008 and U+000C as \\b and \\f; Debian's Go 1.19 writes \\u0008 and \\u000c.",
  },
  {
    id: "cache-netns",
    kind: "1.1.2-older",
    reason: "v1.3.0's cache record has a netns field (after networkName, omitted when empty).",
  },
  {
    id: "version-1.1.0",
    kind: "1.1.2-older",
    reason:
      '1.1.2 knows spec versions up to 1.0.0. Cases using 1.1.0 run on Go with every "1.1.0" read as "1.0.0" (1.0.0 and 1.1.0 share result types and converters in v1.3.0), and the port\'s output is compared with the same relabelling.',
  },
  {
    id: "result-new-fields",
    kind: "1.1.2-older",
    reason:
      "Spec 1.1.0 fields (interface mtu, socketPath, pciID; route mtu, advmss, priority, table, scope) are unknown to 1.1.2's types and dropped there; v1.3.0 keeps them.",
  },
  {
    id: "version-stdin-current",
    kind: "1.1.2-older",
    reason:
      'VERSION stdin is {"cniVersion":version.Current()}: "1.0.0" in 1.1.2, "1.1.0" in v1.3.0.',
  },
  {
    id: "parse-v130-syntax",
    kind: "1.1.2-older",
    reason:
      "Conflist syntax added after 1.1.2 (cniVersions, string booleans for disableCheck, disableGC, loadOnlyInlinedPlugins): Go is given the equivalent list; the cache's config bytes are the list as written.",
  },
  {
    id: "parse-message",
    kind: "1.1.2-older",
    reason:
      'v1.3.0 rewrote the disableCheck errors: "invalid type T for disableCheck" / "invalid value \\"x\\" for disableCheck" (1.1.2: "invalid disableCheck type T").',
  },
  {
    id: "parse-missing-plugins",
    kind: "1.1.2-older",
    reason:
      "v1.3.0 accepts a conflist without a plugins key (0 plugins, for drop-in directories); 1.1.2 rejects it with \"no 'plugins' key\".",
  },
  {
    id: "stderr-exec-error",
    kind: "1.1.2-older",
    reason:
      'main keeps the exec error after the stderr text: "netplugin failed: \\"<stderr>\\": exit status N" (1.1.2 drops it).',
  },
  {
    id: "netconf-renamed",
    kind: "1.1.2-older",
    reason:
      'v1.3.0 renamed types.NetConf to types.PluginConf, and Go\'s decode errors name the struct: "Go struct field PluginConf.type" (1.1.2: NetConf.type).',
  },
  {
    id: "plugin-error-silent",
    kind: "improvement",
    reason:
      'A failed plugin whose stdout decodes but has no msg ({}, a result) gave upstream an error with an empty message; the port says "netplugin failed with no error message in its output <stdout>: <exit status>" (reference 5.3).',
  },
  {
    id: "result-decode-code",
    kind: "improvement",
    reason:
      'Plugin output that is not a JSON object: same message ("failed to unmarshal raw result: ..."), but the port throws it as a CNIError with code 6 (ErrDecodingFailure) where upstream\'s error is untyped.',
  },
  {
    id: "del-corrupt-cache",
    kind: "1.1.2-older",
    reason:
      "v1.3.0 DEL over an unreadable cache record removes the record and runs the DEL without prevResult; 1.1.2 fails the DEL.",
  },
  {
    id: "cache-write-uncached",
    kind: "improvement",
    reason:
      'An ADD whose plugins succeeded but whose cache write failed: upstream\'s message, then " (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)", as a CacheWriteError (upstream says nothing of the attachment being up).',
  },
  {
    id: "validate-every-verb",
    kind: "improvement",
    reason:
      "The port validates container ID, network name and interface name on every verb that builds a cache path (upstream only on ADD), so a bad ifName on DEL cannot touch files outside the cache.",
  },
];

const rx110 = /(?<![\d.])1\.1\.0(?![\d.])/g;

/** `version-1.1.0`: the port's texts with 1.1.0 read as 1.0.0. */
export function relabel110Text(s: string): string {
  return s.replace(rx110, "1.0.0");
}

/** `version-1.1.0`: the port's JSON with every "1.1.0" token read as "1.0.0". */
export function relabel110Tree(n: JNode): JNode {
  return mapTokens(n, (raw) => (raw === '"1.1.0"' ? '"1.0.0"' : raw));
}

/** `go-escape-b-f`: Go 1.19's \u0008 / \u000c escapes in a string token, as Go 1.22 writes them. */
export function modernEscapes(raw: string): string {
  if (!raw.startsWith('"')) return raw;
  return raw.replace(/\\(u000[8cC]|.)/g, (m, g: string) => {
    if (g === "u0008") return "\\b";
    if (g === "u000c" || g === "u000C") return "\\f";
    return m;
  });
}

function isResult1x(n: JNode | undefined): boolean {
  const v = stringValue(member(n, "cniVersion"));
  return v !== undefined && /^1\./.test(v);
}

function dropEmptyDNS(n: JNode): JNode {
  if (n.t !== "obj") return n;
  return {
    t: "obj",
    entries: n.entries.filter(
      (e) => !(e.key === "dns" && e.value.t === "obj" && e.value.entries.length === 0),
    ),
  };
}

/** `result-1x-sorted`: a 1.1.2-encoded 1.x result as v1.3.0 encodes it. */
export function v130Result(n: JNode): JNode {
  if (!isResult1x(n)) return n;
  return dropEmptyDNS(sortKeysDeep(n));
}

/** Applies `f` to the member `key` of an object node (when present). */
export function mapMember(n: JNode, key: string, f: (v: JNode) => JNode): JNode {
  if (n.t !== "obj") return n;
  return {
    t: "obj",
    entries: n.entries.map((e) => (e.key === key ? { ...e, value: f(e.value) } : e)),
  };
}

const newInterfaceKeys = new Set(["mtu", "socketPath", "pciID"]);
const newRouteKeys = new Set(["mtu", "advmss", "priority", "table", "scope"]);

/** `result-new-fields`: the result without the spec-1.1.0 fields 1.1.2 cannot carry. */
export function dropNewFields(n: JNode): JNode {
  const strip = (keys: Set<string>) => (items: JNode) =>
    items.t === "arr"
      ? {
          t: "arr" as const,
          items: items.items.map((o) =>
            o.t === "obj"
              ? { t: "obj" as const, entries: o.entries.filter((e) => !keys.has(e.key)) }
              : o,
          ),
        }
      : items;
  let out = mapMember(n, "interfaces", strip(newInterfaceKeys));
  out = mapMember(out, "routes", strip(newRouteKeys));
  for (const fam of ["ip4", "ip6"])
    out = mapMember(out, fam, (ip) => mapMember(ip, "routes", strip(newRouteKeys)));
  return out;
}

/** Does the case script any spec-1.1.0-only result field? */
export function mentionsNewFields(text: string): boolean {
  return /"(socketPath|pciID|advmss|priority|table|scope|mtu)"/.test(text);
}

/** Go's encoding/json quoting of a string (HTML-safe, Go >= 1.22 short escapes). */
export function goQuote(s: string): string {
  const wellFormed = s.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    "\ufffd",
  );
  return JSON.stringify(wellFormed).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `cache-netns`: a 1.1.2 cache record with v1.3.0's netns field added. */
export function addNetns(record: JNode, netNS: string): JNode {
  if (record.t !== "obj" || netNS === "" || member(record, "netns") !== undefined) return record;
  const entries = [];
  for (const e of record.entries) {
    entries.push(e);
    if (e.key === "networkName")
      entries.push({
        rawKey: '"netns"',
        key: "netns",
        value: { t: "lit" as const, raw: goQuote(netNS) },
      });
  }
  return { t: "obj", entries };
}

/** Parses JSON text, or undefined. */
export function tree(text: string | undefined): JNode | undefined {
  return text === undefined ? undefined : tryParseTree(text);
}

/** Compact or indented serialization matching how the artifact was written. */
export function reserialize(n: JNode, indented: boolean): string {
  return serializeTree(n, indented ? "    " : "");
}
