/**
 * The plugin conformance checker's vocabulary: rules, their outcomes, the report.
 */

/**
 * How a rule came out for one spec version: `fail` breaks a "must" of the spec, `warn` a
 * "should" (reported, never a failure of the check), `n/a` says why the rule does not apply.
 */
export type RuleStatus = "pass" | "fail" | "warn" | "n/a";

/**
 * The strength of what a rule (or one verdict of it) holds the plugin to, as SPEC.md words it
 * (RFC 2119): a broken "must" is a failure, a broken "should" a warning.
 */
export type RuleLevel = "must" | "should";

/** One rule's outcome for one spec version (or for the plugin, for the plugin-wide rules). */
export interface RuleResult {
  /** The rule's id (`add-result`, `del-idempotent`...). */
  rule: string;
  /** The spec version the rule ran with; "" for rules about the plugin as a whole. */
  version: string;
  /** The spec section the rule holds the plugin to. */
  section: string;
  /**
   * The level of the requirement this outcome judges: the rule's, or `should` for a warning
   * of a "must" rule about a "should" of the same section (gc-partial-list's release).
   */
  level: RuleLevel;
  status: RuleStatus;
  /** What was seen: why it failed or warned, or why it does not apply. */
  evidence: string;
}

/** How many results of one spec version (or of the plugin-wide rules: version "") came out how. */
export type VersionCounts = { version: string } & Record<RuleStatus, number>;

/** Everything the checker found about one plugin. */
export interface ConformanceReport {
  /** The plugin's path. */
  plugin: string;
  /** The versions the plugin's VERSION answer claims. */
  supportedVersions: string[];
  /** The versions the rules ran with. */
  versions: string[];
  /** Every rule's outcome, rule by rule, version by version. */
  results: RuleResult[];
  /**
   * The outcomes counted per spec version: the plugin-wide rules first (version ""), then each
   * version checked, in order.
   */
  counts: VersionCounts[];
  /** True when no rule failed (warnings do not fail a check). */
  passed: boolean;
}

/** Options of `checkPlugin`. */
export interface CheckPluginOptions {
  /**
   * The plugin configuration to test with (an object, or its JSON text): its `cniVersion` and
   * `name` are set by the checker for each version; a `prevResult` in it makes the plugin's
   * ADD a chained one. Default `{ "type": <the plugin's file name> }`.
   */
  config?: Record<string, unknown> | string;
  /** The spec versions to run with (among those the plugin claims). Default: all it claims. */
  versions?: readonly string[];
  /** Only these rules (by id). Default: every rule. */
  rules?: readonly string[];
  /** Extra directories for CNI_PATH (delegated IPAM plugins). Default: the plugin's own dir. */
  path?: readonly string[];
  /**
   * Milliseconds each plugin call may take; a call still running then is stopped (SIGTERM to
   * its process group, SIGKILL a second later) and reported as a hang of its verb. Default
   * 30000; an integer from 1 to 2147483647 (about 24.8 days, the longest a Node timer waits:
   * a longer limit is refused, never turned into an instant hang).
   */
  callTimeoutMs?: number;
  /** Aborting stops the check. */
  signal?: AbortSignal;
}

/** Options of `formatReport`. */
export interface FormatReportOptions {
  /**
   * `text` (default): one line per rule and version, for a terminal or a CI log. `markdown`: a
   * table of rules by spec version with the counts and the findings, for a plugin's README;
   * nothing in it changes from run to run but what the plugin does (no paths, pids or names
   * of the checker's namespaces), so CI can diff it.
   */
  format?: "text" | "markdown";
}
