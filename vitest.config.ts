import { defineConfig } from "vitest/config";

// `npm test`: everything that runs after `npm ci` alone. Suites that need root, Go or Debian's
// plugins are *.system.test.ts (npm run test:system), test/e2e and test/conformance; the ones
// that need other runtimes are test/runtimes (npm run test:runtimes); CI runs all.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [
      "**/*.system.test.ts",
      "test/e2e/**",
      "test/conformance/**",
      "test/runtimes/**",
      "node_modules/**",
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The exec suites run with the direct spawn here, whether or not the spawner binary was
    // built; the system tier runs them again through the spawner (test/invoke/spawner/).
    env: { LIBCNI_LAUNCHER: "direct" },
  },
});
