/**
 * The rules a plugin is held to (the table: docs/conformance.md). A rule runs its own plugin
 * calls on fresh pods and undoes what it added; it says `pass`, `fail` with what it saw (a
 * `should` rule's failure is reported as `warn`), or `n/a` with why it does not apply.
 */
import { greaterThanOrEqualTo, all as knownVersions } from "../../version/index.js";
import { seconds, specError, told } from "./evidence.js";
import { resultProblems, sanityFindings } from "./result-shape.js";
import type { CallOutcome, CallSpec, CheckSession, LeftoverRecord, Pod } from "./session.js";
import type { ConformanceRule, RuleLevel, RuleStatus } from "./types.js";

/** What a rule runs with. */
export interface RuleContext {
  readonly session: CheckSession;
  /** The spec version of this run ("" for the rules about the plugin as a whole). */
  readonly version: string;
  /** The versions the plugin claims. */
  readonly supportedVersions: readonly string[];
  /** The config for this version with `extra` set, a prevResult's sandboxes the pod's netns. */
  config(pod?: Pod, extra?: Record<string, unknown>): string;
  /** True when the config carries a prevResult (the plugin is tested as a chained one). */
  readonly chained: boolean;
  /** The prevResult the config carries, as the plugin gets it for `pod`. */
  prevResult(pod: Pod): Record<string, unknown> | undefined;
  /** The same context for another spec version (version-honest tries each one claimed). */
  at(version: string): RuleContext;
  /** The VERSION call the check began with (version-output judges it: no second call). */
  readonly versionCall: CallOutcome;
}

/** A rule's verdict. */
export interface Verdict {
  status: RuleStatus;
  evidence: string;
  /** The level of what this verdict judges, when it is not the rule's (a "should" part). */
  level?: RuleLevel;
}

/** One rule, as documented (ConformanceRule), and how it runs. */
export interface Rule extends Omit<ConformanceRule, "since"> {
  readonly since?: string;
  /** Read last: it judges the calls (or what they left) of every other rule. */
  readonly last?: boolean;
  run(ctx: RuleContext): Promise<Verdict>;
}

const pass = (evidence = ""): Verdict => ({ status: "pass", evidence });
const fail = (evidence: string): Verdict => ({ status: "fail", evidence });
/** A "should" broken in a rule whose main requirement is a "must". */
const warn = (evidence: string): Verdict => ({ status: "warn", evidence, level: "should" });
const notApplicable = (evidence: string): Verdict => ({ status: "n/a", evidence });
const passUnless = (problems: string[]) =>
  problems.length === 0 ? pass() : fail(problems.join("; "));
/** A call that must succeed: its failure, told, is the verdict. */
const succeeded = (call: CallOutcome): Verdict => (call.exitCode === 0 ? pass() : fail(told(call)));

function add(ctx: RuleContext, pod: Pod): Promise<CallOutcome> {
  return ctx.session.call({ command: "ADD", stdin: ctx.config(pod), ...pod });
}

/** The config a CHECK or DEL gets: with the ADD's result as prevResult from 0.4.0. */
function withResult(ctx: RuleContext, pod: Pod, result: unknown): string {
  const prev = greaterThanOrEqualTo(ctx.version, "0.4.0") && result !== undefined;
  return ctx.config(pod, prev ? { prevResult: result } : {});
}

function del(ctx: RuleContext, pod: Pod, result?: unknown): Promise<CallOutcome> {
  return ctx.session.call({ command: "DEL", stdin: withResult(ctx, pod, result), ...pod });
}

/** An ADD that succeeded, on its pod. */
interface Attachment {
  pod: Pod;
  add: CallOutcome;
}

/** ADD on `pod` (a fresh one by default); a failed ADD is the verdict (the rule cannot go on). */
async function added(ctx: RuleContext, pod?: Pod): Promise<Attachment | Verdict> {
  pod ??= await ctx.session.pod();
  const call = await add(ctx, pod);
  if (call.exitCode !== 0) {
    await del(ctx, pod);
    return fail(`ADD failed, so the rule could not run: ${told(call)}`);
  }
  return { pod, add: call };
}

