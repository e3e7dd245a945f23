/**
 * Creating results from JSON (upstream `types/create`): `decodeVersion` reads `cniVersion`
 * ("" or missing means 0.1.0), `createResultForVersion` decodes with the result type of a given
 * version, `createResult` does both. Inputs that are not JSON, or JSON of the wrong shape, give
 * typed errors (`JSONSyntaxError`, `UnmarshalTypeError`, `ParseError`, `DecodeVersionError`,
 * `UnsupportedResultVersionError`, `ResultVersionMismatchError`), never anything untyped.
 */
import { parseJSON } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { UnmarshalTypeError } from "../errors/go.js";
import { jsonKind } from "../internal/json-kind.js";
import { findCreator } from "./convert.js";
// The result modules register their converters and creators at load: v100 imports v040,
// which imports v020, so this one import registers every version.
import "./v100.js";
import { DecodeVersionError } from "../errors/types.js";
import type { Result } from "./result.js";

const versionDecoder = defineStruct<{ cniVersion?: string }>("", {
  fields: { cniVersion: { type: "string" } },
});

export { findCreator };

/** The Go type Go names for `DecodeVersion`'s anonymous struct in a top-level type error. */
const anonymousVersionStruct = 'struct { CNIVersion string "json:\\"cniVersion\\"" }';

/** Reads `cniVersion` from a parsed value, as Go's `DecodeVersion` would ("0.1.0" for none). */
export function resultVersionOf(value: unknown): string {
  if (value !== null && (typeof value !== "object" || Array.isArray(value))) {
    throw new DecodeVersionError(new UnmarshalTypeError(jsonKind(value), anonymousVersionStruct));
  }
  try {
    return versionDecoder.decode(value ?? {}).cniVersion || "0.1.0";
  } catch (error) {
    throw new DecodeVersionError(error as Error);
  }
}

/**
 * Upstream `create.DecodeVersion`: the `cniVersion` of a configuration or result, "0.1.0" when
 * it is missing or empty. Throws `DecodeVersionError` when the JSON is malformed.
 */
export function decodeVersion(bytes: string | Uint8Array): string {
  return resultVersionOf(parseForVersion(bytes));
}

function parseForVersion(bytes: string | Uint8Array): unknown {
  try {
    return parseJSON(bytes);
  } catch (error) {
    throw new DecodeVersionError(error as Error);
  }
}

/**
 * Upstream `create.Create`: decodes `bytes` with the result type that handles `version`.
 * The JSON's own `cniVersion` must be one that type supports.
 */
export function createResultForVersion(version: string, bytes: string | Uint8Array): Result {
  const create = findCreator(version);
  return create(parseJSON(bytes));
}

/**
 * Upstream `create.CreateFromBytes`: decodes a result, choosing its type by its `cniVersion`
 * ("" means 0.1.0).
 */
export function createResult(bytes: string | Uint8Array): Result {
  return createResultFromValue(parseForVersion(bytes));
}

/**
 * `createResult` of JSON already parsed (what `parseJSON` gives): the result of a cache record
 * is decoded once, not marshalled and parsed again.
 */
export function createResultFromValue(value: unknown): Result {
  return findCreator(resultVersionOf(value))(value);
}

/**
 * A result converted to `toVersion` ("" means 0.1.0): `result.getAsVersion(toVersion)`, as
 * upstream's `GetAsVersion` (which fills in an empty version first).
 */
export function convertResult(result: Result, toVersion: string): Result {
  return result.getAsVersion(toVersion);
}
