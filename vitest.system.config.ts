import { defineConfig } from "vitest/config";

// `npm run test:system`: tests that need root, Go (golang-go, golang-github-appc-cni-dev) or
// Debian's containernetworking-plugins. They fail, never skip, where those are missing.
export default defineConfig({
  test: {
    include: ["test/**/*.system.test.ts"],
    exclude: ["test/e2e/**", "node_modules/**"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    // Two files at a time on these 2-core machines (vitest's default is one fewer than the
    // cores): most suites wait on plugin processes and namespaces, not on this process.
    maxWorkers: 2,
  },
});