const isVerdict = (v: unknown): v is Verdict =>
  typeof v === "object" && v !== null && "status" in v && "evidence" in v;

/** ADD on a fresh pod, `judge` the attachment, then DEL it; a failed ADD is the verdict. */
async function judgeAdded(
  ctx: RuleContext,
  judge: (pod: Pod, call: CallOutcome) => Verdict | Promise<Verdict>,
): Promise<Verdict> {
  const done = await added(ctx);
  if (isVerdict(done)) return done;
  const verdict = await judge(done.pod, done.add);
  await del(ctx, done.pod, done.add.json);
  return verdict;
}

function check(ctx: RuleContext, attachment: Attachment): Promise<CallOutcome> {
  const { pod, add } = attachment;
  return ctx.session.call({ command: "CHECK", stdin: withResult(ctx, pod, add.json), ...pod });
}

/** CHECK with `prevResult` as given (a wrong one, which the plugin should refuse). */
function checkWith(ctx: RuleContext, pod: Pod, prevResult: unknown): Promise<CallOutcome> {
  return ctx.session.call({ command: "CHECK", stdin: ctx.config(pod, { prevResult }), ...pod });
}

async function delAll(ctx: RuleContext, attachments: readonly Attachment[]): Promise<void> {
  for (const a of attachments) await del(ctx, a.pod, a.add.json);
}

function gc(ctx: RuleContext, valid: readonly { pod: Pod }[]): Promise<CallOutcome> {
  const list = valid.map(({ pod }) => ({ containerID: pod.containerID, ifname: pod.ifName }));
  const extra = { "cni.dev/valid-attachments": list, "cni.dev/attachments": list };
  return ctx.session.call({ command: "GC", stdin: ctx.config(undefined, extra) });
}

/** One call on a fresh pod that the plugin must refuse with `code`; DELed when it accepts. */
async function refusal(
  ctx: RuleContext,
  code: number,
  what: string,
  spec: (pod: Pod) => CallSpec,
): Promise<Verdict> {
  const pod = await ctx.session.pod();
  const call = await ctx.session.call(spec(pod));
  if (call.exitCode === 0) {
    await del(ctx, pod, call.json);
    return fail(`${what}: accepted (${told(call)})`);
  }
  const error = specError(call);
  if (error === undefined) return fail(`${what}: no error object on stdout (${told(call)})`);
  if (error.code !== code)
    return fail(`${what}: code ${error.code} (${error.msg}), the spec's is ${code}`);
  return pass();
}

const versionOutput: Rule = {
  id: "version-output",
  level: "must",
  section: "Section 2, VERSION; Section 5, Version",
  title: "VERSION prints cniVersion and a non-empty supportedVersions list of versions",
  scope: "plugin",
  async run(ctx) {
    const call = ctx.versionCall;
    if (call.exitCode !== 0) return fail(told(call));
    const json = call.json as Record<string, unknown> | undefined;
    const versions = json?.supportedVersions;
    if (typeof json?.cniVersion !== "string") return fail(`no cniVersion: ${told(call)}`);
    if (!Array.isArray(versions) || versions.length === 0) {
      return fail(`no supportedVersions list: ${told(call)}`);
    }
    const bad = versions.filter((v) => typeof v !== "string" || !/^\d+\.\d+\.\d+$/.test(v));
    if (bad.length > 0) return fail(`not versions: ${JSON.stringify(bad)}`);
    return pass(`supports ${versions.join(", ")}`);
  },
};

const versionUnsupported: Rule = {
  id: "version-unsupported",
  level: "must",
  section: "Section 2, Errors (code 1: incompatible CNI version)",
  title: "a config in a version the plugin does not claim is refused with code 1",
  scope: "plugin",
  run: (ctx) =>
    refusal(ctx, 1, "ADD of cniVersion 99.0.0", (pod) => ({
      command: "ADD",
      stdin: JSON.stringify({ ...JSON.parse(ctx.config(pod)), cniVersion: "99.0.0" }),
      ...pod,
    })),
};

