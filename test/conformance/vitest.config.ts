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
  },
});
