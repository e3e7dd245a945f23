/**
 * Reading an attachment's cache record back (upstream `getCachedResult`, `getCachedConfig`),
 * with the tolerance of a corrupt record that DEL needs.
 */
import { type RecordRead, readRecord } from "../cache/read.js";
import { type CacheRecord, CNICacheV1, decodeCacheRecord } from "../cache/record.js";
import { checkValid } from "../encoding/parse.js";
import { WrappedError } from "../errors/base.js";
import { CachedConfigKindError, CorruptCacheRecordError } from "../errors/cache.js";
import { debug } from "../internal/diagnostics.js";
import { goQuote } from "../internal/go-quote.js";
import { createResult, type Result } from "../types/index.js";
import type { Attachment } from "./attachment.js";
import type { RuntimeConf } from "./types.js";
import { cachedResultOf } from "./verb-documents.js";

/** How a caller treats a record that is not JSON at all. */
export interface CachedResultOptions {
  /**
   * DEL: a zero-byte or non-JSON record (what an interrupted in-place write leaves,
   * upstream #1055) counts as no cache, with a warning on the debug log.
   */
  tolerateCorrupt?: boolean;
  /** Called for such a record before it counts as no cache (DEL removes it, as upstream). */
  onCorrupt?: () => Promise<void>;
  /** The call's signal: reading stops, rejecting with its reason, once it is aborted. */
  signal?: AbortSignal;
  /** The record's bytes as the caller has just read them: used instead of a read. */
  bytes?: Uint8Array | undefined;
}

function asVersion(result: Result, cniVersion: string): Result {
  try {
    return result.getAsVersion(cniVersion);
  } catch (error) {
    throw new WrappedError(
      `failed to convert cached result to config version ${goQuote(cniVersion)}`,
      error,
    );
  }
}

/**
 * Upstream `getCachedResult`: the result ADD cached for the attachment, converted to
 * `cniVersion`; undefined when there is no readable record. A file that is not a `cniCacheV1`
 * record is a legacy raw result (libcni before 0.7). A record that is not a regular file or is
 * over the size cap is corrupt: no cache with `tolerateCorrupt`, a
 * {@link CorruptCacheRecordError} otherwise.
 * @throws the cache path's errors (an empty or invalid name); the result's decoding errors;
 *   `failed to convert cached result to config version "<v>": ...`.
 */
export async function getCachedResult(
  at: Attachment,
  cniVersion: string,
  options: CachedResultOptions = {},
): Promise<Result | undefined> {
  const path = at.recordPath();
  const found: RecordRead =
    options.bytes === undefined
      ? await readRecord(path, options.signal)
      : { kind: "bytes", bytes: options.bytes, mtimeNs: 0n };
  if (found.kind === "none") return undefined;
  if (found.kind === "corrupt") {
    if (!options.tolerateCorrupt) throw new CorruptCacheRecordError(path, found.reason);
    debug("ignoring cache record %s: it %s; treated as no cached result", path, found.reason);
    await options.onCorrupt?.();
    return undefined;
  }
  const { bytes } = found;
  const result = await cachedResultOf(bytes);
  if (result !== undefined) return asVersion(result, cniVersion);
  // Empty or not JSON: neither a record nor a legacy result.
  if (options.tolerateCorrupt && checkValid(bytes) !== undefined) {
    debug(
      "ignoring corrupt cache record %s (%d bytes): treated as no cached result",
      path,
      bytes.length,
    );
    await options.onCorrupt?.();
    return undefined;
  }
  // Legacy: the file is the result itself.
  return asVersion(createResult(bytes), cniVersion);
}

/** A cached configuration: the config bytes ADD was given and a copy of rt updated from the cache. */
export interface CachedConfig {
  /** The configuration bytes given to ADD (undefined when the record holds none). */
  config: Uint8Array | undefined;
  /** A copy of the given RuntimeConf with `args` (when cached) and `capabilityArgs` from the cache. */
  rt: RuntimeConf;
}

/**
 * Upstream `getCachedConfig`: undefined when there is no readable record.
 * @throws the cache path's errors; `failed to unmarshal cached network "<n>" config: ...`;
 *   `read cached network "<n>" config has wrong kind: <kind>`.
 */
export async function getCachedConfig(
  at: Attachment,
  signal?: AbortSignal,
): Promise<CachedConfig | undefined> {
  const { network: netName, rt } = at;
  const path = at.recordPath();
  const found = await readRecord(path, signal);
  if (found.kind === "none") return undefined;
  let record: CacheRecord;
  try {
    if (found.kind === "corrupt") throw new CorruptCacheRecordError(path, found.reason);
    record = decodeCacheRecord(found.bytes);
  } catch (error) {
    throw new WrappedError(`failed to unmarshal cached network ${goQuote(netName)} config`, error);
  }
  if (record.kind !== CNICacheV1) throw new CachedConfigKindError(goQuote(netName), record.kind);
  const newRt: RuntimeConf = { ...rt };
  if (record.cniArgs !== undefined) newRt.args = record.cniArgs;
  newRt.capabilityArgs = record.capabilityArgs;
  return { config: record.config, rt: newRt };
}