const envMissing: Rule = {
  id: "env-missing",
  level: "must",
  section: "Section 2, Parameters; Errors (code 4: invalid environment variables)",
  title: "ADD without CNI_CONTAINERID, CNI_NETNS or CNI_IFNAME is refused with code 4",
  scope: "version",
  async run(ctx) {
    const problems: string[] = [];
    for (const variable of ["CNI_CONTAINERID", "CNI_NETNS", "CNI_IFNAME"]) {
      const verdict = await refusal(ctx, 4, `ADD without ${variable}`, (pod) => ({
        command: "ADD",
        stdin: ctx.config(pod),
        ...pod,
        omit: [variable],
      }));
      if (verdict.status === "fail") problems.push(verdict.evidence);
    }
    return passUnless(problems);
  },
};

const commandUnknown: Rule = {
  id: "command-unknown",
  level: "must",
  section: "Section 2, Parameters (CNI_COMMAND); Errors (code 4)",
  title: "an unknown CNI_COMMAND is refused with code 4",
  scope: "version",
  run: (ctx) =>
    refusal(ctx, 4, "CNI_COMMAND=BOGUS", (pod) => ({
      command: "BOGUS",
      stdin: ctx.config(pod),
      ...pod,
    })),
};

const inputMalformed: Rule = {
  id: "input-malformed",
  level: "must",
  section: "Section 2, Errors (code 6: failed to decode content)",
  title: "a config that is not JSON is refused with code 6",
  scope: "version",
  run: (ctx) =>
    refusal(ctx, 6, "ADD of a truncated JSON config", (pod) => ({
      command: "ADD",
      stdin: '{"cniVersion": ',
      ...pod,
    })),
};

const addResult: Rule = {
  id: "add-result",
  level: "must",
  section: "Section 5, ADD Success",
  title:
    "ADD prints a result of the config's version that its decoder accepts: addresses and route destinations in CIDR form, named interfaces, the pod's sandbox",
  scope: "version",
  run: (ctx) =>
    judgeAdded(ctx, (pod, call) =>
      passUnless(resultProblems(call.stdout, call.json, ctx.version, pod.netns)),
    ),
};

const addPrevResult: Rule = {
  id: "add-prevresult",
  level: "must",
  section: "Section 3, Adding an attachment; Section 4 (chained plugins pass prevResult on)",
  title: "a chained ADD keeps the prevResult's interfaces and addresses in its result",
  scope: "version",
  since: "0.3.0",
  async run(ctx) {
    if (!ctx.chained)
      return notApplicable("the config has no prevResult (not tested as a chained plugin)");
    return judgeAdded(ctx, (pod, call) => {
      const prev = ctx.prevResult(pod) ?? {};
      const out = (call.json ?? {}) as Record<string, unknown>;
      // The `key` of each entry of the prevResult's list `field` that the result's list lacks.
      const missing = (field: string, key: string) => {
        const values = (v: unknown) =>
          Array.isArray(v) ? v.map((i) => (i as Record<string, unknown>)[key]) : [];
        return values(prev[field]).filter((v) => !values(out[field]).includes(v));
      };
      const lost = [
        ...missing("interfaces", "name").map((n) => `interface ${n}`),
        ...missing("ips", "address").map((a) => `address ${a}`),
      ];
      return lost.length === 0
        ? pass()
        : fail(`the result lost the prevResult's ${lost.join(", ")}`);
    });
  },
};

const checkAfterAdd: Rule = {
  id: "check-after-add",
  level: "must",
  section: "Section 2, CHECK",
  title: "CHECK with the ADD's result as prevResult succeeds",
  scope: "version",
  since: "0.4.0",
  run: (ctx) => judgeAdded(ctx, async (pod, add) => succeeded(await check(ctx, { pod, add }))),
};

