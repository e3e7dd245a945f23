/**
 * The result cache record (upstream's `cachedInfo`), encoded and decoded exactly as Go does.
 *
 * Go runtimes on the same host read and write the same files under `/var/lib/cni/results`, so
 * the bytes must match: a Go struct with fields in this order, `omitempty` on the last four,
 * `config` as base64, `capabilityArgs` and `result` as Go maps (keys sorted at every level).
 */

import { decodeStdBase64 } from "../encoding/base64.js";
import { EncodedJSON, goStruct, marshal, marshalAsMap } from "../encoding/json.js";
import { maxNestingDepth, parseJSON, setOwn } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { UnmarshalTypeError } from "../errors/go.js";
import { utf8Encode } from "../internal/bytes.js";
import { isJSONObject, jsonKind } from "../internal/json-kind.js";
import { CNICacheV1 } from "./constants.js";

export { CNICacheV1 } from "./constants.js";

/**
 * A decoded cache record, upstream's `cachedInfo` (JSON keys as the fields; undefined is Go's
 * nil): the attachment, what ADD was given (`config`: the list's or the single plugin's bytes;
 * `netns` "" when none) and the final result of its chain, as a JSON map.
 */
export interface CacheRecord {
  /** `cniCacheV1` for a record; anything else means a legacy or foreign file. */
  kind: string;
  containerId: string;
  config: Uint8Array | undefined;
  ifName: string;
  networkName: string;
  netns: string;
  cniArgs: [string, string][] | undefined;
  capabilityArgs: Record<string, unknown> | undefined;
  result: Record<string, unknown> | undefined;
}

/**
 * What ADD stores: the attachment, its inputs and the chain's result (encoded with its own Go
 * encoding: any value `marshal` accepts). An empty `netns`, `cniArgs` or `capabilityArgs` is
 * left out of the record; plain objects in `capabilityArgs` are encoded as Go maps.
 */
export interface CacheRecordInput {
  containerId: string;
  config: Uint8Array | undefined;
  ifName: string;
  networkName: string;
  netns?: string;
  cniArgs?: readonly (readonly [string, string])[];
  capabilityArgs?: Record<string, unknown>;
  result?: unknown;
}

/**
 * Encodes a record as Go's `json.Marshal(&cachedInfo)`. Upstream puts the result through a
 * JSON map (marshal, unmarshal into `map[string]interface{}`, marshal again), so its keys come
 * out sorted whatever the result's own encoding; {@link marshalAsMap} writes those same bytes
 * in one pass over the result, without the intermediate text and map.
 */
export function encodeCacheRecord(input: CacheRecordInput): Uint8Array {
  return utf8Encode(encodeCacheRecordText(input));
}

/** The text of {@link encodeCacheRecord}. */
export function encodeCacheRecordText(input: CacheRecordInput): string {
  let result: EncodedJSON | undefined;
  if (input.result !== undefined && input.result !== null) {
    const text = marshalAsMap(input.result);
    // Only a non-empty JSON object is kept (Go: a map, omitempty).
    if (text.startsWith("{") && text !== "{}") result = new EncodedJSON(text);
  }
  // An undefined member is absent (the encoder skips it): a map of only those is empty.
  const nonEmpty = <T extends object>(v: T | undefined): T | undefined =>
    v !== undefined && Object.values(v).some((m) => m !== undefined) ? v : undefined;
  const record = goStruct({
    kind: CNICacheV1,
    containerId: input.containerId,
    // Go writes a nil []byte as null, an empty one as "".
    config: input.config ?? null,
    ifName: input.ifName,
    networkName: input.networkName,
    netns: input.netns === "" ? undefined : input.netns,
    cniArgs: nonEmpty(input.cniArgs),
    capabilityArgs: nonEmpty(input.capabilityArgs),
    result,
  });
  return marshal(record);
}

interface RawRecord {
  kind?: string;
  containerId?: string;
  config?: unknown;
  ifName?: string;
  networkName?: string;
  netns?: string;
  cniArgs?: unknown;
  capabilityArgs?: Record<string, unknown>;
  result?: Record<string, unknown>;
}

const recordDecoder = defineStruct<RawRecord>("cachedInfo", {
  fields: {
    kind: { type: "string" },
    containerId: { type: "string" },
    // []byte: a base64 string, or (Go accepts it too) an array of byte values; decoded below.
    config: { type: "any", goType: "[]uint8" },
    ifName: { type: "string" },
    networkName: { type: "string" },
    netns: { type: "string" },
    // [][2]string has rules of its own (short arrays padded, long ones cut): decoded below.
    cniArgs: { type: "any", goType: "[][2]string" },
    capabilityArgs: { type: "map", values: { type: "any" } },
    result: { type: "map", values: { type: "any" } },
  },
});

/** Go's error for a value of the wrong kind in the record's `field` (`integer`: jsonKind's). */
const typeError = (field: string, v: unknown, goType: string, integer = false) =>
  new UnmarshalTypeError(jsonKind(v, integer), goType, "cachedInfo", field);

/**
 * Go's decoding of a JSON value into `[][2]string`: each pair padded or cut to two strings
 * (what is past the second is skipped unread, whatever its type).
 */
