import { defineConfig } from "vitest/config";

// `npm test`: everything that runs after `npm ci` alone. Suites that need root, Go or Debian's
// plugins are *.system.test.ts (npm run test:system), test/e2e and test/conformance; the ones
// that need other runtimes are test/runtimes (npm run test:runtimes), those run by a user who is
// not root test/rootless (npm run test:rootless); CI runs all.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [
      "**/*.system.test.ts",
      "test/e2e/**",
      "test/conformance/**",
      "test/runtimes/**",
      "test/rootless/**",
      "node_modules/**",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two files at a time on these 2-core machines (vitest's default is one fewer than the
    // cores): most suites wait on plugin processes and namespaces, not on this process.
    maxWorkers: 2,
    // The exec suites run with the direct spawn here, whether or not the spawner binary was
    // built; the system tier runs them again through the spawner (test/engines/spawner/).
    env: {
      LIBCNI_LAUNCHER: "direct",
    },
  },
});