/** The result with its first address moved, or its first interface's MAC changed. */
function altered(
  result: unknown,
): { result: Record<string, unknown>; what: string; original: string } | undefined {
  const copy = JSON.parse(JSON.stringify(result ?? {})) as Record<string, unknown>;
  const ips = copy.ips as { address?: string }[] | undefined;
  if (Array.isArray(ips) && typeof ips[0]?.address === "string") {
    const before = ips[0].address;
    ips[0].address = before.includes(":") ? "2001:db8::dead/64" : "192.0.2.250/24";
    return { result: copy, what: `address ${before} given as ${ips[0].address}`, original: before };
  }
  const interfaces = copy.interfaces as { mac?: string }[] | undefined;
  if (Array.isArray(interfaces) && typeof interfaces[0]?.mac === "string") {
    const original = interfaces[0].mac;
    interfaces[0].mac = "02:00:00:00:de:ad";
    return { result: copy, what: "interface MAC changed", original };
  }
  return undefined;
}

const checkWrongPrevResult: Rule = {
  id: "check-wrong-prevresult",
  level: "should",
  section:
    "Section 2, CHECK (the plugin should return an error if a resource listed in prevResult is missing)",
  title: "CHECK with a prevResult that does not match what ADD set up fails",
  scope: "version",
  since: "0.4.0",
  run: (ctx) =>
    judgeAdded(ctx, async (pod, call) => {
      const wrong = altered(call.json);
      if (wrong === undefined)
        return notApplicable("the ADD's result has no address or MAC to alter");
      const check = await checkWith(ctx, pod, wrong.result);
      const given = JSON.stringify(ctx.prevResult(pod) ?? {});
      if (check.exitCode === 0 && ctx.chained && given.includes(wrong.original)) {
        // The altered value is what the plugin before it set up: a chained plugin need not verify it.
        return notApplicable(
          `CHECK succeeded with ${wrong.what}, a value of the prevResult the chained plugin was given, not its own`,
        );
      }
      if (check.exitCode === 0)
        return fail(`CHECK succeeded with a wrong prevResult (${wrong.what})`);
      // How it failed (the error object) is error-format's to judge.
      return pass(wrong.what);
    }),
};

const delIdempotent: Rule = {
  id: "del-idempotent",
  level: "must",
  section: "Section 2, DEL (plugins MUST accept multiple DEL calls for an attachment)",
  title: "DEL succeeds twice in a row",
  scope: "version",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    const first = await del(ctx, pod, call.json);
    const second = await del(ctx, pod, call.json);
    return passUnless([first, second].filter((c) => c.exitCode !== 0).map(told));
  },
};

const delWithoutAdd: Rule = {
  id: "del-without-add",
  level: "must",
  section: "Section 2, DEL (success when the interface in question is missing)",
  title: "DEL of an attachment never added succeeds",
  scope: "version",
  async run(ctx) {
    return succeeded(await del(ctx, await ctx.session.pod()));
  },
};

const delNetnsGone: Rule = {
  id: "del-netns-gone",
  level: "must",
  section: "Section 2, DEL (CNI_NETNS is optional; success when the interface is missing)",
  title: "DEL succeeds after the pod's namespace is gone",
  scope: "version",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    await ctx.session.removePod(pod);
    return succeeded(await del(ctx, pod, call.json));
  },
};

/** Link kinds that belong to one attachment: left after its DEL, they leak. */
const perAttachmentKinds = new Set(["veth", "macvlan", "ipvlan", "ifb", "vlan", "dummy", "tun"]);

const delCleansUp: Rule = {
  id: "del-cleans-up",
  level: "should",
  section: "Section 2, DEL (the plugin should delete the interface, or undo what ADD did)",
  title: "DEL removes the interfaces ADD made, in the pod and on the host side",
  scope: "version",
  async run(ctx) {
    const pod = await ctx.session.pod();
    const [podBefore, hostBefore] = [await ctx.session.links(pod.netns), await ctx.session.links()];
    const done = await added(ctx, pod);
    if (isVerdict(done)) return done;
    const deleted = await del(ctx, pod, done.add.json);
    if (deleted.exitCode !== 0) return fail(`DEL failed: ${told(deleted)}`);
    const [podAfter, hostAfter] = [await ctx.session.links(pod.netns), await ctx.session.links()];
    const inPod = [...podAfter.keys()].filter((n) => !podBefore.has(n));
    const newOnHost = [...hostAfter].filter(([n]) => !hostBefore.has(n));
    const leaks = newOnHost.filter(([, kind]) => perAttachmentKinds.has(kind));
    const kept = newOnHost.filter(([, kind]) => !perAttachmentKinds.has(kind));
    const problems = [
      ...inPod.map((n) => `${n} left in the pod`),
      ...leaks.map(([n, kind]) => `${kind} ${n} left on the host side`),
    ];
    const note =
      kept.length === 0
        ? ""
        : `kept on the host (shared, not per attachment): ${kept.map(([n, k]) => `${k} ${n}`).join(", ")}`;
    return problems.length === 0
      ? pass(note)
      : fail([...problems, note].filter(Boolean).join("; "));
  },
};

