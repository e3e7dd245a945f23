/**
 * The checker's human report: one line per rule and version, failures with what was seen.
 */
import type { ConformanceReport } from "./types.js";

const marks = { pass: "PASS", fail: "FAIL", "n/a": "n/a " } as const;

/** The report as text, for a terminal or a CI log. */
export function formatReport(report: ConformanceReport): string {
  const lines = [
    `plugin ${report.plugin}`,
    `claims ${report.supportedVersions.join(", ") || "(no usable VERSION answer)"}; checked with ${report.versions.join(", ") || "(none)"}`,
    "",
  ];
  for (const r of report.results) {
    const version = r.version === "" ? "" : ` [${r.version}]`;
    const evidence = r.evidence === "" ? "" : `\n       ${r.evidence}`;
    lines.push(`${marks[r.status]} ${r.rule}${version} (${r.section})${evidence}`);
  }
  const count = (s: string) => report.results.filter((r) => r.status === s).length;
  lines.push(
    "",
    `${count("pass")} passed, ${count("fail")} failed, ${count("n/a")} not applicable`,
  );
  return lines.join("\n");
}
