/**
 * The source tree has no import cycle: with cycles, a module's top-level code can see
 * half-initialised imports depending on which module an entry point loads first. The graph is
 * read from the text of src/ (relative `import`/`export ... from "./x.js"` statements, `.js`
 * resolved to the `.ts` beside it); type-only imports count too, as they tie the modules
 * together all the same.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const specifier = /(?:^|[\s;])(?:import|export)(?:\s[^;]*?\sfrom)?\s*["'](\.{1,2}\/[^"']+)["']/g;

/** Each module's relative imports, as files of src/. */
function importGraph(root: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(root)) {
    const text = readFileSync(file, "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(specifier)) {
      const spec = match[1] as string;
      targets.add(resolve(dirname(file), spec.replace(/\.js$/, ".ts")));
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The cycles a depth-first walk meets, each as the files around it (first one repeated). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return cycles;
}

describe("import graph of src/", () => {
  const graph = importGraph(srcRoot);

  it("reads the modules and their imports", () => {
    // A pattern that stopped matching would make the cycle check below vacuous.
    expect(graph.size).toBeGreaterThan(50);
    const index = graph.get(join(srcRoot, "index.ts")) ?? [];
    expect(index.length).toBeGreaterThan(5);
    const create = graph.get(join(srcRoot, "types/create.ts")) ?? [];
    expect(create).toContain(join(srcRoot, "types/v100.ts")); // a bare `import "./x.js"`
  });

  it("finds a cycle where there is one", () => {
    const [a, b, c] = ["/a.ts", "/b.ts", "/c.ts"];
    const cyclic = new Map([
      [a, [b]],
      [b, [c]],
      [c, [a]],
    ]);
    expect(findCycles(cyclic)).toEqual([[a, b, c, a]]);
    const acyclic = new Map([
      [a, [b, c]],
      [b, [c]],
      [c, []],
    ]);
    expect(findCycles(acyclic)).toEqual([]);
  });

  it("has no cycle", () => {
    const cycles = findCycles(graph).map((cycle) =>
      cycle.map((file) => relative(srcRoot, file)).join(" -> "),
    );
    expect(cycles).toEqual([]);
  });
});
