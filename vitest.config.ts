import { fileURLToPath } from "node:url";
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
    // The sources have no cache-write worker beside src/engines/files/write-thread.ts: the
    // built one (npm run build) serves their cache writes, named as a bundle names it.
    env: {
      LIBCNI_LAUNCHER: "direct",
      LIBCNI_CACHE_WRITE_WORKER: fileURLToPath(
        new URL("./dist/engines/files/write-worker.js", import.meta.url),
      ),
    },
  },
});
