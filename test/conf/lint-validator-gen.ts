/**
 * Generates src/conf/lint-validator.generated.cjs: ajv's standalone code for the conflist
 * schema, as CommonJS so that the linter can load it synchronously on its first call. The
 * linter ships this code instead of ajv, so the package keeps no runtime dependency and never
 * compiles (or evals) a schema at run time. The test next to this file
 * checks the committed copy is what this produces; `LIBCNI_REGENERATE=1` rewrites it.
 */
import { Ajv } from "ajv";
import standalone from "ajv/dist/standalone/index.js";

// A CommonJS module seen from ESM: its default export is `module.exports`, whose `default` is the function.
const standaloneCode = standalone.default;

import { conflistSchema } from "../../src/conf/lint-schema.js";

/** Where the generated validator lives. */
export const generatedPath = new URL(
  "../../src/conf/lint-validator.generated.cjs",
  import.meta.url,
);

const header = `/*
 * GENERATED from src/conf/lint-schema.ts by ajv standalone (test/conf/lint-validator-gen.ts).
 * Do not edit: change the schema, then run
 *   LIBCNI_REGENERATE=1 npx vitest run test/conf/lint-validator.test.ts
 * It requires nothing: the package ships it instead of ajv. Biome skips it (biome.json).
 */
`;

/** The source of the generated module. */
export function generateValidator(): string {
  const ajv = new Ajv({
    allErrors: true,
    // The rules sit in allOf branches by severity, so a branch names keys and types another
    // branch defines: only unknown keywords stay fatal.
    strict: true,
    strictRequired: false,
    strictTypes: false,
    code: { source: true, esm: false },
  });
  ajv.addVocabulary(["x-severity", "x-message"]);
  ajv.addSchema(conflistSchema, "conflist");
  const code = standaloneCode(ajv, { validateConflist: "conflist" });
  return `${header}${code}\n`;
}