function decodeCniArgs(value: unknown): [string, string][] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw typeError("cniArgs", value, "[][2]string");
  return value.map((pair): [string, string] => {
    if (pair === null) return ["", ""];
    if (!Array.isArray(pair)) throw typeError("cniArgs", pair, "[2]string");
    const out: [string, string] = ["", ""];
    for (let i = 0; i < Math.min(pair.length, 2); i++) {
      const item: unknown = pair[i];
      if (item === null) continue;
      if (typeof item !== "string") throw typeError("cniArgs", item, "string");
      out[i] = item;
    }
    return out;
  });
}

const canonicalBase64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Go's decoding of a JSON value into `[]byte`: base64 text, or an array of numbers 0..255. */
function decodeConfig(value: unknown): Uint8Array | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") {
    // Canonical padded base64 (what every writer produces) decodes natively; anything else
    // goes through the port of Go's decoder for its exact acceptance and error offsets.
    if (canonicalBase64.test(value)) return new Uint8Array(Buffer.from(value, "base64"));
    return decodeStdBase64(utf8Encode(value));
  }
  if (!Array.isArray(value)) throw typeError("config", value, "[]uint8");
  return Uint8Array.from(value, (item: unknown) => {
    if (item === null) return 0;
    if (typeof item !== "number") throw typeError("config", item, "uint8");
    if (!Number.isInteger(item) || item < 0 || item > 255) {
      throw typeError("config", item, "uint8", true);
    }
    return item;
  });
}

const stringFields = new Set(["kind", "containerId", "ifName", "networkName", "netns"]);
const mapFields = new Set(["capabilityArgs", "result"]);
const selfCheckedFields = new Set(["config", "cniArgs"]);

/**
 * The record as the struct decoder would give it, when the object holds only the exact JSON
 * keys with values of the right kind (every record Go or this library writes); undefined
 * otherwise, for the struct decoder's case-insensitive matching and error texts. Listing
 * thousands of records (GC) spends most of its time here.
 */
function canonicalRecord(value: Record<string, unknown>): RawRecord | undefined {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (stringFields.has(key)) {
      if (typeof item !== "string") return undefined;
    } else if (mapFields.has(key)) {
      if (item === null) continue;
      if (!isJSONObject(item)) return undefined;
    } else if (!selfCheckedFields.has(key)) {
      return undefined;
    }
    out[key] = item;
  }
  return out as RawRecord;
}

/**
 * Decodes a record as Go's `json.Unmarshal(bytes, &cachedInfo)`: keys matched
 * case-insensitively, unknown keys ignored, a wrong type or bad base64 an error. Throws
 * `JSONSyntaxError` for bytes that are not JSON (an empty file included), `UnmarshalTypeError`
 * for a wrong type and `CorruptInputError` for bad base64 in `config`.
 */
export function decodeCacheRecord(bytes: Uint8Array): CacheRecord {
  return decodeCacheRecordValue(parseJSON(bytes));
}

/** `decodeCacheRecord` of the record's JSON already parsed. */
export function decodeCacheRecordValue(value: unknown): CacheRecord {
  // Go: `null` leaves the struct as it is; any other non-object names the package-qualified type.
  if (value !== null && !isJSONObject(value)) {
    throw new UnmarshalTypeError(jsonKind(value), "libcni.cachedInfo", "", "");
  }
  const raw: RawRecord =
    value === null ? {} : (canonicalRecord(value) ?? recordDecoder.decode(value));
  return {
    kind: raw.kind ?? "",
    containerId: raw.containerId ?? "",
    config: decodeConfig(raw.config),
    ifName: raw.ifName ?? "",
    networkName: raw.networkName ?? "",
    netns: raw.netns ?? "",
    cniArgs: decodeCniArgs(raw.cniArgs),
    capabilityArgs: raw.capabilityArgs,
    result: raw.result,
  };
}

/**
 * The deepest a capability value may nest: a cache record holds it at `capabilityArgs.<name>`,
 * two levels down, and a record (as Go's decoder reads it) nests at most 10,000 levels. A
 * deeper value would be sent to the plugins, and its record could never be read back.
 */
export const MAX_CAPABILITY_DEPTH = maxNestingDepth - 2;

/**
 * True when `value` nests deeper than `limit` levels (an object or array is one level more
 * than its deepest member). The walk keeps its own stack, never the call stack, and stops at
 * the limit (so a cyclic value ends too).
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (typeof item !== "object" || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

function sortedByBytes(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) {
    if (Buffer.compare(utf8Encode(keys[i - 1]), utf8Encode(keys[i])) > 0) return false;
  }
  return true;
}

/**
 * Capability args read back from a cache record (or an intent), ready to be sent again: a DEL or
 * CHECK from the cache sends the bytes the ADD sent, as go-cni sends its structs again. An
 * object whose keys are not sorted was written from a Go struct, and is marked as one to be
 * written again in that order; sorted keys were a Go map's (or in order anyway).
 */
export function restoreCapabilityStructs(args: Record<string, unknown>): Record<string, unknown> {
  // The copy keeps its own stack: a record's value may nest to Go's limit (10,000 levels),
  // deeper than the call stack allows a recursive walk.
  const pending: [object, object][] = [];
  const shell = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      pending.push([value, out]);
      return out;
    }
    // The copy gets the same keys in the same order, so the order is judged on the original.
    const out: Record<string, unknown> = {};
    pending.push([value, out]);
    return sortedByBytes(Object.keys(value)) ? out : goStruct(out);
  };
  const top = shell(args) as Record<string, unknown>;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (to as unknown[])[i] = shell(from[i]);
      continue;
    }
    for (const [k, v] of Object.entries(from)) setOwn(to, k, shell(v));
  }
  return top;
}
