/**
 * The rules a plugin is held to, one named check each, with the section of SPEC.md 1.1.0 it
 * enforces. A rule runs its own plugin calls on fresh pods and undoes what it added; it says
 * `pass`, `fail` with what it saw, or `n/a` with why it does not apply.
 */
import { greaterThanOrEqualTo } from "../../version/index.js";
import { specError, told } from "./evidence.js";
import { resultProblems } from "./result-shape.js";
import type { CallOutcome, CallSpec, CheckSession, Pod } from "./session.js";
import type { RuleStatus } from "./types.js";

/** What a rule runs with. */
export interface RuleContext {
  readonly session: CheckSession;
  /** The spec version of this run ("" for the rules about the plugin as a whole). */
  readonly version: string;
  /** The versions the plugin claims. */
  readonly supportedVersions: readonly string[];
  /** The config for this version, `extra` keys set on it, with the pod's netns written into a prevResult's sandboxes. */
  config(pod?: Pod, extra?: Record<string, unknown>): string;
  /** True when the config carries a prevResult (the plugin is tested as a chained one). */
  readonly chained: boolean;
  /** The prevResult the config carries, as the plugin gets it for `pod`. */
  prevResult(pod: Pod): Record<string, unknown> | undefined;
}

/** A rule's verdict. */
export interface Verdict {
  status: RuleStatus;
  evidence: string;
}

/** One rule. */
export interface Rule {
  readonly id: string;
  /** The SPEC.md section it enforces. */
  readonly section: string;
  /** What it checks, in one line. */
  readonly title: string;
  /** `plugin`: run once; `version`: run for each spec version. */
  readonly scope: "plugin" | "version";
  /** The first spec version it applies to. */
  readonly since?: string;
  run(ctx: RuleContext): Promise<Verdict>;
}

const pass = (evidence = ""): Verdict => ({ status: "pass", evidence });
const fail = (evidence: string): Verdict => ({ status: "fail", evidence });
const notApplicable = (evidence: string): Verdict => ({ status: "n/a", evidence });

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

/** ADD on a fresh pod; a failed ADD is the verdict's evidence (the rule cannot go on). */
async function added(ctx: RuleContext): Promise<{ pod: Pod; add: CallOutcome } | Verdict> {
  const pod = await ctx.session.pod();
  const call = await add(ctx, pod);
  if (call.exitCode !== 0) {
    await del(ctx, pod);
    return fail(`ADD failed, so the rule could not run: ${told(call)}`);
  }
  return { pod, add: call };
}

const isVerdict = (v: unknown): v is Verdict =>
  typeof v === "object" && v !== null && "status" in v && "evidence" in v;

/** Expects a refusal with `code`; cleans up after a plugin that accepted. */
async function refused(
  ctx: RuleContext,
  pod: Pod,
  call: CallOutcome,
  code: number,
  what: string,
): Promise<string | undefined> {
  if (call.exitCode === 0) {
    await del(ctx, pod, call.json);
    return `${what}: accepted (${told(call)})`;
  }
  const error = specError(call);
  if (error === undefined) return `${what}: no error object on stdout (${told(call)})`;
  if (error.code !== code)
    return `${what}: code ${error.code} (${error.msg}), the spec's is ${code}`;
  return undefined;
}

/** One call on a fresh pod that the plugin must refuse with the spec's `code`. */
async function refusal(
  ctx: RuleContext,
  code: number,
  what: string,
  call: (pod: Pod) => CallSpec,
): Promise<Verdict> {
  const pod = await ctx.session.pod();
  const outcome = await ctx.session.call(call(pod));
  const problem = await refused(ctx, pod, outcome, code, what);
  return problem === undefined ? pass() : fail(problem);
}

const versionOutput: Rule = {
  id: "version-output",
  section: "Section 2, VERSION; Section 5, Version",
  title: "VERSION prints cniVersion and a non-empty supportedVersions list of versions",
  scope: "plugin",
  async run(ctx) {
    const call = await ctx.session.call({ command: "VERSION", stdin: '{"cniVersion":"1.1.0"}' });
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
    return problems.length === 0 ? pass() : fail(problems.join("; "));
  },
};

