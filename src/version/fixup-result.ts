/**
 * Upstream's fixupResultVersion (pkg/invoke/exec.go): a plugin result's version. Here, below
 * invoke, because both invoke and large-documents decode a plugin's output.
 *
 * A plugin must answer in its config's version, but some print results without a cniVersion;
 * upstream (issue #895) takes the config's version for them rather than the spec's literal
 * 0.1.0. The result is never converted: a plugin that answers in another version is believed.
 */
import { marshal } from "../encoding/json.js";
import { parseJSON } from "../encoding/parse.js";
import { UnmarshalTypeError } from "../errors/go.js";
import { CNIError } from "../errors/types.js";
import { utf8Encode } from "../internal/bytes.js";
import { messageOf } from "../internal/error-message.js";
import { jsonKind } from "../internal/json-kind.js";
import { ErrDecodingFailure } from "../types/error-codes.js";
import { configDecoder } from "./conf.js";

/** What `fixupResultVersion` gives: the version, the bytes, and those bytes already parsed. */
export interface FixedResult {
  /** The result's version: its own, or the config's when it had none. */
  version: string;
  /** The result's bytes, with the config's version written in when it had none. */
  bytes: Uint8Array;
  /** `bytes` parsed (what parsing them again would give), so the result is decoded once. */
  value: Record<string, unknown>;
}

/**
 * The result's own `cniVersion` with the bytes unchanged, or, when it is missing, empty or not
 * a string, the config's version written in (re-encoded as Go encodes a map). `null` counts as
 * `{}`; output that is not a JSON object throws a CNIError, code 6. `knownConfVersion` spares
 * parsing the config when the caller knows its version.
 */
export function fixupResultVersion(
  netconf: Uint8Array,
  result: Uint8Array,
  knownConfVersion?: string,
): FixedResult {
  const confVersion = knownConfVersion ?? configDecoder.decode(netconf);
  let raw: unknown;
  try {
    raw = parseJSON(result);
    if (raw !== null && (typeof raw !== "object" || Array.isArray(raw))) {
      throw new UnmarshalTypeError(jsonKind(raw), "map[string]interface {}");
    }
  } catch (error) {
    const text = `failed to unmarshal raw result: ${messageOf(error)}`;
    throw new CNIError(ErrDecodingFailure, text, "", { cause: error });
  }
  // Go decodes "null" into a nil map; upstream replaces it with an empty one.
  const value = (raw ?? {}) as Record<string, unknown>;
  return fixupParsedResult(netconf, result, value, () => {}, confVersion);
}

/**
 * `fixupResultVersion` of output already parsed into the object `value` (a large document's
 * parse, src/large-documents/). `beforeEncoding` makes `value` plain for the encoder, in the
 * rare case it is re-encoded (a result without a version).
 */
export function fixupParsedResult(
  netconf: Uint8Array,
  result: Uint8Array,
  value: Record<string, unknown>,
  beforeEncoding: () => void,
  knownConfVersion?: string,
): FixedResult {
  const confVersion = knownConfVersion ?? configDecoder.decode(netconf);
  const resultVersion = value.cniVersion;
  if (typeof resultVersion === "string" && resultVersion !== "") {
    return { version: resultVersion, bytes: result, value };
  }
  beforeEncoding();
  value.cniVersion = confVersion;
  // Go decodes what it re-encoded, keys sorted: of keys that fold together the last so wins.
  const bytes = utf8Encode(marshal(value));
  return { version: confVersion, bytes, value: parseJSON(bytes) as Record<string, unknown> };
}
