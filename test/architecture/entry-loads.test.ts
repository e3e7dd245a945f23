/**
 * An entry loads what its calls need (DESIGN.md, "Fifth wave": an entry loads a layer when a
 * call first needs it). The error classes are imported from their area's file, never through
 * the errors barrel (the main entry too); the main entry loads CNIConfig's verbs, the exec
 * layer, the result cache and the conf file readers by dynamic import() on the first call that
 * needs them, the linter's generated validator by require() on the first lint; a skel
 * plugin and `libcni/utils` load neither the result types nor the error classes of layers they
 * never reach. Read from the
 * text of src/ (import-graph.ts), type-only imports left out as the build leaves them out.
 */
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { importGraph, loadedBy, srcRoot } from "./import-graph.js";

const barrel = join(srcRoot, "errors/index.ts");

/** The modules of src/ an entry loads, as paths relative to src/. */
function loads(graph: Map<string, string[]>, entry: string): string[] {
  return [...loadedBy(graph, join(srcRoot, entry))].map((file) => relative(srcRoot, file)).sort();
}

describe("what each entry loads", () => {
  const graph = importGraph(srcRoot, { loaded: true });

  it("follows static imports and leaves out type-only ones", () => {
    const [a, b, c] = ["a.ts", "b.ts", "c.ts"].map((f) => join(srcRoot, f)) as [
      string,
      string,
      string,
    ];
    expect([
      ...loadedBy(
        new Map([
          [a, [b]],
          [b, [c]],
        ]),
        a,
      ),
    ]).toEqual([a, b, c]);
    // skel/print.ts names the Result type only.
    expect(graph.get(join(srcRoot, "skel/print.ts"))).not.toContain(
      join(srcRoot, "types/index.ts"),
    );
    expect(graph.get(join(srcRoot, "skel/print.ts"))).toContain(join(srcRoot, "encoding/json.ts"));
  });

  it("leaves the errors barrel unloaded, the main entry's classes taken from their areas' files", () => {
    const importers = [...graph]
      .filter(([, targets]) => targets.includes(barrel))
      .map(([file]) => relative(srcRoot, file));
    expect(importers).toEqual([]);
  });

  describe("the main entry", () => {
    const eager = loads(graph, "index.ts");
    const later = loads(importGraph(srcRoot, { dynamic: true, loaded: true }), "index.ts");

    it("loads its error classes, the conf parsers and linter and CNIConfig's shell, no more", () => {
      // 49 today; the bound leaves room for a small module or two, not for a layer.
      expect(eager.length).toBeLessThanOrEqual(51);
      expect(eager).toEqual(expect.arrayContaining(["api/cni-config.ts", "conf/lint.ts"]));
      // The verbs' body and the pacer, the exec layer, the result cache, the conf file readers
      // and every engine, the result types and the errors of the layers the main entry does not
      // export: loaded by the first call that needs them.
      const heavy =
        /^(?:api\/(?:cni-engine|runner|gc)\.ts|cache\/(?!constants).*|conf\/(?:files|load)\.ts|engines\/.*|internal\/(?:pacer|turn-queue)\.ts|invoke\/(?:index|exec|raw-exec)\.ts|types\/(?:index|v\d+)\.ts|version\/(?:index|result)\.ts|errors\/(?:index|runtime|netns|testing|spawner)\.ts)$/;
      expect(eager.filter((file) => heavy.test(file))).toEqual([]);
    });

    it("reaches the verbs' body and the spawner by dynamic import()", () => {
      // What a call loads later is still the entry's: the layers test reads these edges too.
      expect(later).toEqual(
        expect.arrayContaining([
          "api/cni-engine.ts",
          "conf/load.ts",
          "engines/start/select.ts",
          "types/index.ts",
        ]),
      );
      expect(later.length).toBeGreaterThan(eager.length + 50);
    });
  });

  it.each(["skel/index.ts", "utils/index.ts"])("%s loads no result type", (entry) => {
    const loaded = loads(graph, entry);
    expect(loaded).toContain(entry);
    expect(loaded.filter((file) => /^types\/(?:v\d|create|convert|index)/.test(file))).toEqual([]);
    expect(loaded.filter((file) => file.startsWith("version/result"))).toEqual([]);
  });

  it.each([
    ["skel/index.ts", ["base", "go", "types", "version"]],
    ["utils/index.ts", ["base", "types"]],
    ["types/index.ts", ["base", "go", "types"]],
  ])("%s loads the error classes of its own layers only", (entry, areas) => {
    const errors = loads(graph, entry)
      .filter((file) => file.startsWith("errors/"))
      .map((file) => file.slice("errors/".length, -".ts".length));
    expect(errors).toEqual(areas);
  });

  it("validates a conf dir (libcni/runtime's validateConfDir, cnitool validate) without the pod layer or the cache", () => {
    for (const entry of ["runtime/validate-conf-dir.ts", "cli/validate.ts"]) {
      const loaded = loads(graph, entry);
      expect(loaded.filter((file) => /^(?:runtime\/cached-pod|cache\/|api\/)/.test(file))).toEqual(
        [],
      );
    }
  });
});
