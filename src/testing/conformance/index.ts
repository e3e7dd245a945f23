/**
 * The plugin conformance checker: any plugin binary run through the rules of SPEC.md 1.1.0.
 */
import { rules } from "./rules.js";

export { checkPlugin } from "./check.js";
export { formatReport } from "./report.js";
export { type Rule, rules } from "./rules.js";
export type {
  CheckPluginOptions,
  ConformanceReport,
  FormatReportOptions,
  RuleLevel,
  RuleResult,
  RuleStatus,
  VersionCounts,
} from "./types.js";

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

/** Every rule of the checker, in the order they are reported. */
export const conformanceRules: readonly ConformanceRule[] = Object.freeze(
  rules.map(({ id, section, title, level, scope, since }) =>
    Object.freeze({ id, section, title, level, scope, since }),
  ),
);
