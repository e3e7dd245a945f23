/**
 * The comparator: flattens each side's observation into named artifacts (parse outcome,
 * per verb: error code and message, result, printed result, cached config, cache files with
 * their modes, and every plugin call's stdin bytes and CNI_* environment), compares them
 * pairwise and classifies each case as identical, documented (every difference explained by
 * an entry of known-differences.ts) or unexplained.
 */
import type { ConformanceCase, Observation, OpObservation } from "./case.js";
import { as100, mentions110 } from "./go-runner.js";
import {
  addNetns,
  dropNewFields,
  mapMember,
  mentionsNewFields,
  modernEscapes,
  relabel110Text,
  reserialize,
  tree,
  v130Result,
} from "./known-differences.js";
import { type JNode, mapTokens, member } from "./ordered-json.js";

/** How an artifact's text is to be read. */
type Kind =
  | "text" // compared as is (env, codes, names)
  | "msg" // an error message
  | "result" // a compact result
  | "printed" // a 4-space indented result
  | "stdin" // a plugin's stdin (a compact config map)
  | "record" // a cache record without its config (compact)
  | "config" // config bytes as written by the user
  | "json" // other compact JSON
  | "attachments"; // canonical JSON of getCachedAttachments

interface Artifact {
  key: string;
  op: number; // -1: parsing
  kind: Kind;
  value: string | undefined;
}

/** One difference the comparator could not explain. */
export interface Difference {
  key: string;
  go: string | undefined;
  ts: string | undefined;
}

/** The verdict on one case. */
export interface CaseVerdict {
  id: string;
  status: "identical" | "documented" | "unexplained";
  /** Known-difference ids that explained something. */
  rules: string[];
  /** The first unexplained differences (a few, for the report). */
  unexplained: Difference[];
  artifacts: number;
}

/** Bytes as text when they are valid UTF-8, else tagged base64 (so no byte is lost). */
function b64text(b64: string | null | undefined): string | undefined {
  if (b64 === null || b64 === undefined) return undefined;
  const bytes = Buffer.from(b64, "base64");
  const text = bytes.toString("utf8");
  return Buffer.from(text, "utf8").equals(bytes) ? text : `<not UTF-8, base64: ${b64}>`;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const keys = Object.keys(v).sort();
    const o = v as Record<string, unknown>;
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(",")}}`;
  }
  return JSON.stringify(v);
}

function opArtifacts(
  o: OpObservation,
  i: number,
  cacheDir: string,
  logDir: string,
  seenCalls: Set<string>,
): Artifact[] {
  const p = `op${i}:${o.op}`;
  const a: Artifact[] = [];
  const add = (key: string, kind: Kind, value: string | undefined): void => {
    a.push({ key: `${p}.${key}`, op: i, kind, value });
  };
  add("error.code", "text", o.error ? String(o.error.code) : undefined);
  add("error.msg", "msg", o.error?.msg);
  add("result", "result", o.result);
  add("printed", "printed", o.printed);
  if (o.cachedConfig) {
    add("cachedConfig.bytes", "config", b64text(o.cachedConfig.bytesB64));
    const rt = o.cachedConfig.rt;
    add(
      "cachedConfig.rt",
      "text",
      rt === null
        ? "null"
        : canonical({ ...rt, args: rt.args ?? null, capabilityArgs: rt.capabilityArgs ?? null }),
    );
  } else add("cachedConfig", "text", undefined);
  add("caps", "text", o.caps ? JSON.stringify(o.caps) : undefined);
  add("versions", "text", o.versions ? JSON.stringify(o.versions) : undefined);
  add("bytes", "json", b64text(o.bytesB64));
  add(
    "attachments",
    "attachments",
    o.attachments
      ? canonical(
          o.attachments.map((x) => ({
            ...x,
            configB64: null,
            config: b64text(x.configB64) ?? null,
          })),
        )
      : undefined,
  );

  const cache = o.dirs[cacheDir] ?? {};
  for (const rel of Object.keys(cache).sort()) {
    const f = cache[rel];
    add(`cache:${rel}#mode`, "text", f.mode);
    const text = b64text(f.b64);
    const t = text === undefined ? undefined : tree(text);
    const config = t?.t === "obj" ? t.entries.find((e) => e.key === "config") : undefined;
    const cfg = config?.value.t === "lit" ? (JSON.parse(config.value.raw) as unknown) : undefined;
    if (rel.startsWith("results/") && t?.t === "obj" && config && typeof cfg === "string") {
      // The config bytes are compared decoded (the base64 is a function of them).
      const rest: JNode = { t: "obj", entries: t.entries.filter((e) => e !== config) };
      add(`cache:${rel}`, "record", reserialize(rest, false));
      add(`cache:${rel}#config`, "config", b64text(cfg));
    } else add(`cache:${rel}`, "text", text);
  }

  const log = o.dirs[logDir] ?? {};
  const calls = Object.keys(log)
    .filter((n) => n.endsWith(".stdin"))
    .map((n) => n.slice(0, -".stdin".length))
    .filter((n) => !seenCalls.has(n))
    .sort();
  add("calls", "text", calls.join(" "));
  for (const c of calls) {
    seenCalls.add(c);
    add(`call:${c}.stdin`, "stdin", b64text(log[`${c}.stdin`]?.b64));
    add(`call:${c}.env`, "text", b64text(log[`${c}.env`]?.b64));
  }
  return a;
}

