/**
 * Schema findings: the generated validator's errors for a document, turned into findings with
 * the severity and text the schema annotates (`x-severity`, `x-message`, see lint-schema.ts).
 */

import { createRequire } from "node:module";
import { levenshtein } from "../internal/levenshtein.js";
import { pointerOf, tokensOf, unescapeToken } from "./lint-pointer.js";
import { conflistSchema, type SchemaNode } from "./lint-schema.js";
import type { LintFinding } from "./lint-types.js";

/** The shape of an error of ajv's generated code. */
interface ValidatorError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

type Validator = ((data: unknown) => boolean) & { errors?: ValidatorError[] | null };

let validator: Validator | undefined;

/**
 * The generated validator, the linter's largest part, loaded by the first lint rather than by
 * `import "libcni"`. The linter is synchronous, so the validator is CommonJS, required once
 * from beside this file: module loading, as an import is, not file I/O on a lint's path.
 */
function loadValidator(): Validator {
  if (validator !== undefined) return validator;
  let loaded: { validateConflist: Validator };
  try {
    loaded = createRequire(import.meta.url)("./lint-validator.generated.cjs");
  } catch (error) {
    // A bundle (the file is not beside it): esbuild and webpack replace this require() with
    // the bundled file. The plain require is never the first try: `node -e` has a global one.
    if (typeof require !== "function") throw error;
    loaded = require("./lint-validator.generated.cjs");
  }
  validator = loaded.validateConflist;
  return validator;
}

/**
 * Loads the validator without blocking, for an async caller about to lint (validateConfDir),
 * whose first lint would otherwise read and compile it synchronously. True when it is loaded;
 * false in a bundle (the file is not beside this module), where the first lint requires it.
 */
export async function preloadValidator(): Promise<boolean> {
  if (validator !== undefined) return true;
  try {
    const url = new URL("./lint-validator.generated.cjs", import.meta.url).href;
    const loaded = (await import(url)) as { default: { validateConflist: Validator } };
    validator ??= loaded.default.validateConflist;
    return true;
  } catch {
    return false;
  }
}

/**
 * The schema node a `schemaPath` (`#/allOf/2/properties/name/type`) names, keyword dropped
 * (none found: no annotations, and the finding falls back to ajv's text).
 */
function ruleOf(schemaPath: string): SchemaNode {
  let node: unknown = conflistSchema;
  for (const token of tokensOf(schemaPath.slice(1)).slice(0, -1)) {
    // ajv writes each token URI-encoded after JSON Pointer escaping (`%5Ecni%5C.dev~1`).
    node = (node as Record<string, unknown> | undefined)?.[
      unescapeToken(decodeURIComponent(token))
    ];
  }
  return (node ?? {}) as SchemaNode;
}

/** An anyOf or not reports once, by its own message: what failed inside it is noise. */
function isInsideAlternative(schemaPath: string): boolean {
  const tokens = tokensOf(schemaPath.slice(1));
  return tokens.slice(0, -1).some((t) => t === "anyOf" || t === "not");
}

/** The known key an unknown one is probably a typo of (`plugin` for `plugins`). */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  return (
    known.find((k) => k.toLowerCase() === lower) ??
    known.find((k) => key.length > 3 && levenshtein(lower, k.toLowerCase()) <= 2)
  );
}

/** The rules on capability names (in `capabilities` and in `runtimeConfig`). */
const isCapabilityRule = (text: string): boolean => text.startsWith("unknown capability");

function findingOf(error: ValidatorError): LintFinding {
  const rule = ruleOf(error.schemaPath);
  const severity = rule["x-severity"] === "warning" ? "warning" : "error";
  const text = typeof rule["x-message"] === "string" ? rule["x-message"] : (error.message ?? "");
  const at = tokensOf(error.instancePath).map(unescapeToken);
  if (error.keyword === "additionalProperties") {
    const key = String(error.params.additionalProperty);
    const known = Object.keys((rule.properties ?? {}) as object);
    const guess = suggestKey(key, known);
    const hint = guess === undefined ? "" : ` (did you mean ${JSON.stringify(guess)}?)`;
    // A capability in another case is never delivered: runtimes match the names exactly.
    const pointer = pointerOf([...at, key]);
    if (guess?.toLowerCase() === key.toLowerCase() && isCapabilityRule(text)) {
      const message = `capability names are matched exactly: ${JSON.stringify(key)} is never delivered${hint}`;
      return { pointer, message, severity: "error" };
    }
    return { pointer, message: `${text}${hint}`, severity };
  }
  const missing = error.keyword === "required" ? [String(error.params.missingProperty)] : [];
  return { pointer: pointerOf([...at, ...missing]), message: text, severity };
}

/** Every rule of the schema the document breaks, as findings (unsorted). */
export function schemaFindings(document: unknown): LintFinding[] {
  const validate = loadValidator();
  if (validate(document)) return [];
  return (validate.errors ?? []).filter((e) => !isInsideAlternative(e.schemaPath)).map(findingOf);
}
