#!/usr/bin/env node
/**
 * `npm run lint:package`: the tarball as npm would publish it, checked by publint (package.json
 * fields, exports, files) and by Are the Types Wrong (types resolution per module mode). Run
 * after `npm run build`; packs once with --ignore-scripts, so prepack's build is not repeated.
 *
 * attw profile: `node16` (node16 from CJS, node16 from ESM, bundler; node10 cannot see subpath
 * exports at all), with `cjs-resolves-to-esm` ignored: the package is ESM-only and CommonJS
 * loads it through require(esm), which Node >= 20.19 (our `engines`) and TypeScript >= 5.8
 * under `module: nodenext` support. test/pack/pack.test.ts proves that path end to end.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";

const root = fileURLToPath(new URL("..", import.meta.url));
const temp = await mkdtemp(join(tmpdir(), "libcni-lint-package-"));

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, encoding: "utf8" });
  if (r.error) throw r.error;
  return r;
}

let failed = false;
try {
  const packed = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", temp]);
  if (packed.status !== 0) {
    process.stderr.write(packed.stderr);
    throw new Error("lint:package: npm pack failed");
  }
  const [{ filename }] = JSON.parse(packed.stdout);
  const tarball = join(temp, filename);

  const bytes = await readFile(tarball);
  const { messages, pkg } = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    strict: true,
  });
  for (const message of messages) {
    console.error(`publint ${message.type}: ${formatMessage(message, pkg)}`);
  }
  if (messages.length > 0) failed = true;
  else console.log("publint: no issues");

  const attw = run(join(root, "node_modules", ".bin", "attw"), [
    tarball,
    "--profile",
    "node16",
    "--ignore-rules",
    "cjs-resolves-to-esm",
    "--format",
    "table-flipped",
    "--no-emoji",
    "--no-color",
  ]);
  if (attw.status !== 0) {
    process.stderr.write(attw.stdout + attw.stderr);
    failed = true;
  } else {
    console.log("attw: no problems (profile node16, cjs-resolves-to-esm ignored)");
  }
} finally {
  await rm(temp, { recursive: true, force: true });
}
if (failed) {
  console.error("lint:package: the package as published has the problems above.");
  process.exit(1);
}