const gcValidAttachments: Rule = {
  id: "gc-valid-attachments",
  level: "must",
  section:
    "Section 2, GC (the still valid attachments; plugins should generally complete a GC without error); Section 3, Garbage-collecting a network",
  title:
    "GC leaves the attachment in cni.dev/valid-attachments working, and succeeds (a warning when it fails)",
  scope: "version",
  since: "1.1.0",
  async run(ctx) {
    const both = await addedMany(ctx, 2);
    if (isVerdict(both)) return both;
    const [kept] = both;
    const broken = await failsBeforeGC(ctx, [kept], both);
    if (broken !== undefined) return broken;
    const collected = await gc(ctx, [kept]);
    const after = await check(ctx, kept);
    await delAll(ctx, both);
    const gcFailed = collected.exitCode === 0 ? "" : `GC failed: ${told(collected)}`;
    if (after.exitCode !== 0) {
      const also = gcFailed === "" ? "" : `; ${gcFailed}`;
      return fail(`the valid attachment's CHECK failed after GC: ${told(after)}${also}`);
    }
    return gcFailed === "" ? pass() : warn(gcFailed);
  },
};

const status: Rule = {
  id: "status",
  level: "must",
  section: "Section 2, STATUS",
  title: "STATUS succeeds, or fails with code 50 or 51 only",
  scope: "version",
  since: "1.1.0",
  async run(ctx) {
    const call = await ctx.session.call({ command: "STATUS", stdin: ctx.config() });
    if (call.exitCode === 0) return pass();
    const error = specError(call);
    if (error !== undefined && (error.code === 50 || error.code === 51))
      return pass(`code ${error.code}: ${error.msg}`);
    return fail(told(call));
  },
};

/** The names of a result's interfaces. */
function interfaceNames(result: unknown): string[] {
  const list = (result as { interfaces?: unknown } | undefined)?.interfaces;
  if (!Array.isArray(list)) return [];
  return list.map((i) => i?.name).filter((n): n is string => typeof n === "string");
}

const versionHonest: Rule = {
  id: "version-honest",
  section: "Section 5, Version (supportedVersions: the specification versions the plugin supports)",
  title:
    "every version VERSION claims is a spec version, and the plugin accepts each one (no code 1 for an ADD of it)",
  level: "must",
  scope: "plugin",
  async run(ctx) {
    const claimed = [...new Set(ctx.supportedVersions)];
    if (claimed.length === 0)
      return notApplicable("the plugin claims no version (see version-output)");
    const known = knownVersions.supportedVersions();
    const problems = claimed
      .filter((v) => !known.includes(v))
      .map((v) => `claims ${v}, which is no spec version (the spec's are ${known.join(", ")})`);
    const hung: string[] = [];
    for (const version of claimed.filter((v) => known.includes(v))) {
      const at = ctx.at(version);
      const pod = await ctx.session.pod();
      // A prevResult is written in the 0.3.0-and-later shape: an older config goes without.
      const old = !greaterThanOrEqualTo(version, "0.3.0");
      const call = await ctx.session.call({
        command: "ADD",
        stdin: at.config(pod, old ? { prevResult: undefined } : {}),
        ...pod,
      });
      await del(at, pod, call.exitCode === 0 ? call.json : undefined);
      if (call.timedOut) hung.push(version);
      else if (call.exitCode !== 0 && specError(call)?.code === 1)
        problems.push(`claims ${version} but refuses it: ${told(call)}`);
    }
    const notJudged =
      hung.length === 0
        ? ""
        : `; the ADD of ${hung.join(", ")} hung (no answer within ${seconds(ctx.session.timeoutMs)}), so whether the plugin accepts ${hung.length === 1 ? "it" : "them"} is not known`;
    return problems.length === 0
      ? pass(`claims ${claimed.join(", ")}; no ADD of them was refused as incompatible${notJudged}`)
      : fail(`${problems.join("; ")}${notJudged}`);
  },
};

