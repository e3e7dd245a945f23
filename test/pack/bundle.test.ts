/**
 * The shipped bundle (scripts/build.mjs): dist/ holds each entry at its path and what entries
 * share in dist/chunks/; `import "libcni"` reads the entry and one chunk. Read from the files
 * `npm run build` wrote (`npm test` builds before the suite), and run from them in a child.
 */
import { execFile } from "node:child_process";
import { access, readdir, readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(repo, "dist");
const run = promisify(execFile);

/** The relative modules a built file imports statically (rollup's `from '…'` and `import '…'`). */
async function staticImports(file: string): Promise<string[]> {
  const code = await readFile(file, "utf8");
  const specs = [...code.matchAll(/^(?:import|export)\b[^;]*?['"](\.[^'"]+)['"];?$/gm)].map(
    (m) => m[1] as string,
  );
  return specs.map((spec) => join(dirname(file), spec));
}

/** Every file of dist/ that importing `file` reads, itself included. */
async function loadedBy(file: string): Promise<string[]> {
  const seen = new Set<string>();
  const visit = async (f: string): Promise<void> => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const next of await staticImports(f)) await visit(next);
  };
  await visit(file);
  return [...seen].map((f) => relative(dist, f)).sort();
}

let pkg: { exports: Record<string, { import?: string } | string>; bin: Record<string, string> };
beforeAll(async () => {
  await access(join(dist, "index.js")); // npm test builds before the suite
  pkg = JSON.parse(await readFile(join(repo, "package.json"), "utf8"));
});

describe("the shipped bundle", () => {
  it("has every entry and the bin at its path, and nothing else outside chunks/ but declarations", async () => {
    const entries = [
      ...Object.values(pkg.exports).flatMap((t) => (typeof t === "string" ? [] : [t.import])),
      ...Object.values(pkg.bin),
    ].map((p) => relative("./dist", p as string));
    const js = (await readdir(dist, { recursive: true })).filter(
      (f) => f.endsWith(".js") && !f.startsWith("chunks/") && !f.startsWith("native/"),
    );
    expect(js.sort()).toEqual(entries.sort());
  });

  it("loads the main entry from two files: the entry and the core chunk", async () => {
    const files = await loadedBy(join(dist, "index.js"));
    expect(files).toHaveLength(2);
    expect(files[0]).toMatch(/^chunks\/core-[\w-]+\.js$/);
    expect(files[1]).toBe("index.js");
  });

  it("imports only its own files and packages, never build/ or src/", async () => {
    const all = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith(".js"));
    for (const file of all) {
      for (const target of await staticImports(join(dist, file))) {
        expect(relative(dist, target), file).not.toMatch(/^\.\./);
      }
    }
  });

  it("lints from the bundle: the validator sits beside the chunk that requires it", async () => {
    const script = `
      import { lintNetworkList } from ${JSON.stringify(join(dist, "index.js"))};
      const bytes = new TextEncoder().encode('{"cniVersion":"1.1.0","name":"n","plugins":[{}]}');
      console.log(JSON.stringify(lintNetworkList(bytes).errors.map((e) => e.pointer)));`;
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
    expect(JSON.parse(stdout)).toEqual(["/plugins/0/type"]);
  });

  it("looks for the spawner helper in dist/native/, from the chunk that starts it", async () => {
    const chunks = await readdir(join(dist, "chunks"));
    const named: string[] = [];
    for (const chunk of chunks.filter((c) => c.endsWith(".js"))) {
      const code = await readFile(join(dist, "chunks", chunk), "utf8");
      for (const m of code.matchAll(
        /new URL\(`([^`$]*)\$\{platform\}-\$\{arch\}\/libcni-spawner`/g,
      ))
        named.push(join(dist, "chunks", m[1] as string));
    }
    expect(named).toEqual([join(dist, "native/")]);
  });

  it("maps its chunks back to src/", async () => {
    const files = await loadedBy(join(dist, "index.js"));
    const map = JSON.parse(await readFile(join(dist, `${files[0]}.map`), "utf8")) as {
      sources: string[];
    };
    const sources = map.sources.map((s) => relative(repo, join(dist, "chunks", s)));
    expect(sources).toContain("src/api/cni-config.ts");
    expect(sources.every((s) => s.startsWith("src/"))).toBe(true);
  });
});
