/** `checkPlugin`: a plugin binary through the rules (rules.ts), for every version it claims. */
import { basename, resolve } from "node:path";
import {
  assertDuration,
  assertOptions,
  InvalidArgumentError,
  wrongTypeError,
} from "../../errors/base.js";
import { isJSONObject } from "../../internal/json-kind.js";
import { executableError } from "../../netns/exec.js";
import { greaterThanOrEqualTo, all as knownVersions } from "../../version/index.js";
import { compareVersions } from "../../version/parse.js";
import { countsOf } from "./report.js";
import { rules as allRules, type Rule, type RuleContext, unknownRulesText } from "./rules.js";
import { type CallOutcome, CheckSession, type Pod } from "./session.js";
import type { CheckPluginOptions, ConformanceReport, RuleResult, RuleStatus } from "./types.js";

function baseConfig(plugin: string, config: CheckPluginOptions["config"]): Record<string, unknown> {
  if (config === undefined) return { type: basename(plugin) };
  let value: unknown = config;
  if (typeof config === "string") {
    try {
      value = JSON.parse(config);
    } catch (error) {
      throw new InvalidArgumentError(
        "config",
        `the plugin config is not JSON: ${(error as Error).message}`,
      );
    }
  }
  if (!isJSONObject(value)) {
    throw new InvalidArgumentError("config", "the plugin config must be a JSON object");
  }
  return value;
}

/** A prevResult as the plugin gets it for `pod` in `version`: its sandboxes the pod's netns. */
function prevResultFor(
  prev: unknown,
  version: string,
  pod: Pod | undefined,
): Record<string, unknown> | undefined {
  if (typeof prev !== "object" || prev === null) return undefined;
  const copy = JSON.parse(JSON.stringify(prev)) as Record<string, unknown>;
  copy.cniVersion = version;
  for (const iface of (copy.interfaces as Record<string, unknown>[] | undefined) ?? []) {
    // "" means an interface on the host side: it stays so.
    if (typeof iface.sandbox === "string" && iface.sandbox !== "" && pod !== undefined) {
      iface.sandbox = pod.netns;
    }
  }
  if (!greaterThanOrEqualTo(version, "1.0.0")) {
    for (const ip of (copy.ips as Record<string, unknown>[] | undefined) ?? []) {
      ip.version ??= String(ip.address).includes(":") ? "6" : "4";
    }
  }
  return copy;
}

function contextFor(
  session: CheckSession,
  base: Record<string, unknown>,
  version: string,
  supportedVersions: readonly string[],
  versionCall: CallOutcome,
): RuleContext {
  const prevResult = (pod: Pod | undefined) => prevResultFor(base.prevResult, version, pod);
  return {
    session,
    version,
    supportedVersions,
    versionCall,
    chained: base.prevResult !== undefined,
    prevResult,
    at: (other) => contextFor(session, base, other, supportedVersions, versionCall),
    config(pod, extra = {}) {
      const conf: Record<string, unknown> = {
        ...base,
        cniVersion: version,
        name: session.networkName,
      };
      if (base.prevResult !== undefined) conf.prevResult = prevResult(pod);
      return JSON.stringify({ ...conf, ...extra });
    },
  };
}

/** Runs a rule for one version (`reported`: "" for the plugin-wide rules). */
async function runRule(rule: Rule, ctx: RuleContext, reported = ctx.version): Promise<RuleResult> {
  const result = { rule: rule.id, version: reported, section: rule.section };
  if (
    rule.since !== undefined &&
    ctx.version !== "" &&
    !greaterThanOrEqualTo(ctx.version, rule.since)
  ) {
    return {
      ...result,
      level: rule.level,
      status: "n/a",
      evidence: `the rule applies from ${rule.since}`,
    };
  }
  ctx.session.during = reported === "" ? rule.id : `${rule.id} [${reported}]`;
  try {
    const {
      status,
      evidence,
      level = status === "warn" ? "should" : rule.level,
    } = await rule.run(ctx);
    const judged: RuleStatus = status === "fail" && level === "should" ? "warn" : status;
    return { ...result, level, status: judged, evidence };
  } catch (error) {
    // A stopped check is no rule's failure: it rejects with the caller's reason.
    if (ctx.session.signal?.aborted) throw ctx.session.signal.reason;
    return {
      ...result,
      level: rule.level,
      status: rule.level === "should" ? "warn" : "fail",
      evidence: `the rule could not run: ${(error as Error).message}`,
    };
  }
}

