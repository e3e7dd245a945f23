/**
 * Input normalisation and JSON decoding shared by the parsers: every parse error becomes a
 * `ConfError` carrying upstream's message prefix and the decoder's error as `cause`.
 */

import { parseJSON } from "../encoding/parse.js";
import { ConfError } from "../errors/conf.js";
import { utf8Encode } from "../internal/bytes.js";
import { messageOf } from "../internal/error-message.js";
import { jsonKind } from "../internal/json-kind.js";

/** Configuration input: raw bytes as read from a file, or a string (encoded as UTF-8). */
export type ConfInput = Uint8Array | string;

/** The bytes of an input, unchanged when they already are bytes (Go keeps the same slice). */
export function inputBytes(input: ConfInput): Uint8Array {
  if (typeof input === "string") return utf8Encode(input);
  if (input instanceof Uint8Array) return input;
  throw new ConfError(`configuration must be a Uint8Array or a string, got ${jsonKind(input)}`);
}

/** Runs `fn`, turning anything it throws into a ConfError `<prefix><message>` with the cause. */
export function wrapErrors<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new ConfError(`${prefix}${messageOf(error)}`, { cause: error });
  }
}

/**
 * Go's `json.Unmarshal(bytes, &map[string]interface{})`: the JSON must be an object, or null
 * (which Go stores as a nil map). Throws the parser's error or Go's type error.
 */
export function unmarshalMap(input: ConfInput): Record<string, unknown> | null {
  const value = parseJSON(input);
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new ConfError(
      `json: cannot unmarshal ${jsonKind(value)} into Go value of type map[string]interface {}`,
    );
  }
  return value as Record<string, unknown>;
}
