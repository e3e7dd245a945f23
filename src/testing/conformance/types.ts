/**
 * The plugin conformance checker's vocabulary: rules, their outcomes, the report.
 */

/** How a rule came out for one spec version. */
export type RuleStatus = "pass" | "fail" | "n/a";

/** One rule's outcome for one spec version (or for the plugin, for the VERSION rules). */
export interface RuleResult {
  /** The rule's id (`add-result`, `del-idempotent`...). */
  rule: string;
  /** The spec version the rule ran with; "" for rules about the plugin as a whole. */
  version: string;
  /** The spec section the rule holds the plugin to. */
  section: string;
  status: RuleStatus;
  /** What was seen: why it failed, or why it does not apply. */
  evidence: string;
}

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
  /** True when no rule failed. */
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
  /** Milliseconds each plugin call may take before it is stopped. Default 30000. */
  callTimeoutMs?: number;
  /** Aborting stops the check. */
  signal?: AbortSignal;
}
