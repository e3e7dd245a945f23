/**
 * The public surface follows docs/public-surface.md: each error class is exported by the entry
 * points its area's rule names (src/errors/<area>.ts), internals by none, and the library's own
 * subpaths (runtime, otel, netns, testing) share no name with another entry.
 */
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { LibcniError } from "../../src/errors/index.js";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
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
const internal = new Set(["CacheWriteThreadExitedError", "MalformedIntentError"]);

async function load(entry: Entry): Promise<Record<string, unknown>> {
  const path = entry === "index" ? "index.ts" : `${entry}/index.ts`;
  return (await import(join(src, path))) as Record<string, unknown>;
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

  it("shares no name of the library's own subpaths with another entry", async () => {
    const modules = new Map(
      await Promise.all(entries.map(async (e) => [e, await load(e)] as const)),
    );
    const shared: string[] = [];
    for (const own of ownSubpaths) {
      const names = Object.keys(modules.get(own) ?? {});
      for (const other of entries.filter((e) => e !== own)) {
        const both = names.filter((name) => name in (modules.get(other) ?? {}));
        if (both.length > 0) shared.push(`${own} and ${other}: ${both.join(", ")}`);
      }
    }
    expect(shared).toEqual([]);
  });
});
