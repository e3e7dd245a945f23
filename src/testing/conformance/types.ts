/** The plugin conformance checker's vocabulary: rules, their outcomes, the report. */

/**
 * How a rule came out for one spec version: `fail` breaks a "must" of the spec, `warn` a
 * "should" (reported, never a failure of the check), `n/a` says why the rule does not apply.
 */
export type RuleStatus = "pass" | "fail" | "warn" | "n/a";

/** The strength of a requirement, as SPEC.md words it (RFC 2119). */
export type RuleLevel = "must" | "should";

/** A rule as documented: its id, the SPEC.md section it enforces, what it checks. */
export interface ConformanceRule {
  readonly id: string;
  readonly section: string;
  readonly title: string;
  /** How the spec words it: a broken `must` fails a check, a broken `should` is a warning. */
  readonly level: "must" | "should";
  /** `plugin`: checked once; `version`: for each spec version the plugin claims. */
  readonly scope: "plugin" | "version";
  /** The first spec version it applies to. */
  readonly since: string | undefined;
}

/** One rule's outcome for one spec version (or for the plugin, for the plugin-wide rules). */
export interface RuleResult {
  /** The rule's id (`add-result`, `del-idempotent`...). */
  rule: string;
  /** The spec version the rule ran with; "" for rules about the plugin as a whole. */
  version: string;
  /** The spec section the rule holds the plugin to. */
  section: string;
  /** The level this outcome judges: the rule's, or `should` for a "should" part of a "must". */
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
  /** The outcomes counted per version: the plugin-wide rules' (version "") first. */
  counts: VersionCounts[];
  /** True when no rule failed (warnings do not fail a check). */
  passed: boolean;
}

/** Options of `checkPlugin`. */
export interface CheckPluginOptions {
  /**
   * The plugin config (an object, or its JSON text); the checker sets `cniVersion` and `name`,
   * a `prevResult` makes ADD a chained one. Default `{ "type": <the plugin's file name> }`.
   */
  config?: Record<string, unknown> | string;
  /** The spec versions to run with (among those the plugin claims). Default: all it claims. */
  versions?: readonly string[];
  /** Only these rules (by id). Default: every rule. */
  rules?: readonly string[];
  /** Extra directories for CNI_PATH (delegated IPAM plugins). Default: the plugin's own dir. */
  path?: readonly string[];
  /**
   * Milliseconds each plugin call may take, then it is stopped and reported as a hang of its
   * verb. Default 30000; an integer from 1 to 2147483647 (the longest a Node timer waits).
   */
  callTimeoutMs?: number;
  /** Aborting stops the check. */
  signal?: AbortSignal;
}

/** Options of `formatReport`. */
export interface FormatReportOptions {
  /**
   * `text` (default): one line per rule and version. `markdown`: a table of rules by version,
   * the counts and the findings, for a plugin's README, stable from run to run (CI can diff it).
   */
  format?: "text" | "markdown";
}
