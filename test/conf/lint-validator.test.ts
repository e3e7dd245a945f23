/**
 * The committed standalone validator is the one ajv generates from the schema today, and it
 * imports nothing (the package has no runtime dependency on ajv).
 */
import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generatedPath, generateValidator } from "./lint-validator-gen.js";

describe("lint-validator.generated.cjs", () => {
  it("is what ajv generates from lint-schema.ts (LIBCNI_REGENERATE=1 rewrites it)", async () => {
    const fresh = generateValidator();
    if (process.env.LIBCNI_REGENERATE === "1") await writeFile(generatedPath, fresh);
    expect(await readFile(generatedPath, "utf8")).toBe(fresh);
  });

  it("imports and requires nothing", async () => {
    const text = await readFile(generatedPath, "utf8");
    expect(text).not.toMatch(/\brequire\s*\(|\bimport\b/);
    expect(text).toMatch(/\bexports\.validateConflist = /);
  });
});