/** Flattens an observation into artifacts, in a stable order. */
export function artifacts(obs: Observation, cacheDir: string, logDir: string): Artifact[] {
  const a: Artifact[] = [];
  for (const [name, p] of [
    ["parseList", obs.parseList],
    ["parseConf", obs.parseConf],
  ] as const) {
    if (!p) continue;
    a.push({
      key: `${name}.error.code`,
      op: -1,
      kind: "text",
      value: p.error ? String(p.error.code) : undefined,
    });
    a.push({ key: `${name}.error.msg`, op: -1, kind: "msg", value: p.error?.msg });
    if (p.list) {
      const { name: n, cniVersion, disableCheck } = p.list;
      a.push({
        key: `${name}.meta`,
        op: -1,
        kind: "text",
        value: JSON.stringify([n, cniVersion, disableCheck]),
      });
      p.list.pluginsB64.forEach((b, i) => {
        a.push({ key: `${name}.plugin${i}`, op: -1, kind: "json", value: b64text(b) });
      });
    }
    if (p.confB64 !== undefined)
      a.push({ key: `${name}.conf`, op: -1, kind: "config", value: b64text(p.confB64) });
  }
  const seen = new Set<string>();
  obs.ops.forEach((o, i) => {
    a.push(...opArtifacts(o, i, cacheDir, logDir, seen));
  });
  return a;
}

const jsonKinds = new Set<Kind>(["result", "printed", "stdin", "record", "json"]);

/** Every result text the case scripts or seeds. */
function caseTexts(c: ConformanceCase): string {
  const outs = Object.values(c.plugins).flatMap((verbs) =>
    Object.values(verbs).map((r) => r.out ?? ""),
  );
  return [...outs, ...Object.values(c.cacheSeed ?? {})].join("\n");
}