const addIfname: Rule = {
  id: "add-ifname",
  section:
    "Section 2, Parameters (CNI_IFNAME: the interface to create; a plugin unable to use the name must return an error); ADD",
  title:
    "the sandbox interface ADD makes and reports is named CNI_IFNAME (or the plugin reports and makes none: IPAM, chained)",
  level: "must",
  scope: "version",
  async run(ctx) {
    const pod = await ctx.session.pod();
    const before = await ctx.session.links(pod.netns);
    const done = await added(ctx, pod);
    if (isVerdict(done)) return done;
    const call = done.add;
    const after = await ctx.session.links(pod.netns);
    await del(ctx, pod, call.json);
    const want = pod.ifName;
    // The prevResult's interfaces (a chained plugin's input) are not the plugin's own.
    const given = interfaceNames(ctx.prevResult(pod));
    const made = [...after.keys()].filter((n) => !before.has(n) && !given.includes(n));
    const list = (names: string[]) => names.join(", ");
    if (made.length > 0 && !after.has(want)) {
      return fail(`ADD made ${list(made)} in the pod, and no ${want} (CNI_IFNAME)`);
    }
    // Before 0.3.0 a result names no interface: what the pod gained is all there is to see.
    if (!greaterThanOrEqualTo(ctx.version, "0.3.0"))
      return pass(made.length === 0 ? "ADD made no interface in the pod" : "");
    const interfaces = (call.json as { interfaces?: unknown } | undefined)?.interfaces;
    const sandboxed = (Array.isArray(interfaces) ? interfaces : [])
      .filter(
        (i): i is { name: string; sandbox: string } =>
          typeof i?.name === "string" && typeof i?.sandbox === "string" && i.sandbox !== "",
      )
      .map((i) => i.name)
      .filter((n) => !given.includes(n));
    if (sandboxed.length > 0 && !sandboxed.includes(want)) {
      return fail(
        `the result's sandbox interface${sandboxed.length > 1 ? "s are" : " is"} ${list(sandboxed)}, not ${want} (CNI_IFNAME)`,
      );
    }
    if (sandboxed.length === 0 && made.length > 0 && !ctx.chained) {
      return fail(`ADD made ${list(made)} in the pod, but its result names no sandbox interface`);
    }
    if (sandboxed.length > 0) return pass();
    return pass(
      ctx.chained
        ? "chained: the result's sandbox interfaces are the prevResult's"
        : "the result names no sandbox interface and ADD made none (an IPAM plugin)",
    );
  },
};

const resultSane: Rule = {
  id: "result-sane",
  section:
    "Section 5, ADD Success (the fields of interfaces, ips, routes and dns, and their types)",
  title:
    "the ADD result has no null entries, ips[].interface indexes an interface, no two interfaces share a name in a sandbox, gateways and nameservers are IP addresses, DNS fields have their types (each finding with its JSON pointer)",
  level: "must",
  scope: "version",
  run: (ctx) => judgeAdded(ctx, (_, call) => passUnless(sanityFindings(call.json, ctx.version))),
};

/** ADDs `n` attachments on fresh pods; a failed ADD DELs what was added and is the verdict. */
async function addedMany(ctx: RuleContext, n: number): Promise<Attachment[] | Verdict> {
  const out: Attachment[] = [];
  for (let i = 0; i < n; i++) {
    const done = await added(ctx);
    if (isVerdict(done)) {
      await delAll(ctx, out);
      return done;
    }
    out.push(done);
  }
  return out;
}

/**
 * CHECKs `checked` before any GC, since GC is judged by CHECKs: when one fails (check-after-add's
 * finding, not the GC rule's), DELs `all` and says the rule does not apply.
 */
