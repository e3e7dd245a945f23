import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";

// `npm run test:rootless`: the rootless sandbox (`cnitool rootless`, libcni/testing's
// runRootless), run by a user who is not root: test/rootless/ makes its sandboxes through the
// documented step and checks what they give (the README's integration test, cnitool
// conformance on Debian's bridge, Debian's table of docs/conformance.md) and what they leave.
// Its system-suites test runs the `in-sandbox*` projects below inside one sandbox: the system
// tier's namespace, testing-kit and checker suites, dogfooding the mode. A plain .mjs, loaded
// with `--configLoader native`: the user may not write the checkout (vite bundles a .ts config
// into node_modules/.vite-temp).

// Runs alone, before the rest of the sandbox's run, as in the root tier (vitest.system.config.ts).
const alone = ["test/testing/sweep.system.test.ts"];

const inSandbox = [
  "test/netns/netns.system.test.ts",
  "test/netns/symlink.system.test.ts",
  "test/netns/review.system.test.ts",
  "test/netns/no-fork.system.test.ts",
  "test/netns/helper-death.system.test.ts",
  "test/testing/temp-netns.system.test.ts",
  "test/testing/test-host.system.test.ts",
  "test/testing/failpoint.system.test.ts",
  "test/testing/conformance/checker.system.test.ts",
  "test/testing/conformance/options.system.test.ts",
];

// A renamed suite would otherwise drop out unnoticed.
for (const file of [...alone, ...inSandbox])
  if (!existsSync(new URL(file, import.meta.url)))
    throw new Error(`vitest.rootless.config.mjs lists ${file}: not found`);

export default defineConfig({
  test: {
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: "rootless", include: ["test/rootless/**/*.rootless.test.ts"] },
      },
      {
        extends: true,
        test: { name: "in-sandbox-alone", include: alone, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: { name: "in-sandbox", include: inSandbox, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
