/**
 * The shipped bundle (scripts/build.mjs): dist/ holds each entry at its path and what entries
 * share in dist/chunks/; `import "libcni"` reads the entry, its core chunk and the base chunk it
 * shares with the entries a plugin or a tool imports alone, which never load the core. Read
 * from the files `npm run build` wrote (`npm test` builds before the suite), and run from them in
 * a child process.
 */
import { execFile } from "node:child_process";
import { access, readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { loadedBy } from "../architecture/import-graph.js";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(repo, "dist");
const run = promisify(execFile);

/** The specifiers of a built file's imports: static (one line each in Rollup's output) or not. */
function specifiers(code: string): { static: string[]; dynamic: string[] } {
  const statics = [...code.matchAll(/^(?:import|export)\b[^;\n]*?['"]([^'"\n]+)['"];?$/gm)];
  const dynamics = [...code.matchAll(/\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g)];
  return {
    static: statics.map((m) => m[1] as string),
    dynamic: dynamics.map((m) => m[1] as string),
  };
}

/** Every .js file of dist/ (its helper binaries aside), relative to dist/. */
let files: string[];
/** Each built file's static imports of other files of dist/, as absolute paths. */
const graph = new Map<string, string[]>();
/** Each file's code. */
const code = new Map<string, string>();

/** The files of dist/ importing `entry` reads, relative to dist/, sorted. */
const loads = (entry: string): string[] =>
  [...loadedBy(graph, join(dist, entry))].map((f) => relative(dist, f)).sort();

beforeAll(async () => {
  await access(join(dist, "index.js")); // npm test builds before the suite
  files = (await readdir(dist, { recursive: true }))
    .filter((f) => f.endsWith(".js") && !f.startsWith("native/"))
    .sort();
  for (const file of files) {
    const text = await readFile(join(dist, file), "utf8");
    code.set(file, text);
    const relatives = specifiers(text).static.filter((s) => s.startsWith("."));
    graph.set(
      join(dist, file),
      relatives.map((s) => join(dirname(join(dist, file)), s)),
    );
  }
});

describe("the shipped bundle", () => {
  it("has every entry and the bin at its path, and everything else in chunks/", async () => {
    const pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8")) as {
      exports: Record<string, { import: string } | string>;
      bin: Record<string, string>;
    };
    const entries = [
      ...Object.values(pkg.exports).flatMap((t) => (typeof t === "string" ? [] : [t.import])),
      ...Object.values(pkg.bin),
    ].map((p) => relative("./dist", p));
    expect(files.filter((f) => !f.startsWith("chunks/"))).toEqual(entries.sort());
  });

  it("loads the main entry from three files: the entry, its core chunk and the base chunk", () => {
    expect(loads("index.js")).toEqual([
      expect.stringMatching(/^chunks\/base-[\w-]+\.js$/),
      expect.stringMatching(/^chunks\/core-[\w-]+\.js$/),
      "index.js",
    ]);
  });

  it.each([
    "skel/index.js",
    "types/index.js",
    "version/index.js",
    "utils/index.js",
    "otel/index.js",
  ])("loads %s without the main entry's core (CNIConfig's shell, the linter)", (entry) => {
    const loaded = loads(entry);
    expect(loaded).toContain(entry);
    expect(loaded.filter((f) => /^chunks\/core-/.test(f))).toEqual([]);
  });

  it("imports, statically or not, only files of dist/ that exist, and packages", async () => {
    const broken: string[] = [];
    for (const [file, text] of code) {
      const { static: s, dynamic: d } = specifiers(text);
      for (const spec of [...s, ...d]) {
        if (spec.startsWith("node:") || !/^[./]/.test(spec)) continue;
        const target = join(dirname(join(dist, file)), spec);
        const inside = !relative(dist, target).startsWith("..");
        const exists = await access(target).then(
          () => true,
          () => false,
        );
        if (!inside || !exists) broken.push(`${file}: ${spec}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps every class its own name (Rollup renames a clash in a chunk, and errors print theirs)", () => {
    const renamed = [...code].flatMap(([file, text]) =>
      [...text.matchAll(/\bclass (\w+\$\d+)/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(renamed).toEqual([]);
  });

  it("lints from the bundle: the validator sits beside the chunks", async () => {
    const script = `
      import { lintNetworkList } from ${JSON.stringify(join(dist, "index.js"))};
      const bytes = new TextEncoder().encode('{"cniVersion":"1.1.0","name":"n","plugins":[{}]}');
      console.log(JSON.stringify(lintNetworkList(bytes).errors.map((e) => e.pointer)));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual(["/plugins/0/type"]);
  });

  it("looks for the spawner helper in dist/native/, from the chunk that starts it", () => {
    const named: string[] = [];
    for (const [file, text] of code) {
      for (const m of text.matchAll(
        /new URL\(`([^`$]*)\$\{platform\}-\$\{arch\}\/libcni-spawner`/g,
      ))
        named.push(join(dirname(join(dist, file)), m[1] as string));
    }
    expect(named).toEqual([join(dist, "native/")]);
  });

  it("ships its chunks without src/'s module comments, which the maps still hold", async () => {
    const gate = "At most one process start per turn of the event loop.";
    const [file] = [...code].find(([, text]) => text.includes("class SpawnGate")) ?? [];
    expect(file).toBeDefined();
    expect(code.get(file as string)).not.toContain(gate);
    const map = JSON.parse(await readFile(join(dist, `${file}.map`), "utf8")) as {
      sourcesContent: string[];
    };
    expect(map.sourcesContent.some((source) => source.includes(gate))).toBe(true);
  });

  it("maps its chunks back to src/", async () => {
    const core = loads("index.js").find((f) => f.startsWith("chunks/core-")) as string;
    const map = JSON.parse(await readFile(join(dist, `${core}.map`), "utf8")) as {
      sources: string[];
    };
    const sources = map.sources.map((s) => relative(repo, join(dist, "chunks", s)));
    expect(sources).toContain("src/api/cni-config.ts");
    expect(sources.every((s) => s.startsWith("src/"))).toBe(true);
  });
});
