/**
 * The plugin conformance checker: any plugin binary run through the rules of SPEC.md 1.1.0.
 */
export { checkPlugin } from "./check.js";
export { formatReport } from "./report.js";
export { type Rule, rules } from "./rules.js";
export type { CheckPluginOptions, ConformanceReport, RuleResult, RuleStatus } from "./types.js";