/** The check's first call, VERSION, and the versions it claims (none without a usable answer). */
async function claimedVersions(
  session: CheckSession,
): Promise<{ call: CallOutcome; versions: string[] }> {
  const call = await session.call({ command: "VERSION", stdin: '{"cniVersion":"1.1.0"}' });
  const versions = (call.json as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  if (call.exitCode !== 0 || !Array.isArray(versions)) return { call, versions: [] };
  return { call, versions: versions.filter((v): v is string => typeof v === "string") };
}

/**
 * Checks a plugin against the spec's rules, for each version it claims (or `versions`), and
 * resolves to the report; a failing rule is a result, not an error, and so is a plugin that
 * hangs (on VERSION too: version-output says so) or claims no version there is. Needs root
 * (namespaces).
 * @throws InvalidArgumentError for a plugin that is not an executable file (a directory
 *   included), a `callTimeoutMs` that is not an integer from 1 to 2147483647, a bad config, an
 *   unknown rule, or `versions` (or a chained config) that leave none of the versions the
 *   plugin claims; a NetnsError when namespaces cannot be made.
 */
export async function checkPlugin(
  plugin: string,
  options: CheckPluginOptions = {},
): Promise<ConformanceReport> {
  if (typeof plugin !== "string") throw wrongTypeError("plugin", "a string", plugin);
  assertOptions(options);
  assertDuration("callTimeoutMs", options.callTimeoutMs, { min: 1 });
  const path = resolve(plugin);
  // A regular file (a link followed) this process may execute: X_OK alone passes a directory
  // (its search bit), which every call would then fail to start with EACCES.
  if ((await executableError(path)) !== undefined) {
    throw new InvalidArgumentError("plugin", `${plugin} is not an executable file`);
  }
  const unknown = unknownRulesText(options.rules ?? []);
  if (unknown !== undefined) throw new InvalidArgumentError("rules", unknown);
  const base = baseConfig(path, options.config);
  const selected = allRules.filter(
    (r) => options.rules === undefined || options.rules.includes(r.id),
  );
  const session = await CheckSession.open(
    path,
    options.path ?? [],
    options.callTimeoutMs ?? 30_000,
    options.signal,
  );
  try {
    const { call: versionCall, versions: supportedVersions } = await claimedVersions(session);
    const context = (version: string) =>
      contextFor(session, base, version, supportedVersions, versionCall);
    const known = knownVersions.supportedVersions();
    const claimedKnown = [...new Set(supportedVersions)]
      .filter((v) => known.includes(v))
      .sort(compareVersions);
    let versions = claimedKnown.filter(
      (v) => options.versions === undefined || options.versions.includes(v),
    );
    // A prevResult is written in the 0.3.0-and-later shape: older versions cannot carry it.
    if (base.prevResult !== undefined)
      versions = versions.filter((v) => greaterThanOrEqualTo(v, "0.3.0"));
    // No version to check with: the plugin's doing (no usable VERSION answer, or only versions
    // that do not exist) is version-output's or version-honest's finding; else the caller's.
    const pluginsDoing = claimedKnown.length === 0;
    if (versions.length === 0 && !pluginsDoing && selected.some((r) => r.scope === "version")) {
      throw new InvalidArgumentError(
        "versions",
        `no spec version to check with: the plugin claims ${supportedVersions.join(", ")}${options.versions === undefined ? "" : `, asked for ${options.versions.join(", ")}`}${base.prevResult === undefined ? "" : " (a chained check needs 0.3.0 or later)"}`,
      );
    }
    const results: RuleResult[] = [];
    const newest = versions.at(-1) ?? claimedKnown.at(-1) ?? "1.1.0";
    const plugin = (r: Rule) => r.scope === "plugin";
    // A plugin claiming no known version (`versions` is then empty) can be asked nothing else:
    // why is reported (version-output's and version-honest's verdicts, asked for or not), with
    // the rules reading the calls made.
    const first = pluginsDoing
      ? allRules.filter((r) => r.id === "version-output" || r.id === "version-honest")
      : selected.filter((r) => plugin(r) && r.last !== true);
    for (const rule of first) results.push(await runRule(rule, context(newest), ""));
    for (const version of versions) {
      const ctx = context(version);
      for (const rule of selected.filter((r) => !plugin(r))) results.push(await runRule(rule, ctx));
    }
    for (const rule of selected.filter((r) => r.last === true))
      results.push(await runRule(rule, context(newest), ""));
    return {
      plugin: path,
      supportedVersions,
      versions,
      results,
      counts: countsOf(results, versions),
      passed: results.every((r) => r.status !== "fail"),
    };
  } finally {
    await session.close();
  }
}
