/**
 * The validator's async preload: an async caller (validateConfDir) loads it without the
 * synchronous require a first lint would make. node:module's createRequire fails here, so a
 * lint can only work from what the preload loaded.
 */
import { describe, expect, it, vi } from "vitest";
import { lintNetworkList } from "../../src/conf/lint.js";
import { preloadValidator } from "../../src/conf/lint-schema-findings.js";

vi.mock("node:module", () => ({
  createRequire: () => () => {
    throw new Error("the synchronous require ran");
  },
}));

describe("preloadValidator", () => {
  it("loads the generated validator without blocking, and the lint then uses it", async () => {
    expect(await preloadValidator()).toBe(true);
    const bytes = new TextEncoder().encode('{"cniVersion":"1.0.0","plugins":[{"type":"bridge"}]}');
    const { errors } = lintNetworkList(bytes);
    expect(errors.map((f) => f.message).join("\n")).toContain('"name"');
    expect(await preloadValidator()).toBe(true);
  });
});
