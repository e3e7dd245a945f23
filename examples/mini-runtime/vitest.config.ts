import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// examples/mini-runtime's test, run as a user runs mini: root, runc, busybox-static and
// Debian's containernetworking-plugins; mini imports the package by its name, so from the
// build (`npm run build` first):
//   npm run build && npx vitest run --config examples/mini-runtime/vitest.config.ts
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["examples/mini-runtime/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
