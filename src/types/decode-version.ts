/**
 * Reading a document's `cniVersion` (upstream `create.DecodeVersion`), apart from the result
 * types: a configuration's version is read on every plugin run, and needs none of them.
 */
import { parseJSON } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { DecodeVersionError } from "../errors/types.js";

const versionDecoder = defineStruct<{ cniVersion?: string }>("", {
  goType: 'struct { CNIVersion string "json:\\"cniVersion\\"" }',
  fields: { cniVersion: { type: "string" } },
});

/** Reads `cniVersion` from a parsed value, as Go's `DecodeVersion` would ("0.1.0" for none). */
export function resultVersionOf(value: unknown): string {
  try {
    return versionDecoder.decode(value).cniVersion || "0.1.0";
  } catch (error) {
    throw new DecodeVersionError(error as Error);
  }
}

/** Upstream `create.DecodeVersion` ("0.1.0" for none); throws `DecodeVersionError`. */
export function decodeVersion(bytes: string | Uint8Array): string {
  return resultVersionOf(parseForVersion(bytes));
}

/** Parses JSON whose version is wanted; a syntax error is a `DecodeVersionError`. */
export function parseForVersion(bytes: string | Uint8Array): unknown {
  try {
    return parseJSON(bytes);
  } catch (error) {
    throw new DecodeVersionError(error as Error);
  }
}