async function failsBeforeGC(
  ctx: RuleContext,
  checked: readonly Attachment[],
  all: readonly Attachment[],
): Promise<Verdict | undefined> {
  for (const a of checked) {
    const call = await check(ctx, a);
    if (call.exitCode === 0) continue;
    await delAll(ctx, all);
    return notApplicable(`CHECK fails before any GC (see check-after-add): ${told(call)}`);
  }
  return undefined;
}

const gcPartialList: Rule = {
  id: "gc-partial-list",
  section:
    "Section 2, GC (resources of attachments not in cni.dev/valid-attachments; a plugin SHOULD remove as many as possible)",
  title:
    "GC with two of three attachments listed keeps both working and releases the third (a warning when it does not)",
  level: "must",
  scope: "version",
  since: "1.1.0",
  async run(ctx) {
    const all = await addedMany(ctx, 3);
    if (isVerdict(all)) return all;
    const [first, unlisted, last] = all;
    const broken = await failsBeforeGC(ctx, all, all);
    if (broken !== undefined) return broken;
    // Listed out of ADD order, around the unlisted one: a GC keeping only the first (or the
    // last) entry of the list loses one.
    const collected = await gc(ctx, [last, first]);
    const lost: string[] = [];
    for (const [a, which] of [
      [last, "the first listed"],
      [first, "the second listed"],
    ] as const) {
      const call = await check(ctx, a);
      if (call.exitCode !== 0)
        lost.push(`${which} attachment's CHECK failed after GC: ${told(call)}`);
    }
    let released: boolean | undefined = (await check(ctx, unlisted)).exitCode !== 0;
    if (!released) {
      // A CHECK that also succeeds with a wrong prevResult tells nothing of the release.
      const wrong = altered(unlisted.add.json);
      const blind =
        wrong === undefined || (await checkWith(ctx, unlisted.pod, wrong.result)).exitCode === 0;
      if (blind) released = undefined;
    }
    await delAll(ctx, all);
    // GC's own failure is gc-valid-attachments's finding: here, what it did.
    const gcFailed =
      collected.exitCode === 0 ? "" : `; GC failed (see gc-valid-attachments): ${told(collected)}`;
    if (lost.length > 0) return fail(`${lost.join("; ")}${gcFailed}`);
    if (released === undefined) {
      return pass(
        `whether GC released the attachment it did not list is not known: its CHECK succeeds, also with a wrong prevResult (see check-wrong-prevresult)${gcFailed}`,
      );
    }
    if (!released) {
      return warn(
        `the attachment GC did not list is not released: its CHECK still succeeds after GC${gcFailed}`,
      );
    }
    return pass(gcFailed.slice(2));
  },
};

const gcConcurrent: Rule = {
  id: "gc-concurrent",
  section:
    "Section 3, Lifecycle & Ordering (plugins must handle concurrent execution; runtimes keep GC apart from ADD and DEL, so this is a should)",
  title: "GC run while ADD and DEL of other attachments run keeps the listed attachment working",
  level: "should",
  scope: "version",
  since: "1.1.0",
  async run(ctx) {
    const kept = await added(ctx);
    if (isVerdict(kept)) return kept;
    const broken = await failsBeforeGC(ctx, [kept], [kept]);
    if (broken !== undefined) return broken;
    // Two streams of ADD then DEL of other attachments, from before the GC starts until it
    // is done (at least one each, at most 10).
    const pods = [await ctx.session.pod(), await ctx.session.pod()];
    let gcDone = false;
    let ops = 0;
    const churn = async (first: Pod) => {
      let pod = first;
      for (let cycle = 0; cycle < 10; cycle++) {
        if (cycle > 0) {
          if (gcDone) return;
          pod = await ctx.session.pod();
        }
        const added = await add(ctx, pod);
        await del(ctx, pod, added.exitCode === 0 ? added.json : undefined);
        ops += 2;
      }
    };
    const streams = pods.map(churn);
    const collected = await gc(ctx, [kept]).finally(() => {
      gcDone = true;
    });
    await Promise.all(streams);
    const after = await check(ctx, kept);
    await del(ctx, kept.pod, kept.add.json);
    const gcNote = collected.exitCode === 0 ? "" : `; GC failed: ${told(collected)}`;
    if (after.exitCode !== 0) {
      return fail(
        `the listed attachment's CHECK failed after a GC run alongside ${ops} ADD and DEL of other attachments: ${told(after)}${gcNote}`,
      );
    }
    return pass(`GC ran alongside ${ops} ADD and DEL of other attachments${gcNote}`);
  },
};

