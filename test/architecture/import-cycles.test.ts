/**
 * The source tree has no import cycle: with cycles, a module's top-level code can see
 * half-initialised imports depending on which module an entry point loads first. The graph is
 * read from the text of src/ (import-graph.ts); type-only imports count too, as they tie the
 * modules together all the same.
 */
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, srcRoot } from "./import-graph.js";

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
