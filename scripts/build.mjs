/**
 * `npm run build`: the package as it ships.
 *
 * 1. tsc compiles src/ into build/ (one .js per source file, with source maps, at the same
 *    depth below the repository as src/'s) and writes the declarations into dist/, where
 *    package.json's `types` point.
 * 2. Rollup bundles build/ into dist/: each entry of package.json `exports` (and the cnitool
 *    bin) at its own path, what entries share in dist/chunks/. Everything the main entry loads
 *    at import is one chunk, `chunks/core-<hash>.js`: Node's loader pays per module file
 *    (resolve, read, link), so `import "libcni"` reads two files instead of one per source file
 *    (bench/README.md has the import times). Modules reached by dynamic import() stay in chunks
 *    of their own, loaded by the first call that needs them, as in src/.
 *
 * build/ is not shipped: tests, benchmarks and scripts that need a module the entries do not
 * export run it from there, in a process of their own.
 */
import { spawnSync } from "node:child_process";
import { chmod, copyFile, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
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
  for (const target of [...Object.values(pkg.exports), ...Object.values(pkg.bin)]) {
    const file = typeof target === "string" ? target : target.import;
    if (!file?.endsWith(".js")) continue;
    const name = file.replace(/^\.\/dist\//, "").replace(/\.js$/, "");
    out[name] = join(built, `${name}.js`);
  }
  return out;
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

/** The module ids the main entry loads at import: its static imports, transitively. */
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

async function bundle() {
  const input = entries();
  let core;
  const build = await rollup({
    input,
    external: (id) => id.startsWith("node:") || id.endsWith(".cjs") || !/^[./]/.test(id),
    plugins: [tscSourceMaps, helperPath],
    onwarn(warning, warn) {
      // A cycle between modules of one folder is allowed (the architecture test rules folders).
      if (warning.code === "CIRCULAR_DEPENDENCY") return;
      warn(warning);
    },
  });
  await build.write({
    dir: dist,
    format: "es",
    sourcemap: true,
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
    manualChunks(id, { getModuleInfo }) {
      core ??= staticClosure(getModuleInfo, input.index);
      return core.has(id) && id !== input.index && id.startsWith(built) ? "core" : undefined;
    },
  });
  await build.close();
}

await cleanDist();
tsc();
await copyFile(join(root, "src", validator), join(built, validator));
await bundle();
// Beside the chunk that lints (lint-schema-findings requires it from its own directory).
await copyFile(join(root, "src", validator), join(dist, "chunks", "lint-validator.generated.cjs"));
await chmod(join(root, pkg.bin.cnitool), 0o755);
process.stdout.write(`built ${relative(root, dist)}/ from ${relative(root, built)}/\n`);
