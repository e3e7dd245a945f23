/**
 * `cnitool conformance <plugin>`: runs a plugin binary through the conformance checker of
 * libcni/testing (every rule, for every spec version it claims) and prints the report: as text,
 * as the checker's `ConformanceReport` (`--format json`, or `--json`), or as a Markdown table
 * for the plugin's README (`--format markdown`). `--timeout` is the per-call limit (a Go
 * duration: `5s`, `500ms`). A plugin given by name is looked up in `--path`, else CNI_PATH, as
 * `version` looks it up; a path (with a slash) is taken from the working directory. Exit status: 0 when no rule
 * failed (warnings fail nothing), 1 when one did (a hang included), 2 when the command line is
 * wrong or the check could not run (not root, no such plugin, a config that is no JSON object).
 */
import { readFile } from "node:fs/promises";
import { messageOf } from "../internal/error-message.js";
import { MAX_TIMER_MS } from "../internal/timer-limit.js";
import { findInPath } from "../invoke/find.js";
import { checkPlugin, formatReport, rules } from "../testing/conformance/index.js";
import { all as specVersions } from "../version/index.js";
import { absolutePath, type CnitoolEnv, pluginPaths } from "./runtime-config.js";

/** What conformance reads, writes to and how it fails, from the command's runner. */
export interface ConformanceIO {
  env: CnitoolEnv;
  cwd: string;
  stdout: { write(text: string): unknown };
  /** Where a failure that is not a usage error is said, once, without the usage. */
  stderr: { write(text: string): unknown };
  /** cobra's `Error: <msg>` and usage, on stderr; resolves to the usage exit status. */
  fail(message: string): number;
  signal?: AbortSignal;
}

/** The flags of the command, by long name, as parsed. */
export interface ConformanceFlags {
  config?: string;
  versions?: string;
  rules?: string;
  path?: string;
  json: boolean;
  /** `text`, `json` or `markdown` (default text; `--json` is `--format json`). */
  format?: string;
  /** The per-call limit, a Go duration (`30s`, `1m30s`, `500ms`). */
  timeout?: string;
}

const formats = ["text", "json", "markdown"] as const;

