/**
 * The public surface follows docs/public-surface.md: each error class is exported by the entry
 * points its area's rule names (src/errors/<area>.ts), internals by none; the library's own
 * subpaths (runtime, otel, netns, testing) share no name with another entry; and a name has one
 * home but for the rule's exceptions. Type names are read from the API reports (etc/*.api.md,
 * which `npm run api:check` keeps equal to the built declarations); values from the modules.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LibcniError } from "../../src/errors/index.js";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const etc = resolve(src, "../etc");
const entries = [
  "index",
  "types",
  "version",
  "invoke",
  "skel",
  "utils",
  "runtime",
  "otel",
  "netns",
  "testing",
] as const;
type Entry = (typeof entries)[number];
const ownSubpaths: Entry[] = ["runtime", "otel", "netns", "testing"];

/** The rule, by area: where an area's classes are exported. */
const exportedBy: Record<string, Entry[]> = {
  base: ["index"],
  go: ["index"],
  conf: ["index"],
  api: ["index"],
  cache: ["index"],
  // Upstream's packages of the same names define them too (pkg/types, pkg/version, pkg/invoke).
  types: ["index", "types"],
  version: ["index", "version"],
  invoke: ["index", "invoke"],
  runtime: ["runtime"],
  netns: ["netns"],
  testing: ["testing"],
  // The spawner helper's own: causes of the errors callers get, matched by `id`.
  spawner: [],
};
/** Causes of exported errors, from a mechanism's inside: matched by `id`, exported by none. */
const internal = new Set(["MalformedIntentError"]);

/**
 * Rule 3's types a caller of the verbs meets that upstream's packages define too: the main
 * entry and the upstream package of the same name both export them.
 */
const mainAndUpstream: Record<string, Entry> = {
  Result: "types",
  PluginConf: "types",
  GCAttachment: "types",
  PluginInfo: "version",
};

async function load(entry: Entry): Promise<Record<string, unknown>> {
  const path = entry === "index" ? "index.ts" : `${entry}/index.ts`;
  return (await import(join(src, path))) as Record<string, unknown>;
}

const declaration =
  /^export (?:declare )?(?:abstract )?(?:interface|type|class|function|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/gm;

/** Every name an entry exports, types included, from its API report. */
function reportedNames(entry: Entry): Set<string> {
  const report = readFileSync(
    join(etc, entry === "index" ? "libcni.api.md" : `libcni-${entry}.api.md`),
    "utf8",
  );
  // A re-export list would hide names from the pattern below.
  expect(report).not.toMatch(/^export (?:\{|\*)/m);
  return new Set([...report.matchAll(declaration)].map((m) => m[1] as string));
}

/** The names src/errors/<area>.ts declares (classes, their types and helpers), by area. */
function errorAreaOf(): Map<string, string> {
  const area = new Map<string, string>();
  for (const file of readdirSync(join(src, "errors")).filter((f) => f !== "index.ts")) {
    const text = readFileSync(join(src, "errors", file), "utf8");
    for (const m of text.matchAll(declaration)) area.set(m[1] as string, file.slice(0, -3));
  }
  return area;
}

describe("the public surface (docs/public-surface.md)", () => {
  it("exports each error class from the entries of its area's rule, internals from none", async () => {
    const modules = await Promise.all(entries.map(load));
    const areas = readdirSync(join(src, "errors"))
      .filter((name) => name.endsWith(".ts") && name !== "index.ts")
      .map((name) => name.slice(0, -3));
    expect(areas.sort()).toEqual(Object.keys(exportedBy).sort());
    const wrong: string[] = [];
    for (const area of areas) {
      const classes = (await import(join(src, "errors", `${area}.ts`))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(classes)) {
        // A class's own chain (instanceof answers by the instances' brand, not by prototypes).
        if (typeof value !== "function") continue;
        if (value !== LibcniError && !Object.prototype.isPrototypeOf.call(LibcniError, value))
          continue;
        const expected = internal.has(name) ? [] : exportedBy[area];
        const actual = entries.filter((_, i) => modules[i][name] === value);
        if (actual.join() !== expected.join())
          wrong.push(`${area}/${name}: exported by [${actual}], the rule says [${expected}]`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("reads every name of each entry from its API report", async () => {
    // The values a module exports are all in its report (a report the pattern misreads, or
    // one not regenerated after a change, fails here), and the report has types besides.
    for (const entry of entries) {
      const names = reportedNames(entry);
      const values = Object.keys(await load(entry));
      expect(values.filter((name) => !names.has(name))).toEqual([]);
      expect(names.size).toBeGreaterThanOrEqual(values.length);
    }
    expect(reportedNames("index").has("VerbMessage")).toBe(true);
  });

  it("shares no name of the library's own subpaths with another entry, types included", async () => {
    const names = new Map(entries.map((e) => [e, reportedNames(e)] as const));
    const shared: string[] = [];
    for (const own of ownSubpaths) {
      for (const other of entries.filter((e) => e !== own)) {
        const both = [...(names.get(own) ?? [])].filter((name) => names.get(other)?.has(name));
        if (both.length > 0) shared.push(`${own} and ${other}: ${both.join(", ")}`);
      }
    }
    expect(shared).toEqual([]);
  });

  it("gives every other name one home, but the rule's exceptions", () => {
    const homes = new Map<string, Entry[]>();
    for (const entry of entries) {
      for (const name of reportedNames(entry)) homes.set(name, [...(homes.get(name) ?? []), entry]);
    }
    const areas = errorAreaOf();
    const wrong: string[] = [];
    for (const [name, at] of homes) {
      if (at.length < 2) continue;
      const area = areas.get(name);
      // Exception 1: the core's errors (and their types) where their area's rule says.
      const expected =
        area !== undefined
          ? exportedBy[area]
          : mainAndUpstream[name] !== undefined
            ? ["index", mainAndUpstream[name]]
            : [];
      if (at.join() !== expected?.join()) wrong.push(`${name}: exported by [${at}]`);
    }
    expect(wrong).toEqual([]);
  });
});
