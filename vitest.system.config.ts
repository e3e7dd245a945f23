import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";

// `npm run test:system`: tests that need root, Go (golang-go, golang-github-appc-cni-dev) or
// Debian's containernetworking-plugins. They fail, never skip, where those are missing.
// Four projects: `alone` runs first, then `side-by-side`, `main-line-only` and `rootless-too`.

// Runs alone, before the rest: it kills a test process and asserts that one named sweeper
// removes its leftovers. Any other file's first tempNetns sweeps the same /run/netns, so a file
// running beside it could take them first.
const alone = ["test/testing/sweep.system.test.ts"];

// Run on the main Node line only (scripts/test-node-lines.mjs leaves this project out): they
// measure plugins, not the Node line (the checker on each broken test plugin and on the skel
// examples), and take more than half of the tier's time. Debian's plugins against their table
// run in the rootless tier (test/rootless/, npm run test:rootless), which writes the same table.
const mainLineOnly = [
  "test/testing/conformance/broken-plugins.system.test.ts",
  "test/testing/conformance/examples.system.test.ts",
];

// Run by the rootless tier too, inside its sandbox (vitest.rootless.config.mjs), where they prove
// the same as here: CI's root run leaves this project out (`.ci/run`), `npm run test:system` and
// the other Node lines (scripts/test-node-lines.mjs) run it.
const rootlessToo = [
  "test/testing/conformance/checker.system.test.ts",
  "test/testing/conformance/options.system.test.ts",
  "test/testing/failpoint.system.test.ts",
  "test/testing/temp-netns.system.test.ts",
  "test/testing/test-host.system.test.ts",
];

// A renamed suite would otherwise drop out of a project, or run everywhere again, unnoticed.
for (const file of [...alone, ...mainLineOnly, ...rootlessToo])
  if (!existsSync(new URL(file, import.meta.url)))
    throw new Error(`vitest.system.config.ts lists ${file}: not found`);

export default defineConfig({
  test: {
    exclude: ["test/e2e/**", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    // Two files at a time on these 2-core machines (vitest's default is one fewer than the
    // cores): most suites wait on plugin processes and namespaces, not on this process.
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: "alone", include: alone, sequence: { groupOrder: 0 } } },
      {
        extends: true,
        test: {
          name: "side-by-side",
          include: ["test/**/*.system.test.ts"],
          exclude: [...alone, ...mainLineOnly, ...rootlessToo],
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: { name: "rootless-too", include: rootlessToo, sequence: { groupOrder: 1 } },
      },
      {
        extends: true,
        test: { name: "main-line-only", include: mainLineOnly, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
