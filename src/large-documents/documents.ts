/**
 * The documents a verb writes and reads besides the plugin's output: each plugin's stdin and
 * the attachment's cache record, each in one call. Which path serves a document is decided
 * here. A small one is built or read as a paced step (internal/pacer.ts), so that a burst of
 * calls spreads over turns of the event loop. A large result (near the output cap) is written
 * beforehand in slices that yield to the event loop, as pieces the output bytes are written
 * from (types/encode-in-slices.ts), and read with its long lists kept as text and checked in
 * slices (encoding/long-arrays.ts): never one stall, never one flat string of the whole
 * document. Both paths give the same bytes and the same values.
 */
import type { PluginConfig } from "../conf/index.js";
import { EncodedJSON } from "../encoding/json.js";
import { parseKeepingLongArrays } from "../encoding/long-arrays.js";
import { encodeAroundPieces } from "../encoding/pieces.js";
import { utf8Encode } from "../internal/bytes.js";
import { paced } from "../internal/pacer.js";
import { isLargeDocument, yieldIfLarge } from "../internal/yield.js";
import { createResultFromValue } from "../types/create.js";
import { isLongResult, resultPiecesInSlices } from "../types/encode-in-slices.js";
import type { Result } from "../types/index.js";
import { prepareLongLists } from "../types/v100.js";
import { buildOneConfig, buildOneConfigText, runtimeConfigOf } from "./build-config.js";
import {
  type CacheRecord,
  type CacheRecordInput,
  CNICacheV1,
  decodeCacheRecord,
  decodeCacheRecordValue,
  encodeCacheRecord,
  encodeCacheRecordText,
  recordLongListPaths,
} from "./cache-record.js";
import type { RuntimeConf } from "./types.js";

/**
 * A plugin's stdin, the bytes of upstream's `buildOneConfig`. A long 1.x `prevResult` is
 * written in one encoding from its pieces: upstream's second step (decode the first step's
 * output, set `runtimeConfig`, encode again) changes nothing else in those bytes, since the
 * first step's output is already a Go map's encoding and the one difference it makes, a
 * prevResult written as its map form, is asked for.
 */
export async function pluginStdin(
  name: string,
  cniVersion: string,
  net: PluginConfig,
  prevResult: Result | undefined,
  rt: RuntimeConf,
): Promise<Uint8Array> {
  const bytes =
    prevResult !== undefined && isLongResult(prevResult)
      ? await stdinWithLongResult(name, cniVersion, net, prevResult, rt)
      : await paced(() => buildOneConfig(name, cniVersion, net, prevResult, rt).bytes);
  await yieldIfLarge(bytes.length);
  return bytes;
}

async function stdinWithLongResult(
  name: string,
  cniVersion: string,
  net: PluginConfig,
  prevResult: Result,
  rt: RuntimeConf,
): Promise<Uint8Array> {
  const runtimeConfig = runtimeConfigOf(net, rt);
  const pieces = await resultPiecesInSlices(prevResult, runtimeConfig.size > 0);
  if (pieces === undefined) return buildOneConfig(name, cniVersion, net, prevResult, rt).bytes;
  const encode = (prevResultJSON: EncodedJSON): string =>
    buildOneConfigText(name, cniVersion, net, prevResultJSON, runtimeConfig);
  return encodeAroundPieces(encode, pieces) ?? utf8Encode(encode(new EncodedJSON(pieces.join(""))));
}

/** The bytes of a cache record (upstream's `cachedInfo`) with `result` as its result. */
export async function cacheRecordBytes(
  fields: Omit<CacheRecordInput, "result">,
  result: Result | undefined,
): Promise<Uint8Array> {
  const pieces = result === undefined ? undefined : await resultPiecesInSlices(result, true);
  if (pieces === undefined) return paced(() => encodeCacheRecord({ ...fields, result }));
  const encode = (resultJSON: EncodedJSON): string =>
    encodeCacheRecordText({ ...fields, result: resultJSON });
  return encodeAroundPieces(encode, pieces) ?? utf8Encode(encode(new EncodedJSON(pieces.join(""))));
}

/** A `cniCacheV1` record of `bytes`; undefined for anything else (a legacy result, corruption). */
function decodeRecord(bytes: Uint8Array): CacheRecord | undefined {
  try {
    const record = decodeCacheRecord(bytes);
    return record.kind === CNICacheV1 ? record : undefined;
  } catch {
    return undefined;
  }
}

/** `decodeRecord` of a large record: anything the slices cannot read exactly is read whole. */
async function decodeLargeRecord(bytes: Uint8Array): Promise<CacheRecord | undefined> {
  const value = await parseKeepingLongArrays(bytes, recordLongListPaths);
  if (value === undefined) return decodeRecord(bytes);
  let record: CacheRecord;
  try {
    record = decodeCacheRecordValue(value);
  } catch {
    return undefined;
  }
  if (record.kind !== CNICacheV1) return undefined;
  await prepareLongLists(record.result);
  return record;
}

/**
 * The result a record's bytes hold, in the record's version; undefined when the bytes are not
 * a `cniCacheV1` record (a legacy raw result, or corruption: the caller decides).
 * @throws the result's decoding errors.
 */
export async function cachedResultOf(bytes: Uint8Array): Promise<Result | undefined> {
  const large = isLargeDocument(bytes.length);
  const record = large ? await decodeLargeRecord(bytes) : decodeRecord(bytes);
  if (record === undefined) return undefined;
  await yieldIfLarge(bytes.length);
  // Upstream re-marshals the record's result map and decodes that (Go: a nil map is "null");
  // the map is already what that parse would give, so it is decoded directly.
  const result = createResultFromValue(record.result ?? null);
  await yieldIfLarge(bytes.length);
  return result;
}
