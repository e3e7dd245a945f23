import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The example integration test, run as a user's project would run it: root (network
// namespaces) and real CNI plugins (Debian's containernetworking-plugins, or CNI_PATH), the
// package imported by its name from the build (`npm run build` first):
//   npm run build && npx vitest run --config examples/integration/vitest.config.ts
const root = fileURLToPath(new URL("../..", import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as {
  exports: Record<string, unknown>;
};

export default defineConfig({
  root,
  resolve: {
    // Until package.json exports `./testing`, point the name at the build so the test reads
    // as a user's; without effect once the entry exists.
    alias:
      pkg.exports["./testing"] === undefined
        ? { "libcni/testing": `${root}/dist/testing/index.js` }
        : {},
  },
  test: {
    include: ["examples/integration/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
