/**
 * The documents a verb writes and reads besides the plugin's output (each plugin's stdin, the
 * cache record), and which path serves each: a small one as a paced step (internal/pacer.ts),
 * so a burst of calls spreads over turns; a large one by src/large-documents/ in slices. Both
 * give the same bytes and values.
 */

import {
  type CacheRecordInput,
  CNICacheV1,
  decodeCacheRecord,
  decodeCacheRecordValue,
  encodeCacheRecord,
  encodeCacheRecordText,
} from "../cache/record.js";
import { attempt } from "../internal/error-message.js";
import { paced } from "../internal/pacer.js";
import {
  encodeWithLongResult,
  isLargeDocument,
  isLongResult,
  parseLargeDocument,
  resultOfLargeDocument,
  yieldIfLarge,
} from "../large-documents/stdin-and-record.js";
import { createResultFromValue } from "../types/create.js";
import type { Result } from "../types/index.js";
import { buildOneConfig, runtimeConfigOf, type StdinTemplate } from "./build-config.js";
import type { RuntimeConf } from "./types.js";

/**
 * A plugin's stdin, the bytes of upstream's `buildOneConfig`, from its prepared configuration
 * (build-config.ts); a long 1.x `prevResult` written from its pieces.
 */
export async function pluginStdin(
  name: string,
  cniVersion: string,
  template: StdinTemplate,
  prevResult: Result | undefined,
  rt: RuntimeConf,
): Promise<Uint8Array> {
  const bytes =
    prevResult !== undefined && isLongResult(prevResult)
      ? await stdinWithLongResult(name, cniVersion, template, prevResult, rt)
      : await paced(() => template.bytes(name, cniVersion, prevResult, rt));
  await yieldIfLarge(bytes.length);
  return bytes;
}

async function stdinWithLongResult(
  name: string,
  cniVersion: string,
  template: StdinTemplate,
  prevResult: Result,
  rt: RuntimeConf,
): Promise<Uint8Array> {
  if (!template.prepared)
    return buildOneConfig(name, cniVersion, template.net, prevResult, rt).bytes;
  const runtimeConfig = runtimeConfigOf(template.capabilities, rt);
  const bytes = await encodeWithLongResult(
    prevResult,
    runtimeConfig.size > 0,
    (prevResultJSON) => template.text(name, cniVersion, prevResultJSON, runtimeConfig) as string,
  );
  return bytes ?? template.bytes(name, cniVersion, prevResult, rt);
}

/** The bytes of a cache record (upstream's `cachedInfo`) with `result` as its result. */
export async function cacheRecordBytes(
  fields: Omit<CacheRecordInput, "result">,
  result: Result | undefined,
): Promise<Uint8Array> {
  const bytes =
    result !== undefined && isLongResult(result)
      ? await encodeWithLongResult(result, true, (resultJSON) =>
          encodeCacheRecordText({ ...fields, result: resultJSON }),
        )
      : undefined;
  return bytes ?? paced(() => encodeCacheRecord({ ...fields, result }));
}

/**
 * The result a record's bytes hold, in the record's version; undefined when the bytes are not
 * a `cniCacheV1` record (a legacy raw result, or corruption: the caller decides).
 * @throws the result's decoding errors.
 */
export async function cachedResultOf(bytes: Uint8Array): Promise<Result | undefined> {
  const kept = isLargeDocument(bytes.length)
    ? await parseLargeDocument(bytes, "result")
    : undefined;
  const record = attempt(() =>
    kept === undefined ? decodeCacheRecord(bytes) : decodeCacheRecordValue(kept),
  );
  if (record === undefined || record.kind !== CNICacheV1) return undefined;
  // Upstream re-marshals the record's result map and decodes that (Go: a nil map is "null");
  // the map is already what that parse would give, so it is decoded directly.
  if (kept !== undefined) return resultOfLargeDocument(record.result ?? null);
  await yieldIfLarge(bytes.length);
  const result = createResultFromValue(record.result ?? null);
  await yieldIfLarge(bytes.length);
  return result;
}
