/** The checker's reports, as text and as Markdown (FormatReportOptions). */
import { basename } from "node:path";
import { assertOptions, wrongTypeError } from "../../errors/base.js";
import { isJSONObject } from "../../internal/json-kind.js";
import type { ConformanceReport, FormatReportOptions, RuleResult, VersionCounts } from "./types.js";

const marks = { pass: "PASS", fail: "FAIL", warn: "WARN", "n/a": "n/a " } as const;

/** The count of `n` things: `1 warning`, `2 warnings`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The results of `version` counted; of every version for "total". */
function tally(results: readonly RuleResult[], version: string): VersionCounts {
  const counts: VersionCounts = { version, pass: 0, fail: 0, warn: 0, "n/a": 0 };
  for (const r of results) if (version === "total" || r.version === version) counts[r.status]++;
  return counts;
}

/** The results counted per version: the plugin-wide ones (""), then each version in order. */
export function countsOf(results: readonly RuleResult[], versions: readonly string[]) {
  return ["", ...versions].map((version) => tally(results, version));
}

/** The report's counts (counted again for a report written before it had them). */
const countsIn = (report: ConformanceReport) =>
  report.counts ?? countsOf(report.results, report.versions);

const total = (report: ConformanceReport) => tally(report.results, "total");

/** The report as text, for a terminal or a CI log. */
function formatText(report: ConformanceReport): string {
  const lines = [
    `plugin ${report.plugin}`,
    `claims ${report.supportedVersions.join(", ") || "(no usable VERSION answer: see version-output)"}; checked with ${report.versions.join(", ") || "(none)"}`,
    "",
  ];
  for (const r of report.results) {
    const version = r.version === "" ? "" : ` [${r.version}]`;
    const evidence = r.evidence === "" ? "" : `\n       ${r.evidence}`;
    lines.push(`${marks[r.status]} ${r.rule}${version} (${r.level}: ${r.section})${evidence}`);
  }
  const counts = countsIn(report);
  if (report.results.length > 0) {
    const name = (c: VersionCounts) => (c.version === "" ? "(plugin)" : c.version);
    const rows = [...counts, total(report)].map((c) => [
      name(c),
      ...(["pass", "fail", "warn", "n/a"] as const).map((s) => String(c[s])),
    ]);
    const head = ["version", "passed", "failed", "warnings", "n/a"];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
    lines.push("", line(head), ...rows.map(line));
  }
  const all = total(report);
  lines.push(
    "",
    `${all.pass} passed, ${all.fail} failed, ${plural(all.warn, "warning")}, ${all["n/a"]} not applicable` +
      (all.fail + all.warn > 0
        ? ' (FAIL: a "must" of the spec is broken; WARN: a "should" is, which fails no check)'
        : ""),
  );
  return lines.join("\n");
}

/** The evidence without what changes from run to run (the checker's names, pids, times...). */
export function stableText(text: string): string {
  return (
    text
      .replace(/lcnicheck-\d+-[0-9a-z]+(?:\.[0-9a-z]+)?-\d+/g, "lcnicheck-\u2026")
      .replace(/\bpid \d+/g, "pid \u2026")
      .replace(/0x[0-9a-f]{6,}/g, "0x\u2026")
      .replace(/\d{4}[/-]\d{2}[/-]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?/g, "\u2026")
      .replace(/goroutine \d+/g, "goroutine \u2026")
      // The magic of the filesystem under a netns path (ext4 where /run is on the root disk,
      // tmpfs where it is a tmpfs, as in a rootless sandbox) says where, not what.
      .replace(/(unknown FS magic on \S+): [0-9a-f]+\b/g, "$1: \u2026")
  );
}

/** A table cell's text: no pipes or line breaks. */
const cellText = (text: string) => text.replaceAll("|", "\\|").replace(/\s+/g, " ");

/** The report as Markdown: for a plugin's README, stable enough to diff in CI. */
function formatMarkdown(report: ConformanceReport): string {
  const name = basename(report.plugin);
  const columns = ["", ...report.versions];
  const ruleIds = [...new Set(report.results.map((r) => r.rule))];
  const cell = (r: RuleResult | undefined) => (r === undefined ? "" : marks[r.status].trim());
  const header = ["rule", "level", ...columns.map((v) => (v === "" ? "plugin" : v))];
  const rows = [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`];
  for (const rule of ruleIds) {
    const results = report.results.filter((r) => r.rule === rule);
    // A rule's level is its passes'; a warning of a "must" rule is about a "should" part.
    const level = results.some((r) => r.level === "must") ? "must" : "should";
    const cells = columns.map((v) => cell(results.find((r) => r.version === v)));
    rows.push(`| \`${rule}\` | ${level} | ${cells.join(" | ")} |`);
  }
  const counts = countsIn(report);
  const countOf = (version: string, status: keyof typeof marks) =>
    String(counts.find((c) => c.version === version)?.[status] ?? 0);
  for (const [status, title] of [
    ["pass", "passed"],
    ["fail", "failed"],
    ["warn", "warnings"],
    ["n/a", "n/a"],
  ] as const) {
    rows.push(`| **${title}** | | ${columns.map((v) => countOf(v, status)).join(" | ")} |`);
  }
  // One line per finding, the versions it was seen in together.
  const findings = new Map<string, { head: string; versions: string[]; text: string }>();
  for (const r of report.results.filter((x) => x.status === "fail" || x.status === "warn")) {
    const text = cellText(stableText(r.evidence));
    const head = `**${marks[r.status]}** \`${r.rule}\``;
    const key = `${head}\0${text}`;
    const entry = findings.get(key) ?? { head, versions: [], text };
    if (r.version !== "") entry.versions.push(r.version);
    findings.set(key, entry);
  }
  const findingLines = [...findings.values()].map(
    ({ head, versions, text }) =>
      `- ${head}${versions.length === 0 ? "" : ` (${versions.join(", ")})`}: ${text}`,
  );
  const all = total(report);
  return [
    `### CNI conformance of \`${name}\``,
    "",
    "Checked with libcni's conformance checker (`cnitool conformance`) against the rules of " +
      "[SPEC.md 1.1.0](https://github.com/containernetworking/cni/blob/main/SPEC.md). " +
      `The plugin claims ${report.supportedVersions.join(", ") || "no version (no usable VERSION answer)"}; ` +
      `checked with ${report.versions.join(", ") || "none"}. ` +
      'FAIL: a "must" of the spec is broken; WARN: a "should" is; n/a: the rule does not apply.',
    "",
    ...rows,
    "",
    `${all.pass} passed, ${all.fail} failed, ${plural(all.warn, "warning")}, ${all["n/a"]} not applicable.`,
    ...(findingLines.length === 0 ? [] : ["", "#### Findings", "", ...findingLines]),
  ].join("\n");
}

/** The report as text (the default) or as Markdown (`format: "markdown"`, for a README). */
export function formatReport(report: ConformanceReport, options: FormatReportOptions = {}): string {
  if (!isJSONObject(report)) throw wrongTypeError("report", "a ConformanceReport", report);
  assertOptions(options);
  return options.format === "markdown" ? formatMarkdown(report) : formatText(report);
}