/** Tries the value-level rewrites; returns the rules used when they explain the pair. */
function explainValue(
  a: Artifact,
  go: string,
  ts: string,
  c: ConformanceCase,
): string[] | undefined {
  const used = new Set<string>();
  let t = ts;
  let g = go;
  if (mentions110(c)) {
    const r = a.key.endsWith(".env")
      ? t
      : a.kind === "msg" || a.kind === "text" || a.kind === "attachments"
        ? relabel110Text(t)
        : as100(t);
    if (r !== t) used.add("version-1.1.0");
    t = r;
    if (g === t) return [...used];
  }
  if (a.kind === "config") {
    // Both sides as compared: Go was given the (relabelled) equivalent list.
    const relabel = (x: string): string => (mentions110(c) ? as100(x) : x);
    const goList = c.goConfList === undefined ? undefined : relabel(c.goConfList);
    if (goList !== undefined && g === goList && t === relabel(c.confList ?? "")) {
      return [...used, c.goRule ?? "parse-v130-syntax"];
    }
    return undefined;
  }
  if (a.kind === "attachments") {
    // Go's side is the driver's own listing (cachelisting.go, from the documented rules:
    // 1.1.2 has no GetCachedAttachments) over the records 1.1.2 wrote.
    // cache-netns: a 1.1.2 record has no netns, so that listing of it says "".
    // parse-v130-syntax: Go's records hold the equivalent list it was given.
    const rt = c.runtimeConf;
    const relabelList = (x: string): string => (mentions110(c) ? relabel110Text(x) : x);
    type Att = { netNS: string; containerID: string; ifName: string; config: string | null };
    const tsList = JSON.parse(t) as Att[];
    const fixed = (JSON.parse(g) as Att[]).map((x, i) => {
      let y = x;
      const tsNetNS = tsList[i]?.netNS;
      if (
        y.netNS === "" &&
        tsNetNS === rt.netNS &&
        y.containerID === rt.containerID &&
        y.ifName === rt.ifName
      ) {
        y = { ...y, netNS: rt.netNS };
        used.add("cache-netns");
      }
      if (c.goConfList !== undefined && y.config === relabelList(c.goConfList)) {
        y = { ...y, config: relabelList(c.confList ?? "") };
        used.add(c.goRule ?? "parse-v130-syntax");
      }
      return y;
    });
    return canonical(fixed) === t ? [...used] : undefined;
  }
  if (
    a.kind === "stdin" &&
    a.key.endsWith("-VERSION.stdin") &&
    g === '{"cniVersion":"1.0.0"}' &&
    t === '{"cniVersion":"1.1.0"}'
  ) {
    return [...used, "version-stdin-current"];
  }
  if (a.kind === "msg") {
    const stripped = t.replace(
      /(netplugin failed: "(?:[^"\\]|\\.)*")(: exit status \d+|: signal: [a-z ]+)/g,
      "$1",
    );
    if (stripped !== t) {
      used.add("stderr-exec-error");
      t = stripped;
      if (g === t) return [...used];
    }
    const renamed = g
      .replace(/Go struct field NetConf\./g, "Go struct field PluginConf.")
      .replace(/types\.NetConf\b/g, "types.PluginConf");
    if (renamed !== g) {
      used.add("netconf-renamed");
      g = renamed;
      if (g === t) return [...used];
    }
    const uncached =
      " (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)";
    if (t === g + uncached && g.startsWith("failed to set network ")) {
      return [...used, "cache-write-uncached"];
    }
    const silent = /^(.*)netplugin failed with no error message in its output .*$/s.exec(t);
    if (silent && g === silent[1]) return [...used, "plugin-error-silent"];
    const m = /invalid disableCheck type (\S+)$/.exec(g);
    if (m) {
      const head = g.slice(0, m.index);
      const tail = t.slice(head.length);
      if (
        t.startsWith(head) &&
        (tail === `invalid type ${m[1]} for disableCheck` ||
          (m[1] === "string" && /^invalid value ".*" for disableCheck$/.test(tail)))
      ) {
        return [...used, "parse-message"];
      }
    }
    return undefined;
  }
  if (!jsonKinds.has(a.kind)) return undefined;

  const indented = a.kind === "printed";
  let gt = tree(g);
  let tt = tree(t);
  // Only a byte-faithful round trip may be rewritten: whitespace differences stay visible.
  if (!gt || !tt || reserialize(gt, indented) !== g || reserialize(tt, indented) !== t)
    return undefined;

  const step = (id: string, side: "go" | "ts", f: (n: JNode) => JNode): void => {
    const before = side === "go" ? gt! : tt!;
    const after = f(before);
    if (reserialize(after, false) !== reserialize(before, false)) {
      used.add(id);
      if (side === "go") gt = after;
      else tt = after;
    }
  };
  step("go-escape-b-f", "go", (n) => mapTokens(n, modernEscapes));
  const onResults =
    (f: (n: JNode) => JNode) =>
    (n: JNode): JNode => {
      if (a.kind === "result" || a.kind === "printed") return f(n);
      if (a.kind === "stdin") return mapMember(n, "prevResult", f);
      if (a.kind === "record") return mapMember(n, "result", f);
      return n;
    };
  step("result-1x-sorted", "go", onResults(v130Result));
  if (a.kind === "record") step("cache-netns", "go", (n) => addNetns(n, c.runtimeConf.netNS));
  if (mentionsNewFields(caseTexts(c))) {
    step("result-new-fields", "ts", onResults(dropNewFields));
  }
  return reserialize(gt, indented) === reserialize(tt, indented) ? [...used] : undefined;
}

function opError(obs: Observation, op: number): { code: number | null; msg: string } | undefined {
  return obs.ops[op]?.error;
}

/** What upstream's pkg/utils validators say (the port's refusals must be one of these). */
const validatorMessages = [
  "missing containerID",
  "invalid characters in containerID",
  "missing network name:",
  "invalid characters found in network name",
  "interface name is empty",
  "interface name is too long",
  "interface name is . or ..",
  "interface name contains / or : or whitespace characters",
];

/** An error code difference explained by a rule (the messages are compared on their own). */
function explainCode(
  a: Artifact,
  go: string,
  ts: string,
  goObs: Observation,
  tsObs: Observation,
): string | undefined {
  if (!a.key.endsWith(".error.code") || a.op < 0) return undefined;
  const gm = opError(goObs, a.op)?.msg ?? "";
  const tm = opError(tsObs, a.op)?.msg ?? "";
  if (
    go === "null" &&
    ts === "6" &&
    gm.includes("failed to unmarshal raw result: ") &&
    tm.includes("failed to unmarshal raw result: ")
  ) {
    return "result-decode-code";
  }
  return undefined;
}

/** Divergences: from this verb on, the two runs legitimately part ways. */
/** The plugin calls a verb made: log entries new since the previous verb. */
function newCalls(obs: Observation, op: number, logDir: string): { name: string; stdin: string }[] {
  const before = new Set(Object.keys(op > 0 ? (obs.ops[op - 1].dirs[logDir] ?? {}) : {}));
  const now = obs.ops[op].dirs[logDir] ?? {};
  return Object.keys(now)
    .filter((n) => n.endsWith(".stdin") && !before.has(n))
    .sort()
    .map((n) => ({ name: n.slice(0, -".stdin".length), stdin: b64text(now[n].b64) ?? "" }));
}

