/**
 * `checkPlugin`: runs a plugin binary, of any language, through the rules (rules.ts) for every
 * spec version it claims, in namespaces of the checker's own, and reports each rule's outcome.
 */
import { access, constants } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { InvalidArgumentError } from "../../errors.js";
import { greaterThanOrEqualTo, all as knownVersions } from "../../version/index.js";
import { compareVersions } from "../../version/parse.js";
import { rules as allRules, type Rule, type RuleContext } from "./rules.js";
import { CheckSession, type Pod } from "./session.js";
import type { CheckPluginOptions, ConformanceReport, RuleResult } from "./types.js";

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
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError("config", "the plugin config must be a JSON object");
  }
  return value as Record<string, unknown>;
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
): RuleContext {
  const prevResult = (pod: Pod | undefined) => prevResultFor(base.prevResult, version, pod);
  return {
    session,
    version,
    supportedVersions,
    chained: base.prevResult !== undefined,
    prevResult: (pod) => prevResult(pod),
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

async function runRule(rule: Rule, ctx: RuleContext): Promise<RuleResult> {
  const result = { rule: rule.id, version: ctx.version, section: rule.section };
  if (
    rule.since !== undefined &&
    ctx.version !== "" &&
    !greaterThanOrEqualTo(ctx.version, rule.since)
  ) {
    return { ...result, status: "n/a", evidence: `the rule applies from ${rule.since}` };
  }
  try {
    return { ...result, ...(await rule.run(ctx)) };
  } catch (error) {
    // A stopped check is no rule's failure: it rejects with the caller's reason.
    if (ctx.session.signal?.aborted) throw ctx.session.signal.reason;
    return {
      ...result,
      status: "fail",
      evidence: `the rule could not run: ${(error as Error).message}`,
    };
  }
}

/** The versions the plugin's VERSION answer claims (empty when it has no usable answer). */
async function claimedVersions(session: CheckSession): Promise<string[]> {
  const call = await session.call({ command: "VERSION", stdin: '{"cniVersion":"1.1.0"}' });
  const versions = (call.json as { supportedVersions?: unknown } | undefined)?.supportedVersions;
  if (call.exitCode !== 0 || !Array.isArray(versions)) return [];
  return versions.filter((v): v is string => typeof v === "string");
}

/**
 * Checks a plugin against the spec's rules, for each version it claims (or `versions`), and
 * resolves to the report; a failing rule is a result, not an error. Needs root (namespaces).
 * @throws InvalidArgumentError for a plugin that is not an executable file, a bad config or an
 *   unknown rule; a NetnsError when namespaces cannot be made.
 */
export async function checkPlugin(
  plugin: string,
  options: CheckPluginOptions = {},
): Promise<ConformanceReport> {
  const path = resolve(plugin);
  try {
    await access(path, constants.X_OK);
  } catch {
    throw new InvalidArgumentError("plugin", `${plugin} is not an executable file`);
  }
  const unknown = (options.rules ?? []).filter((id) => !allRules.some((r) => r.id === id));
  if (unknown.length > 0) {
    throw new InvalidArgumentError(
      "rules",
      `unknown rules: ${unknown.join(", ")}; the rules are ${allRules.map((r) => r.id).join(", ")}`,
    );
  }
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
    const supportedVersions = await claimedVersions(session);
    let versions = [...supportedVersions]
      .sort(compareVersions)
      .filter(
        (v) =>
          knownVersions.supportedVersions().includes(v) &&
          (options.versions === undefined || options.versions.includes(v)),
      );
    // A prevResult is written in the 0.3.0-and-later shape: older versions cannot carry it.
    if (base.prevResult !== undefined)
      versions = versions.filter((v) => greaterThanOrEqualTo(v, "0.3.0"));
    if (versions.length === 0 && selected.some((r) => r.scope === "version")) {
      throw new InvalidArgumentError(
        "versions",
        `no spec version to check with: the plugin claims ${supportedVersions.join(", ") || "none"}${options.versions === undefined ? "" : `, asked for ${options.versions.join(", ")}`}`,
      );
    }
    const results: RuleResult[] = [];
    const newest = versions.at(-1) ?? supportedVersions.at(-1) ?? "1.0.0";
    for (const rule of selected.filter((r) => r.scope === "plugin" && r.id !== "error-format")) {
      results.push(await runRule(rule, contextFor(session, base, newest, supportedVersions)));
    }
    for (const version of versions) {
      const ctx = contextFor(session, base, version, supportedVersions);
      for (const rule of selected.filter((r) => r.scope === "version"))
        results.push(await runRule(rule, ctx));
    }
    const errorFormat = selected.find((r) => r.id === "error-format");
    if (errorFormat !== undefined) {
      results.push({
        ...(await runRule(errorFormat, contextFor(session, base, newest, supportedVersions))),
        version: "",
      });
    }
    for (const r of results)
      if (r.rule === "version-output" || r.rule === "version-unsupported") r.version = "";
    return {
      plugin: path,
      supportedVersions,
      versions,
      results,
      passed: results.every((r) => r.status !== "fail"),
    };
  } finally {
    await session.close();
  }
}
