/**
 * `cnitool conformance <plugin>`: `checkPlugin` of libcni/testing, its report printed as text,
 * JSON or Markdown (docs/conformance.md). Its flags are checked before anything runs: a typo is
 * a usage error (exit 2), not a failed check (exit 1).
 */
import { readFile } from "node:fs/promises";
import { messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { MAX_TIMER_MS } from "../internal/timer-limit.js";
import { findInPath } from "../invoke/find.js";
import {
  type CheckPluginOptions,
  checkPlugin,
  formatReport,
} from "../testing/conformance/index.js";
import { unknownRulesText } from "../testing/conformance/rules.js";
import { all as specVersions } from "../version/index.js";
import { flagIsTrue, type ParsedFlags } from "./flags.js";
import { absolutePath, type CnitoolIO, dirList } from "./runtime-config.js";

const formats = ["text", "json", "markdown"] as const;

class UsageError extends Error {}

/** The report's format from `--format` and `--json`. */
function formatOf(parsed: ParsedFlags): (typeof formats)[number] {
  const format = parsed.values.get("format") || undefined;
  const json = flagIsTrue(parsed, "json");
  if (format !== undefined && !(formats as readonly string[]).includes(format)) {
    throw new UsageError(
      `invalid argument ${JSON.stringify(format)} for "--format" flag: the formats are ${formats.join(", ")}`,
    );
  }
  if (json && format !== undefined && format !== "json")
    throw new UsageError(`--json and --format ${format}: give one format`);
  return json ? "json" : ((format as (typeof formats)[number] | undefined) ?? "text");
}

const durationUnits: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  "\u00b5s": 1e-3,
  "\u03bcs": 1e-3,
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
function parseTimeout(text: string): number {
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
function list(parsed: ParsedFlags, flag: string): string[] | undefined {
  const value = parsed.values.get(flag);
  if (value === undefined) return undefined;
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  if (items.length === 0) throw new UsageError(`--${flag} names nothing`);
  return items;
}

function checkedVersions(parsed: ParsedFlags): string[] | undefined {
  const versions = list(parsed, "versions");
  const known = specVersions.supportedVersions();
  const unknown = (versions ?? []).filter((v) => !known.includes(v));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown spec versions: ${unknown.join(", ")}; the versions are ${known.join(", ")}`,
    );
  }
  return versions;
}

function checkedRules(parsed: ParsedFlags): string[] | undefined {
  const rules = list(parsed, "rules");
  const unknown = unknownRulesText(rules ?? []);
  if (unknown !== undefined) throw new UsageError(unknown);
  return rules;
}

async function configOf(file: string | undefined, cwd: string): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const path = absolutePath(file, cwd);
  const text = await readFile(path, "utf8").catch((error: unknown) => {
    throw new UsageError(`--config: ${messageOf(error)}`);
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--config ${path}: not JSON: ${messageOf(error)}`);
  }
  if (!isJSONObject(value)) {
    throw new UsageError(`--config ${path}: the plugin config must be a JSON object`);
  }
  return text;
}

/** Runs conformance; resolves to the exit status (docs/conformance.md), `fail`'s for usage. */
export async function conformanceCommand(
  plugin: string,
  parsed: ParsedFlags,
  io: CnitoolIO,
  fail: (message: string) => number,
): Promise<number> {
  // The plugin (given by name) and the plugins it delegates to (IPAM) are looked up in --path,
  // else in CNI_PATH; delegated ones then in the plugin's dir too.
  const path = dirList(parsed.values.get("path") ?? io.env.CNI_PATH ?? "", io.cwd);
  let options: CheckPluginOptions;
  let format: (typeof formats)[number];
  try {
    format = formatOf(parsed);
    const timeout = parsed.values.get("timeout");
    // In the order the flags are checked: the first usage error is the one told.
    options = {
      callTimeoutMs: timeout ? parseTimeout(timeout) : undefined,
      versions: checkedVersions(parsed),
      rules: checkedRules(parsed),
      config: await configOf(parsed.values.get("config"), io.cwd),
      path,
    };
  } catch (error) {
    return fail(messageOf(error));
  }
  if (!plugin.includes("/") && path.length === 0) {
    // Said once, with the fix, and no usage: the environment lacks a path, not the command line.
    io.stderr.write(
      `Error: plugin ${JSON.stringify(plugin)} is given by name, and there is no directory to look it up in: ` +
        "set CNI_PATH (CNI_PATH=/opt/cni/bin) or pass --path dir1:dir2, " +
        `or give the plugin's path (/opt/cni/bin/${plugin})\n`,
    );
    return 2;
  }
  let pluginPath: string;
  try {
    pluginPath = plugin.includes("/")
      ? absolutePath(plugin, io.cwd)
      : await findInPath(plugin, path);
  } catch (error) {
    return fail(messageOf(error));
  }
  const report = await checkPlugin(pluginPath, { ...options, signal: io.signal });
  io.stdout.write(
    format === "json"
      ? `${JSON.stringify(report, null, 2)}\n`
      : `${formatReport(report, { format })}\n`,
  );
  return report.passed ? 0 : 1;
}
