/** What the conflist linter reports. */

/** How serious a finding is: an `error` breaks the network or the spec, a `warning` is advice. */
export type LintSeverity = "error" | "warning";

/** One finding: where (a JSON Pointer into the conflist, RFC 6901), what, and how serious. */
export interface LintFinding {
  /** Where: `"/plugins/0/capabilities/portMapping"`; `""` is the whole document. */
  pointer: string;
  /** What is wrong, in a sentence. */
  message: string;
  /** Whether it is an error or a warning (the list it is in says the same). */
  severity: LintSeverity;
}

/** The findings of one lint, each list in a stable order (document order, then message). */
export interface LintResult {
  /** What breaks the network or contradicts a "must" of the spec. */
  errors: LintFinding[];
  /** What works here but is likely a mistake or not portable. */
  warnings: LintFinding[];
}
