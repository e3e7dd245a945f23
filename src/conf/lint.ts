/**
 * The conflist linter: advice on a network configuration list against CNI spec 1.1.0 and the
 * conventions' capability arguments, with a JSON Pointer per finding. It never changes how a
 * list parses: `networkConfFromBytes` stays upstream's, and a list the linter faults may still
 * load (unknown keys, string booleans), as it does in Go.
 *
 * Why ajv's standalone code and not ajv at run time: the schema is fixed, so compiling it once
 * ahead of time (lint-validator.generated.ts, checked fresh by the tests) gives the same
 * validator with no runtime dependency, no schema compile on the first call, and no `new
 * Function` in the runtime (which a locked-down process may forbid). ajv stays a
 * devDependency.
 */
import { parseJSON } from "../encoding/parse.js";
import { JSONSyntaxError } from "../errors/go.js";
import { attempt, messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { type ConfInput, inputBytes } from "./bytes.js";
import { normalizePluginKeys, restorePointer } from "./lint-plugin-keys.js";
import { comparePointers, pointerOf } from "./lint-pointer.js";
import { schemaFindings, suggestKey } from "./lint-schema-findings.js";
import type { LintFinding, LintResult, LintSeverity } from "./lint-types.js";
import { versionFindings } from "./lint-versions.js";
import type { NetworkConfigList } from "./types.js";

export type { LintFinding, LintResult, LintSeverity } from "./lint-types.js";

function isList(input: ConfInput | NetworkConfigList): input is NetworkConfigList {
  return typeof input === "object" && !(input instanceof Uint8Array);
}

/**
 * The document a parsed list stands for: its own bytes, with the plugins its drop-in directory
 * added appended to `plugins` (their pointers then index `list.plugins`).
 */
function listDocument(list: NetworkConfigList, document: unknown): unknown {
  if (!isJSONObject(document)) return document;
  const inline = Array.isArray(document.plugins) ? document.plugins : [];
  if (list.plugins.length <= inline.length) return document;
  const added = list.plugins.slice(inline.length).map((p) => parseJSON(p.bytes));
  return { ...document, plugins: [...inline, ...added] };
}

const isTrue = (v: unknown) => v === true || (typeof v === "string" && v.toLowerCase() === "true");

/** `plugins` absent: an error where nothing can supply them, else a warning. */
function missingPlugins(document: Record<string, unknown>, fromList: boolean): LintFinding[] {
  if (Object.hasOwn(document, "plugins")) return [];
  // A key that is `plugins` misspelt (`plugin`, `Plugins`): the plugins are there, unread.
  const typo = Object.keys(document).find((k) => suggestKey(k, ["plugins"]) === "plugins");
  if (typo !== undefined) {
    const message = `the list has no "plugins" (did you mean "plugins"?): its plugins are never run`;
    return [{ pointer: pointerOf([typo]), message, severity: "error" }];
  }
  const [message, severity]: [string, LintSeverity] = fromList
    ? ["the network has no plugins: ADD would run nothing and cache an empty result", "error"]
    : isTrue(document.loadOnlyInlinedPlugins)
      ? ['loadOnlyInlinedPlugins is true, and no "plugins" key', "error"]
      : [
          'no "plugins": the network gets plugins only from its drop-in directory, if any',
          "warning",
        ];
  return [{ pointer: "/plugins", message, severity }];
}

/** ` (line L, column C)` of a syntax error's byte offset, as editors count them. */
function whereIn(bytes: Uint8Array, error: unknown): string {
  if (!(error instanceof JSONSyntaxError)) return "";
  const before = new TextDecoder().decode(bytes.subarray(0, Math.max(0, error.offset - 1)));
  const lines = before.split("\n");
  return ` (line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1})`;
}

/**
 * A single plugin's configuration (a `.conf`: `type` and no `plugins`) as the list it is
 * loaded as (`confListFromConf`): its `cniVersion` and `name` the list's, the rest its one
 * plugin. Linted as such, then each finding put back at its place in the file.
 */
function asSingleConf(document: unknown): Record<string, unknown> | undefined {
  if (!isJSONObject(document) || Object.hasOwn(document, "plugins")) return undefined;
  if (!Object.hasOwn(document, "type")) return undefined;
  const { cniVersion, name, ...plugin } = document;
  const list: Record<string, unknown> = {};
  if (Object.hasOwn(document, "cniVersion")) list.cniVersion = cniVersion;
  if (Object.hasOwn(document, "name")) list.name = name;
  list.plugins = [plugin];
  return list;
}

/**
 * The single conf a list was made from by `confListFromConf` (its bytes are exactly
 * `{"cniVersion","name","plugins":[<the conf>]}`, the conf naming the same network and
 * version), else undefined.
 */
function confOfList(list: NetworkConfigList): Uint8Array | undefined {
  if (list.plugins.length !== 1) return undefined;
  const outer = attempt(() => parseJSON(list.bytes));
  const inner = outer === undefined ? undefined : attempt(() => parseJSON(list.plugins[0].bytes));
  if (!isJSONObject(outer) || !isJSONObject(inner)) return undefined;
  const keys = Object.keys(outer).sort().join(",");
  const made =
    keys === "cniVersion,name,plugins" &&
    Array.isArray(outer.plugins) &&
    outer.plugins.length === 1 &&
    Object.hasOwn(inner, "type") &&
    inner.name === outer.name &&
    inner.cniVersion === outer.cniVersion;
  return made ? list.plugins[0].bytes : undefined;
}

/** A pointer into the list made of a single conf, back into the conf. */
function fromSingle(pointer: string): string {
  if (pointer === "/plugins/0") return "";
  return pointer.startsWith("/plugins/0/") ? pointer.slice("/plugins/0".length) : pointer;
}

function byDocumentOrder(a: LintFinding, b: LintFinding): number {
  return (
    comparePointers(a.pointer, b.pointer) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/**
 * Lints a network configuration list: its bytes (as read from a `.conflist`) or a parsed
 * {@link NetworkConfigList} (its `bytes`, plus the plugins its drop-in directory added).
 * Never throws for what the list holds: bytes that are not JSON give one error at `""`.
 *
 * Errors: what fails to parse or to run, or breaks a "must" of the spec (`plugins` missing
 * where nothing supplies them, empty or not a list; a plugin without `type`; a `type` or
 * `name` that is not path-safe; a version plugins do not know; a capability argument of the
 * wrong shape in `runtimeConfig`; flags and well-known fields of the wrong type). Warnings:
 * unknown top-level keys (`plugin`), unknown capabilities, keys reserved for the runtime,
 * string booleans, keys in another case, versions never selected.
 */
export function lintNetworkList(input: ConfInput | NetworkConfigList): LintResult {
  // A list made of a single `.conf` (confListFromConf): the conf's own bytes are what the
  // user wrote, and its findings are placed in them.
  const conf = isList(input) ? confOfList(input) : undefined;
  if (conf !== undefined) return lintNetworkList(conf);
  const fromList = isList(input);
  const bytes = fromList ? input.bytes : inputBytes(input);
  let document: unknown;
  try {
    document = parseJSON(bytes);
  } catch (error) {
    const message = `cannot be decoded: ${messageOf(error)}${whereIn(bytes, error)}`;
    return { errors: [{ pointer: "", message, severity: "error" }], warnings: [] };
  }
  if (fromList) document = listDocument(input, document);
  const single = asSingleConf(document);
  if (single !== undefined) document = single;

  const normal = normalizePluginKeys(document);
  const findings: LintFinding[] = [...normal.findings];
  for (const finding of schemaFindings(normal.document)) {
    findings.push({ ...finding, pointer: restorePointer(finding.pointer, normal.renames) });
  }
  if (isJSONObject(document)) {
    findings.push(...versionFindings(document), ...missingPlugins(document, fromList));
  }

  // A key reported as misspelt `plugins` is an error already: not an unknown key besides.
  const typo = findings.find((f) => f.message.includes('no "plugins" (did you mean'))?.pointer;
  const kept = findings.filter(
    (f) => f.pointer !== typo || !f.message.startsWith("unknown top-level key"),
  );
  const placed =
    single === undefined ? kept : kept.map((f) => ({ ...f, pointer: fromSingle(f.pointer) }));
  const byKey = new Map(placed.map((f) => [`${f.severity}\0${f.pointer}\0${f.message}`, f]));
  const unique = [...byKey.values()].sort(byDocumentOrder);
  return {
    errors: unique.filter((f) => f.severity === "error"),
    warnings: unique.filter((f) => f.severity === "warning"),
  };
}
