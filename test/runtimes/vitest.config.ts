import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** `npm run test:runtimes`: the built library under Deno and Bun (see scripts/runtimes.mjs). */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/runtimes/**/*.test.ts"],
    testTimeout: 120_000,
    pool: "forks",
  },
});
