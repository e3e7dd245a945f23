/**
 * The layers of src/ (DESIGN.md, "Fifth wave": layers, bottom up): nothing imports the package
 * root (src/index.ts), which is only the main entry's list of names; each module imports the
 * module (or the folder's entry) that defines a name. Read from the text of src/
 * (import-graph.ts), dynamic `import()` included.
 */
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, srcRoot } from "./import-graph.js";

const root = join(srcRoot, "index.ts");

/** The imports of `root` (the package root), as "importer -> root". */
function rootImports(graph: Map<string, string[]>): string[] {
  return [...graph]
    .filter(([, targets]) => targets.includes(root))
    .map(([file]) => `${relative(srcRoot, file)} -> index.ts`);
}

describe("the layers of src/", () => {
  const graph = importGraph(srcRoot, { dynamic: true });

  it("reads the modules and their imports, dynamic ones too", () => {
    // A pattern that stopped matching would make the checks below vacuous.
    expect(graph.size).toBeGreaterThan(50);
    expect(graph.get(root)).toContain(join(srcRoot, "api/index.ts"));
    expect(graph.get(join(srcRoot, "runtime/loopback-check.ts"))).toContain(
      join(srcRoot, "netns/exec.ts"),
    );
  });

  it("finds an import of the root where there is one", () => {
    const a = join(srcRoot, "runtime/a.ts");
    expect(rootImports(new Map([[a, [root]]]))).toEqual(["runtime/a.ts -> index.ts"]);
  });

  it("has no import of the package root", () => {
    expect(rootImports(graph)).toEqual([]);
  });
});
