/**
 * Plugin keys written in another case (`"Type"`, `"Capabilities"`): Go decodes a plugin's
 * well-known fields case-insensitively, so libcni reads them, but the spec's keys are exact and
 * other runtimes (and plugins) may not. The linter warns, then checks such a key's value as the
 * field Go fills with it.
 */

import { isJSONObject } from "../internal/json-kind.js";
import { escapeToken, pointerOf, unescapeToken } from "./lint-pointer.js";
import { pluginKeys } from "./lint-schema.js";
import type { LintFinding } from "./lint-types.js";

/** A plugin's keys renamed for the schema: canonical key -> the key the file has. */
export type Renames = Map<string, string>;

/**
 * The document with each plugin's case-variant keys renamed to the spec's (when the spec's
 * key is absent), the renames per plugin index, and a warning per variant.
 */
export function normalizePluginKeys(document: unknown): {
  document: unknown;
  renames: Map<number, Renames>;
  findings: LintFinding[];
} {
  const renames = new Map<number, Renames>();
  const findings: LintFinding[] = [];
  if (!isJSONObject(document) || !Array.isArray(document.plugins)) {
    return { document, renames, findings };
  }
  const plugins = document.plugins.map((plugin: unknown, i) => {
    if (!isJSONObject(plugin)) return plugin;
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(plugin)) {
      if (pluginKeys.includes(key)) continue;
      const canonical = pluginKeys.find((k) => k.toLowerCase() === key.toLowerCase());
      if (canonical === undefined) continue;
      const both = Object.hasOwn(plugin, canonical);
      findings.push({
        pointer: pointerOf(["plugins", i, key]),
        message: both
          ? `${JSON.stringify(key)} and ${JSON.stringify(canonical)} are both set: Go libcni reads them as one field, the one written last winning`
          : `${JSON.stringify(key)} is read as ${JSON.stringify(canonical)} by Go libcni (case-insensitive), but the spec's key is ${JSON.stringify(canonical)}`,
        severity: "warning",
      });
      if (both) continue;
      copy ??= { ...plugin };
      copy[canonical] = copy[key];
      delete copy[key];
      renames.set(i, (renames.get(i) ?? new Map<string, string>()).set(canonical, key));
    }
    return copy ?? plugin;
  });
  return { document: { ...document, plugins }, renames, findings };
}

/** A finding's pointer with a renamed key put back as the file spells it. */
export function restorePointer(pointer: string, renames: Map<number, Renames>): string {
  const match = /^\/plugins\/(\d+)\/([^/]*)(.*)$/.exec(pointer);
  if (match === null) return pointer;
  const original = renames.get(Number(match[1]))?.get(unescapeToken(match[2]));
  return original === undefined
    ? pointer
    : `/plugins/${match[1]}/${escapeToken(original)}${match[3]}`;
}
