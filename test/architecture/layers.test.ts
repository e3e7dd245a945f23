/**
 * The layers of src/ (DESIGN.md, "Fifth wave": layers, bottom up). Nothing imports the package
 * root (src/index.ts), which is only the main entry's list of names: each module imports the
 * module (or the folder's entry) that defines a name. An import never points up: a folder
 * imports folders of its own layer or below, and no two folders import each other. Read from
 * the text of src/ (import-graph.ts), dynamic `import()` included.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, srcRoot } from "./import-graph.js";

const root = join(srcRoot, "index.ts");

/**
 * The folders of src/, bottom up; a folder may import its own layer and those below. `skel`
 * (the plugin side) stands on the vocabulary only; `large-documents` serves the two layers
 * that read and write long results (invoke, api); `engines` (the fast paths and their plain
 * twins: starting a plugin, whole-file reads, the durable write) stands under the conf, invoke and
 * cache that use them; `cache` (Go's record format, capped reads, setup intents and their
 * owners) stands under both api and runtime.
 */
const layers: readonly (readonly string[])[] = [
  ["internal"],
  ["errors"],
  ["encoding", "types", "version", "utils"],
  ["large-documents"],
  ["engines"],
  ["conf", "invoke", "skel"],
  ["cache"],
  ["api"],
  ["runtime", "netns", "testing", "otel"],
  ["cli"],
];
const rank = new Map(layers.flatMap((folders, i) => folders.map((f) => [f, i] as const)));

/** The folder of src/ a file is in ("" for the package root's own files). */
function folderOf(file: string): string {
  const path = relative(srcRoot, file);
  return path.includes("/") ? (path.split("/")[0] as string) : "";
}

/** The imports between folders, "from -> to" with the files of the first one found. */
function folderImports(graph: Map<string, string[]>): Map<string, string> {
  const found = new Map<string, string>();
  for (const [file, targets] of graph) {
    for (const target of targets) {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === "" || to === "" || from === to || found.has(`${from} -> ${to}`)) continue;
      found.set(`${from} -> ${to}`, `${relative(srcRoot, file)} -> ${relative(srcRoot, target)}`);
    }
  }
  return found;
}

/** The imports that point up the layers. */
function upward(imports: Map<string, string>): string[] {
  return [...imports]
    .filter(([edge]) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return (rank.get(from) ?? -1) < (rank.get(to) ?? Number.POSITIVE_INFINITY);
    })
    .map(([edge, files]) => `${edge} (${files})`);
}

/** The pairs of folders that import each other. */
function mutual(imports: Map<string, string>): string[] {
  return [...imports]
    .filter(([edge]) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return from < to && imports.has(`${to} -> ${from}`);
    })
    .map(([edge, files]) => {
      const [from, to] = edge.split(" -> ") as [string, string];
      return `${from} <-> ${to} (${files}; ${imports.get(`${to} -> ${from}`)})`;
    });
}

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
    expect(graph.get(join(srcRoot, "runtime/cached-pod.ts"))).toContain(
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

  it("places every folder of src/ in one layer", () => {
    const folders = readdirSync(srcRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...rank.keys()].sort()).toEqual(folders.sort());
  });

  it("finds an import that points up, and folders that import each other", () => {
    const [a, b, c] = ["internal/a.ts", "errors/b.ts", "conf/c.ts"].map((f) => join(srcRoot, f));
    const imports = folderImports(
      new Map([
        [a, [b]],
        [b, [a]],
        [c, [b]],
      ]),
    );
    expect(upward(imports)).toEqual(["internal -> errors (internal/a.ts -> errors/b.ts)"]);
    expect(mutual(imports)).toEqual([
      "errors <-> internal (errors/b.ts -> internal/a.ts; internal/a.ts -> errors/b.ts)",
    ]);
  });

  it("has no import that points up the layers", () => {
    expect(upward(folderImports(graph))).toEqual([]);
  });

  it("lets the layers above api use it only through its public surface", () => {
    const api = join(srcRoot, "api");
    const inside = [...graph].flatMap(([file, targets]) =>
      file.startsWith(api) || rank.get(folderOf(file)) === undefined
        ? []
        : targets
            .filter((t) => t.startsWith(`${api}/`) && t !== join(api, "index.ts"))
            .map((t) => `${relative(srcRoot, file)} -> ${relative(srcRoot, t)}`),
    );
    expect(inside).toEqual([]);
  });

  it("lets the rest of src/ reach the engines only through their two entrance files", () => {
    // engines/ holds the fast paths and their plain twins behind two interfaces: starting a
    // plugin run (plugin-start.ts) and reading and writing files (file-read.ts, file-write.ts: apart, so
    // that a reader does not load the write thread).
    const engines = join(srcRoot, "engines");
    const entrances = ["plugin-start.ts", "file-read.ts", "file-write.ts"].map((f) =>
      join(engines, f),
    );
    const edges = [...graph].flatMap(([file, targets]) =>
      file.startsWith(`${engines}/`)
        ? []
        : targets
            .filter((t) => t.startsWith(`${engines}/`))
            .map((t) => `${relative(srcRoot, file)} -> ${relative(srcRoot, t)}`),
    );
    // Both entrances are in use (else the check below would hold of nothing).
    expect(edges).toContain("invoke/raw-exec.ts -> engines/plugin-start.ts");
    expect(edges).toContain("cache/results.ts -> engines/file-write.ts");
    expect(edges).toContain("conf/files.ts -> engines/file-read.ts");
    const inside = edges.filter(
      (edge) => !entrances.some((e) => edge.endsWith(` -> ${relative(srcRoot, e)}`)),
    );
    expect(inside).toEqual([]);
  });

  it("has no two folders that import each other", () => {
    expect(mutual(folderImports(graph))).toEqual([]);
  });
});
