import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The differential conformance suite (needs go and golang-github-appc-cni-dev). */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/conformance/**/*.test.ts"],
    testTimeout: 900_000,
    hookTimeout: 180_000,
    pool: "forks",
    // The sources have no cache-write worker beside src/engines/files/write-thread.ts: the
    // built one (npm run build) serves their cache writes, named as a bundle names it.
    env: {
      LIBCNI_CACHE_WRITE_WORKER: fileURLToPath(
        new URL("../../dist/engines/files/write-worker.js", import.meta.url),
      ),
    },
  },
});
