/**
 * Creating results from JSON (upstream `types/create`). Bad input gives typed errors
 * (`JSONSyntaxError`, `UnmarshalTypeError`, `ParseError`, `DecodeVersionError`,
 * `UnsupportedResultVersionError`, `ResultVersionMismatchError`), never anything untyped.
 */
import { parseJSON } from "../encoding/parse.js";
import { findCreator } from "./convert.js";
import { decodeVersion, parseForVersion, resultVersionOf } from "./decode-version.js";
// The result modules register their converters and creators at load: v100 imports v040,
// which imports v020, so this one import registers every version.
import "./v100.js";
import type { Result } from "./result.js";

export { decodeVersion, findCreator, resultVersionOf };

/** Upstream `create.Create`: `bytes` decoded by `version`'s type, which must support theirs. */
export function createResultForVersion(version: string, bytes: string | Uint8Array): Result {
  return findCreator(version)(parseJSON(bytes));
}

/** Upstream `create.CreateFromBytes`: a result of the type of its `cniVersion` ("" is 0.1.0). */
export function createResult(bytes: string | Uint8Array): Result {
  return createResultFromValue(parseForVersion(bytes));
}

/** `createResult` of JSON already parsed (a cache record's result is not parsed again). */
export function createResultFromValue(value: unknown): Result {
  return findCreator(resultVersionOf(value))(value);
}

/** `result.getAsVersion(toVersion)` ("" means 0.1.0). */
export function convertResult(result: Result, toVersion: string): Result {
  return result.getAsVersion(toVersion);
}
