import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The example integration test, run as a user's project would run it: root (network
// namespaces) and real CNI plugins (Debian's containernetworking-plugins, or CNI_PATH), the
// package imported by its name, so from the build (`npm run build` first):
//   npm run build && npx vitest run --config examples/integration/vitest.config.ts
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["examples/integration/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