/** The report's format from `--format` and `--json`. */
function formatOf(flags: ConformanceFlags): (typeof formats)[number] {
  const format = flags.format === undefined || flags.format === "" ? undefined : flags.format;
  if (format !== undefined && !(formats as readonly string[]).includes(format)) {
    throw new UsageError(
      `invalid argument ${JSON.stringify(format)} for "--format" flag: the formats are ${formats.join(", ")}`,
    );
  }
  if (flags.json && format !== undefined && format !== "json")
    throw new UsageError(`--json and --format ${format}: give one format`);
  return flags.json ? "json" : ((format as (typeof formats)[number] | undefined) ?? "text");
}

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** Milliseconds as Go's `time.Duration.String()` writes them (`596h31m23.647s`). */
function goDurationText(ms: number): string {
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h > 0 ? `${h}h` : ""}${h > 0 || m > 0 ? `${m}m` : ""}${s}s`;
}

/**
 * A Go duration (`time.ParseDuration`: `30s`, `1m30s`, `1.5s`, `500ms`) in milliseconds; a
 * usage error for anything else, for a limit under 1ms, or for one longer than a timer waits
 * (which would stop every call at once: the library's rule, docs/reliability.md).
 */
export function parseTimeout(text: string): number {
  const bad = (why: string) =>
    new UsageError(`invalid argument ${JSON.stringify(text)} for "--timeout" flag: ${why}`);
  const parts = [...text.matchAll(/(\d+(?:\.\d*)?|\.\d+)([^\d.]*)/gy)];
  if (text === "" || parts.map((m) => m[0]).join("") !== text)
    throw bad(`time: invalid duration ${JSON.stringify(text)}`);
  let ms = 0;
  for (const [, number, unit] of parts) {
    if (unit === "") throw bad(`time: missing unit in duration ${JSON.stringify(text)}`);
    const scale = durationUnits[unit];
    if (scale === undefined)
      throw bad(`time: unknown unit ${JSON.stringify(unit)} in duration ${JSON.stringify(text)}`);
    ms += Number(number) * scale;
  }
  if (!(ms >= 1)) throw bad("the per-call limit must be 1ms or more");
  const rounded = Math.round(ms);
  if (rounded > MAX_TIMER_MS) {
    throw bad(`the per-call limit must be at most ${goDurationText(MAX_TIMER_MS)}`);
  }
  return rounded;
}

/** A comma-separated flag value as a list; undefined when the flag is absent. */
function list(flag: string, value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (items.length === 0) throw new UsageError(`--${flag} names nothing`);
  return items;
}

class UsageError extends Error {}

/** The flags checked before anything runs: a typo is a usage error, not a failed check. */
function checkedLists(flags: ConformanceFlags): { versions?: string[]; rules?: string[] } {
  const versions = list("versions", flags.versions);
  const known = specVersions.supportedVersions();
  const unknownVersions = (versions ?? []).filter((v) => !known.includes(v));
  if (unknownVersions.length > 0) {
    throw new UsageError(
      `unknown spec versions: ${unknownVersions.join(", ")}; the versions are ${known.join(", ")}`,
    );
  }
  const ruleIds = list("rules", flags.rules);
  const unknownRules = (ruleIds ?? []).filter((id) => !rules.some((r) => r.id === id));
  if (unknownRules.length > 0) {
    throw new UsageError(
      `unknown rules: ${unknownRules.join(", ")}; the rules are ${rules.map((r) => r.id).join(", ")}`,
    );
  }
  return { versions, rules: ruleIds };
}

async function configOf(file: string | undefined, cwd: string): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const path = absolutePath(file, cwd);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`--config: ${messageOf(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config ${path}: not JSON: ${messageOf(error)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new UsageError(`--config ${path}: the plugin config must be a JSON object`);
  }
  return text;
}

/**
 * What to do when a plugin given by name has no directory to be looked up in: said once, with
 * the fix, and no usage (the command line is not wrong; the environment lacks a path).
 */
function noSearchPathText(plugin: string): string {
  return (
    `Error: plugin ${JSON.stringify(plugin)} is given by name, and there is no directory to look it up in: ` +
    "set CNI_PATH (CNI_PATH=/opt/cni/bin) or pass --path dir1:dir2, " +
    `or give the plugin's path (/opt/cni/bin/${plugin})\n`
  );
}

/** Runs conformance; resolves to the exit status. */
export async function conformanceCommand(
  plugin: string,
  flags: ConformanceFlags,
  io: ConformanceIO,
): Promise<number> {
  let lists: { versions?: string[]; rules?: string[] };
  let config: string | undefined;
  let pluginPath: string;
  let format: (typeof formats)[number];
  let callTimeoutMs: number | undefined;
  // The plugin (given by name) and the plugins it delegates to (IPAM) are looked up in --path,
  // else in CNI_PATH; delegated ones then in the plugin's dir too.
  const path = (flags.path !== undefined ? flags.path.split(":") : pluginPaths(io.env))
    .filter((p) => p !== "")
    .map((p) => absolutePath(p, io.cwd));
  try {
    format = formatOf(flags);
    callTimeoutMs =
      flags.timeout === undefined || flags.timeout === "" ? undefined : parseTimeout(flags.timeout);
    lists = checkedLists(flags);
    config = await configOf(flags.config, io.cwd);
  } catch (error) {
    return io.fail(messageOf(error));
  }
  if (!plugin.includes("/") && path.length === 0) {
    io.stderr.write(noSearchPathText(plugin));
    return 2;
  }
  try {
    pluginPath = plugin.includes("/")
      ? absolutePath(plugin, io.cwd)
      : await findInPath(plugin, path);
  } catch (error) {
    return io.fail(messageOf(error));
  }
  const report = await checkPlugin(pluginPath, {
    config,
    versions: lists.versions,
    rules: lists.rules,
    path,
    ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }),
    signal: io.signal,
  });
  io.stdout.write(
    format === "json"
      ? `${JSON.stringify(report, null, 2)}\n`
      : `${formatReport(report, { format })}\n`,
  );
  return report.passed ? 0 : 1;
}