const commandUnknown: Rule = {
  id: "command-unknown",
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
  section: "Section 5, ADD Success",
  title:
    "ADD prints a result of the config's version: well-formed addresses, interface indices in range, the pod's sandbox",
  scope: "version",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    const problems = resultProblems(call.stdout, call.json, ctx.version, pod.netns);
    await del(ctx, pod, call.json);
    return problems.length === 0 ? pass() : fail(problems.join("; "));
  },
};

const addPrevResult: Rule = {
  id: "add-prevresult",
  section: "Section 3, Adding an attachment; Section 4 (chained plugins pass prevResult on)",
  title: "a chained ADD keeps the prevResult's interfaces and addresses in its result",
  scope: "version",
  since: "0.3.0",
  async run(ctx) {
    if (!ctx.chained)
      return notApplicable("the config has no prevResult (not tested as a chained plugin)");
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    const prev = ctx.prevResult(pod) ?? {};
    const out = (call.json ?? {}) as Record<string, unknown>;
    const names = (v: unknown) =>
      Array.isArray(v) ? v.map((i) => (i as { name?: unknown }).name) : [];
    const addresses = (v: unknown) =>
      Array.isArray(v) ? v.map((i) => (i as { address?: unknown }).address) : [];
    const lost = [
      ...names(prev.interfaces)
        .filter((n) => !names(out.interfaces).includes(n))
        .map((n) => `interface ${n}`),
      ...addresses(prev.ips)
        .filter((a) => !addresses(out.ips).includes(a))
        .map((a) => `address ${a}`),
    ];
    await del(ctx, pod, call.json);
    return lost.length === 0 ? pass() : fail(`the result lost the prevResult's ${lost.join(", ")}`);
  },
};

const checkAfterAdd: Rule = {
  id: "check-after-add",
  section: "Section 2, CHECK",
  title: "CHECK with the ADD's result as prevResult succeeds",
  scope: "version",
  since: "0.4.0",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    const check = await ctx.session.call({
      command: "CHECK",
      stdin: withResult(ctx, pod, call.json),
      ...pod,
    });
    await del(ctx, pod, call.json);
    return check.exitCode === 0 ? pass() : fail(told(check));
  },
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
  section: "Section 2, CHECK (the plugin checks the attachment against prevResult)",
  title: "CHECK with a prevResult that does not match what ADD set up fails",
  scope: "version",
  since: "0.4.0",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    const wrong = altered(call.json);
    if (wrong === undefined) {
      await del(ctx, pod, call.json);
      return notApplicable("the ADD's result has no address or MAC to alter");
    }
    const check = await ctx.session.call({
      command: "CHECK",
      stdin: ctx.config(pod, { prevResult: wrong.result }),
      ...pod,
    });
    await del(ctx, pod, call.json);
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
  },
};

const delIdempotent: Rule = {
  id: "del-idempotent",
  section: "Section 2, DEL (plugins should generally complete a DEL without error)",
  title: "DEL succeeds twice in a row",
  scope: "version",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    const first = await del(ctx, pod, call.json);
    const second = await del(ctx, pod, call.json);
    const problems = [first, second].filter((c) => c.exitCode !== 0).map(told);
    return problems.length === 0 ? pass() : fail(problems.join("; "));
  },
};

const delWithoutAdd: Rule = {
  id: "del-without-add",
  section: "Section 2, DEL (a DEL of an attachment that does not exist succeeds)",
  title: "DEL of an attachment never added succeeds",
  scope: "version",
  async run(ctx) {
    const pod = await ctx.session.pod();
    const call = await del(ctx, pod);
    return call.exitCode === 0 ? pass() : fail(told(call));
  },
};