/** How a leftover was found, in words. */
function leftoverTold(l: LeftoverRecord): string {
  const how = {
    group: "in the plugin's process group",
    session: "a daemon: a session of its own",
    namespace: "a process group of its own",
  }[l.how];
  const where = {
    host: ", in the plugin's network namespace",
    pod: ", in the pod's network namespace",
    elsewhere: "",
  }[l.where];
  return `\`${l.command}\` (${how}${where})`;
}

/** Read last: what every call of the check left running. */
const noLeftoverProcesses: Rule = {
  id: "no-leftover-processes",
  section:
    "Section 2, Overview (a plugin is a binary the runtime runs for one operation, which ends with its result)",
  title:
    "no process the plugin started still runs after its call (in its process group, or in the check's namespaces); the checker ends any it finds",
  level: "should",
  scope: "plugin",
  last: true,
  async run(ctx) {
    const { leftovers, calls } = ctx.session;
    if (leftovers.length === 0) return pass(`${calls.length} calls, none left a process running`);
    const seen = new Map<string, { record: LeftoverRecord; count: number }>();
    for (const l of leftovers) {
      const key = `${l.after}\0${leftoverTold(l)}`;
      const entry = seen.get(key);
      if (entry === undefined) seen.set(key, { record: l, count: 1 });
      else entry.count++;
    }
    const lines = [...seen.values()].map(
      ({ record, count }) =>
        `${count} after ${record.after} (first in ${record.during}): ${leftoverTold(record)}`,
    );
    return fail(
      `${leftovers.length} process${leftovers.length === 1 ? "" : "es"} outlived ${leftovers.length === 1 ? "its call" : "their calls"} (ended by the checker): ${lines.join("; ")}`,
    );
  },
};

/** Read last: every failed call of the whole check. */
const errorFormat: Rule = {
  id: "error-format",
  last: true,
  level: "should",
  section: "Section 2, Errors; Section 5, Error (plugins should output the error object)",
  title:
    "every failure exits non-zero with the spec's error object on stdout (integer code > 0, msg)",
  scope: "plugin",
  async run(ctx) {
    // A hang is told by the rule whose call hung: it printed nothing to judge.
    const failed = ctx.session.calls.filter((c) => c.exitCode !== 0 && !c.timedOut);
    if (failed.length === 0) return notApplicable("no call failed");
    const bad = failed.filter((c) => {
      const error = specError(c);
      return c.exitCode === undefined || error === undefined || error.code <= 0;
    });
    if (bad.length === 0) return pass(`${failed.length} failures, each with an error object`);
    return fail(
      `${bad.length} of ${failed.length} failures without a proper error object: ${bad.slice(0, 3).map(told).join("; ")}`,
    );
  },
};

/** Every rule, in the order reported; the plugin-wide ones first, but for the `last` ones. */
export const rules: readonly Rule[] = [
  versionOutput,
  versionHonest,
  versionUnsupported,
  envMissing,
  commandUnknown,
  inputMalformed,
  addResult,
  addIfname,
  resultSane,
  addPrevResult,
  checkAfterAdd,
  checkWrongPrevResult,
  delIdempotent,
  delWithoutAdd,
  delNetnsGone,
  delCleansUp,
  gcValidAttachments,
  gcPartialList,
  gcConcurrent,
  status,
  noLeftoverProcesses,
  errorFormat,
];

/** The message for the ids that name no rule; undefined when each names one. */
export function unknownRulesText(ids: readonly string[]): string | undefined {
  const unknown = ids.filter((id) => !rules.some((r) => r.id === id));
  if (unknown.length === 0) return undefined;
  return `unknown rules: ${unknown.join(", ")}; the rules are ${rules.map((r) => r.id).join(", ")}`;
}
