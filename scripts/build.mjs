/**
 * `npm run build`: the package as it ships.
 *
 * 1. tsc compiles src/ into build/ (one .js per source file, with source maps, at the same
 *    depth below the repository as src/'s) and writes the declarations into dist/, where
 *    package.json's `types` point.
 * 2. Rollup bundles build/ into dist/: each entry of package.json `exports` (and the cnitool
 *    bin) at its own path, what entries share in dist/chunks/. What the main entry loads at
 *    import is two chunks: `base-<hash>.js`, the part an entry a plugin or a tool imports alone
 *    (skel, types, version, utils, otel) loads too, and `core-<hash>.js`, the rest (CNIConfig's
 *    shell, the conf parsers and linter). Node's loader pays per module file (resolve, read,
 *    link), so `import "libcni"` reads three files instead of one per source file
 *    (bench/README.md has the import times), and a skel plugin does not load the linter.
 *    Modules reached by dynamic import() stay in chunks of their own, loaded by the first call
 *    that needs them, as in src/.
 * 3. Each chunk leaves without most of src/'s comments (esbuild reprints it: function and class
 *    names, statements and layout stay; the maps keep every comment).
 *
 * build/ is not shipped: tests, benchmarks and scripts that need a module the entries do not
 * export run it from there, in a process of their own.
 */
import { spawnSync } from "node:child_process";
import { chmod, copyFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { transform } from "esbuild";
import { rollup } from "rollup";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const built = join(root, "build");
const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));

/** The generated lint validator: CommonJS, required from beside the module that lints. */
const validator = "conf/lint-validator.generated.cjs";

/** Entry name (a path in dist/ without `.js`) to its module in build/. */
function entries() {
  const out = {};
  const bins = typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin);
  const add = (file, where) => {
    const name = entryName(file, where);
    out[name] = join(built, `${name}.js`);
  };
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (key !== "./package.json") add(typeof target === "string" ? target : target.import, key);
  }
  for (const file of bins) add(file, "bin");
  if (out.index === undefined) throw new Error('build.mjs: exports["."] is not ./dist/index.js');
  return out;
}

/** `./dist/<name>.js` to `<name>`; anything else is a package.json this build does not know. */
function entryName(file, where) {
  const m = /^\.\/dist\/(.+)\.js$/.exec(file ?? "");
  if (!m) throw new Error(`build.mjs: package.json ${where}: ${file} is not a ./dist/*.js file`);
  return m[1];
}

/** The entries a plugin or a tool imports alone: what they share with the main entry is "base". */
const aloneEntries = ["skel/index", "types/index", "version/index", "utils/index", "otel/index"];

/** The packages the bundle may import: Node's own, and the package's declared dependencies. */
const packages = new Set([
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
]);

function isExternal(id) {
  if (id.startsWith("node:")) return true;
  // The lint validator, required at run time from beside the chunk (copied there below).
  if (id.endsWith(".generated.cjs")) return true;
  if (id.startsWith(".") || isAbsolute(id)) return false;
  const name = id.startsWith("@") ? id.split("/").slice(0, 2).join("/") : id.split("/")[0];
  if (!packages.has(name)) throw new Error(`build.mjs: src/ imports ${id}, not a dependency`);
  return true;
}

/** Removes what an earlier build left in dist/ (the spawner helpers in dist/native/ stay). */
async function cleanDist() {
  await mkdir(dist, { recursive: true });
  for (const name of await readdir(dist)) {
    if (name !== "native") await rm(join(dist, name), { recursive: true, force: true });
  }
  await rm(built, { recursive: true, force: true });
}

function tsc() {
  const bin = join(root, "node_modules/typescript/bin/tsc");
  const ran = spawnSync(process.execPath, [bin, "-p", join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });
  if (ran.status !== 0) process.exit(ran.status ?? 1);
}

/** Reads tsc's source map beside each module, so that dist's maps point into src/. */
const tscSourceMaps = {
  name: "tsc-source-maps",
  async load(id) {
    if (!id.startsWith(built)) return null;
    const code = await readFile(id, "utf8");
    const map = await readFile(`${id}.map`, "utf8").catch(() => null);
    return { code, map };
  },
};

/**
 * The spawner helper's path is written relative to src/engines/start/ (three levels below the
 * package root). In dist/ that module is part of a chunk in dist/chunks/, one level below.
 */
const helperPath = {
  name: "helper-path",
  transform(code, id) {
    if (!id.endsWith("/engines/start/select.js")) return null;
    const from = "`../../../dist/native/";
    if (!code.includes(from)) this.error(`select.js no longer names ${from}: update build.mjs`);
    return { code: code.replace(from, "`../native/"), map: null };
  },
};

/**
 * Each chunk without its comments (esbuild keeps those on class members): they stay in src/
 * and in the source maps. A loaded module's source is held in memory for the process's life,
 * and a third of it was comments (bench/README.md, "The bundle without its comments"). Function
 * and class names, statements and their layout stay, so a stack trace still reads.
 */
const stripComments = {
  name: "strip-comments",
  async renderChunk(code) {
    const out = await transform(code, {
      format: "esm",
      target: "esnext",
      legalComments: "none",
      sourcemap: "external",
    });
    return { code: out.code, map: out.map };
  },
};

/** The module ids an entry loads at import: its static imports, transitively. */
function staticClosure(getModuleInfo, entry) {
  const seen = new Set();
  const visit = (id) => {
    if (seen.has(id)) return;
    seen.add(id);
    for (const next of getModuleInfo(id)?.importedIds ?? []) visit(next);
  };
  visit(entry);
  return seen;
}

/** The main entry's modules (not the entry itself) to their chunk: "base" or "core". */
function chunkPlan(getModuleInfo, input) {
  const shared = new Set();
  for (const name of aloneEntries) {
    for (const id of staticClosure(getModuleInfo, input[name])) shared.add(id);
  }
  const plan = new Map();
  for (const id of staticClosure(getModuleInfo, input.index)) {
    if (id !== input.index && id.startsWith(built)) plan.set(id, shared.has(id) ? "base" : "core");
  }
  return plan;
}

async function bundle() {
  const input = entries();
  let plan;
  const build = await rollup({
    input,
    external: isExternal,
    plugins: [tscSourceMaps, helperPath, stripComments],
    onwarn(warning) {
      // Cycles inside a folder are allowed; test/architecture holds that none crosses folders.
      if (warning.code === "CIRCULAR_DEPENDENCY") return;
      throw new Error(`build.mjs: rollup: ${warning.message}`);
    },
  });
  await build.write({
    dir: dist,
    format: "es",
    sourcemap: true,
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    manualChunks(id, { getModuleInfo }) {
      plan ??= chunkPlan(getModuleInfo, input);
      return plan.get(id);
    },
  });
  await build.close();
}

await cleanDist();
tsc();
await copyFile(join(root, "src", validator), join(built, validator));
await bundle();
// Beside the chunks (lint-schema-findings requires it from its own directory).
await copyFile(join(root, "src", validator), join(dist, "chunks", "lint-validator.generated.cjs"));
for (const bin of typeof pkg.bin === "string" ? [pkg.bin] : Object.values(pkg.bin)) {
  await chmod(join(root, bin), 0o755);
}
process.stdout.write(`built ${relative(root, dist)}/ from ${relative(root, built)}/\n`);