/** How many plugins the parsed config has (list or single). */
function pluginCount(obs: Observation): number {
  return obs.parseList?.list?.pluginsB64.length ?? (obs.parseConf?.confB64 ? 1 : 0);
}

/** Does this stdin carry a prevResult that is not the plugin config's own (user-written) one? */
function injectedPrevResult(stdin: string, obs: Observation): boolean {
  const mine = member(tree(stdin), "prevResult");
  if (mine === undefined) return false;
  const text = reserialize(mine, false);
  const own = [...(obs.parseList?.list?.pluginsB64 ?? []), obs.parseConf?.confB64 ?? ""].map((b) =>
    member(tree(b64text(b) ?? ""), "prevResult"),
  );
  return !own.some((p) => p !== undefined && reserialize(p, false) === text);
}

function explainDivergence(
  op: number,
  c: ConformanceCase,
  goObs: Observation,
  tsObs: Observation,
  logDir: string,
): string | undefined {
  if (op === -1) {
    const g = goObs.parseList?.error?.msg ?? "";
    if (g.endsWith("no 'plugins' key") && tsObs.parseList && !tsObs.parseList.error)
      return "parse-missing-plugins";
    const t = tsObs.parseList?.error?.msg ?? "";
    if (
      !goObs.parseList?.error &&
      t.includes("cniVersion") &&
      (c.confList ?? "").includes('"cniVersions"')
    ) {
      return "parse-v130-syntax";
    }
    return undefined;
  }
  const name = goObs.ops[op]?.op ?? "";
  const ge = opError(goObs, op);
  const te = opError(tsObs, op);
  const cacheFailure = ge && !te && /^failed to get network ".*" cached result: /s.test(ge.msg);
  // The port must have run the verb the v1.3.0 way: every plugin called, none given a prevResult.
  const ranWithoutPrevResult = (verb: string): boolean => {
    const calls = newCalls(tsObs, op, logDir);
    return (
      calls.length === pluginCount(tsObs) &&
      calls.every((x) => x.name.endsWith(`-${verb}`) && !injectedPrevResult(x.stdin, tsObs))
    );
  };
  if ((name === "del" || name === "delNet") && cacheFailure && ranWithoutPrevResult("DEL")) {
    return "del-corrupt-cache";
  }
  if (
    name !== "add" &&
    name !== "addNet" &&
    te &&
    [3, 4, 7].includes(te.code ?? -1) &&
    validatorMessages.some((m) => te.msg.startsWith(m)) &&
    ge?.msg !== te.msg &&
    newCalls(tsObs, op, logDir).length === 0
  ) {
    return "validate-every-verb";
  }
  return undefined;
}

/** Compares the two observations of a case and classifies it. */
export function compareCase(
  c: ConformanceCase,
  goObs: Observation,
  tsObs: Observation,
  cacheDir: string,
  logDir: string,
): CaseVerdict {
  const ga = artifacts(goObs, cacheDir, logDir);
  const ta = artifacts(tsObs, cacheDir, logDir);
  const gm = new Map(ga.map((a) => [a.key, a]));
  const tm = new Map(ta.map((a) => [a.key, a]));
  const keys: Artifact[] = [...ga, ...ta.filter((a) => !gm.has(a.key))];
  keys.sort((x, y) => x.op - y.op);

  const rules = new Set<string>();
  const unexplained: Difference[] = [];
  let divergedAt: number | undefined;
  for (const a of keys) {
    if (divergedAt !== undefined && a.op >= divergedAt) continue;
    const go = gm.get(a.key)?.value;
    const ts = tm.get(a.key)?.value;
    if (go === ts) continue;
    const code =
      go !== undefined && ts !== undefined ? explainCode(a, go, ts, goObs, tsObs) : undefined;
    if (code) {
      rules.add(code);
      continue;
    }
    const used = go !== undefined && ts !== undefined ? explainValue(a, go, ts, c) : undefined;
    if (used && used.length > 0) {
      for (const r of used) rules.add(r);
      continue;
    }
    const d = explainDivergence(a.op, c, goObs, tsObs, logDir);
    if (d) {
      rules.add(d);
      divergedAt = a.op;
      continue;
    }
    unexplained.push({ key: a.key, go, ts });
  }
  const status =
    unexplained.length > 0 ? "unexplained" : rules.size > 0 ? "documented" : "identical";
  return {
    id: c.id,
    status,
    rules: [...rules].sort(),
    unexplained: unexplained.slice(0, 5),
    artifacts: keys.length,
  };
}
