/** The plugin conformance checker: any plugin binary run through the rules of SPEC.md 1.1.0. */
import { rules } from "./rules.js";
import type { ConformanceRule } from "./types.js";

export { checkPlugin } from "./check.js";
export { formatReport } from "./report.js";
export { rules } from "./rules.js";
export type {
  CheckPluginOptions,
  ConformanceReport,
  ConformanceRule,
  FormatReportOptions,
  RuleLevel,
  RuleResult,
  RuleStatus,
  VersionCounts,
} from "./types.js";

/** Every rule of the checker, in the order they are reported. */
export const conformanceRules: readonly ConformanceRule[] = Object.freeze(
  rules.map(({ id, section, title, level, scope, since }) =>
    Object.freeze({ id, section, title, level, scope, since }),
  ),
);