const delNetnsGone: Rule = {
  id: "del-netns-gone",
  section: "Section 2, DEL (CNI_NETNS may no longer exist)",
  title: "DEL succeeds after the pod's namespace is gone",
  scope: "version",
  async run(ctx) {
    const done = await added(ctx);
    if (isVerdict(done)) return done;
    const { pod, add: call } = done;
    await ctx.session.removePod(pod);
    const gone = await del(ctx, pod, call.json);
    return gone.exitCode === 0 ? pass() : fail(told(gone));
  },
};

/** Link kinds that belong to one attachment: left after its DEL, they leak. */
const perAttachmentKinds = new Set(["veth", "macvlan", "ipvlan", "ifb", "vlan", "dummy", "tun"]);

const delCleansUp: Rule = {
  id: "del-cleans-up",
  section: "Section 2, DEL (release all resources for the attachment)",
  title: "DEL removes the interfaces ADD made, in the pod and on the host side",
  scope: "version",
  async run(ctx) {
    const pod = await ctx.session.pod();
    const [podBefore, hostBefore] = [await ctx.session.links(pod.netns), await ctx.session.links()];
    const call = await add(ctx, pod);
    if (call.exitCode !== 0) {
      await del(ctx, pod);
      return fail(`ADD failed, so the rule could not run: ${told(call)}`);
    }
    const deleted = await del(ctx, pod, call.json);
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
  section: "Section 2, GC; Section 3, Garbage-collecting a network",
  title: "GC succeeds and leaves the attachments in cni.dev/valid-attachments working",
  scope: "version",
  since: "1.1.0",
  async run(ctx) {
    const kept = await added(ctx);
    if (isVerdict(kept)) return kept;
    const stale = await added(ctx);
    if (isVerdict(stale)) {
      await del(ctx, kept.pod, kept.add.json);
      return stale;
    }
    // GC is judged by the kept attachment's CHECK: a CHECK that fails before any GC is
    // check-after-add's finding, not this rule's.
    const before = await ctx.session.call({
      command: "CHECK",
      stdin: withResult(ctx, kept.pod, kept.add.json),
      ...kept.pod,
    });
    if (before.exitCode !== 0) {
      await del(ctx, kept.pod, kept.add.json);
      await del(ctx, stale.pod, stale.add.json);
      return notApplicable(`CHECK fails before any GC (see check-after-add): ${told(before)}`);
    }
    const valid = [{ containerID: kept.pod.containerID, ifname: kept.pod.ifName }];
    const gc = await ctx.session.call({
      command: "GC",
      stdin: ctx.config(undefined, {
        "cni.dev/valid-attachments": valid,
        "cni.dev/attachments": valid,
      }),
    });
    const check = await ctx.session.call({
      command: "CHECK",
      stdin: withResult(ctx, kept.pod, kept.add.json),
      ...kept.pod,
    });
    await del(ctx, kept.pod, kept.add.json);
    await del(ctx, stale.pod, stale.add.json);
    if (gc.exitCode !== 0) return fail(`GC failed: ${told(gc)}`);
    return check.exitCode === 0
      ? pass()
      : fail(`the valid attachment's CHECK failed after GC: ${told(check)}`);
  },
};

const status: Rule = {
  id: "status",
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

/** Read last: every failed call of the whole check. */
const errorFormat: Rule = {
  id: "error-format",
  section: "Section 2, Errors; Section 5, Error",
  title:
    "every failure exits non-zero with the spec's error object on stdout (integer code > 0, msg)",
  scope: "plugin",
  async run(ctx) {
    const failed = ctx.session.calls.filter((c) => c.exitCode !== 0);
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

/** Every rule, in the order they run; error-format last (it reads the others' calls). */
export const rules: readonly Rule[] = [
  versionOutput,
  versionUnsupported,
  envMissing,
  commandUnknown,
  inputMalformed,
  addResult,
  addPrevResult,
  checkAfterAdd,
  checkWrongPrevResult,
  delIdempotent,
  delWithoutAdd,
  delNetnsGone,
  delCleansUp,
  gcValidAttachments,
  status,
  errorFormat,
];
