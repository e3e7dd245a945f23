import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The e2e suite: real plugins in network namespaces (root). Run with
// `npx vitest run --config test/e2e/vitest.config.ts` (npm run test:e2e).
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/e2e/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Each file builds its own namespaces; files in parallel are isolated from each other.
    fileParallelism: true,
    // Two files at a time (vitest's default on these 2-core machines is one): each file has a
    // host namespace and subnets of its own, and most of a file's time is spent waiting on
    // plugins and namespaces, not on this process.
    maxWorkers: 2,
  },
});
