/**
 * The import graph of src/, read from its text: relative `import`/`export ... from "./x.js"`
 * statements (type-only ones too: they tie the modules together all the same), `.js` resolved
 * to the `.ts` beside it. `dynamic` adds `import("./x.js")` expressions, which load a module
 * later but still make it a dependency.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const srcRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const specifier = /(?:^|[\s;])(?:import|export)(?:\s[^;]*?\sfrom)?\s*["'](\.{1,2}\/[^"']+)["']/g;
const dynamicSpecifier = /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/**
 * Each module's relative imports, as files of src/. `loaded` leaves out the `import type` and
 * `export type` statements, which the build erases: what loading a module loads with it.
 */
export function importGraph(
  root: string,
  { dynamic = false, loaded = false } = {},
): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, "utf8");
    const targets = new Set<string>();
    const matches = [
      ...text.matchAll(specifier),
      ...(dynamic ? text.matchAll(dynamicSpecifier) : []),
    ];
    for (const match of matches) {
      if (loaded && /^[\s;]?(?:import|export)\s+type\s/.test(match[0])) continue;
      const spec = match[1] as string;
      targets.add(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The modules loading `entry` loads (itself included): its static imports, followed. */
export function loadedBy(graph: Map<string, string[]>, entry: string): Set<string> {
  const seen = new Set<string>([entry]);
  const stack = [entry];
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    for (const target of graph.get(file) ?? []) {
      if (seen.has(target)) continue;
      seen.add(target);
      stack.push(target);
    }
  }
  return seen;
}
