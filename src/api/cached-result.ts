/**
 * Reading an attachment's cache record back: the result (`getCachedResult`) and the config
 * with its runtime arguments (`getCachedConfig`), as upstream, plus the tolerance of a
 * corrupt record that DEL needs.
 */
import { debuglog } from "node:util";
import { marshal } from "../encoding/json.js";
import { checkValid } from "../encoding/parse.js";
import { WrappedError } from "../errors.js";
import { goQuote } from "../internal/go-quote.js";
import { createResult, type Result } from "../types/index.js";
import { cacheFilePath, readCacheFile } from "./cache.js";
import { type CacheRecord, CNICacheV1, decodeCacheRecord } from "./cache-record.js";
import type { RuntimeConf } from "./types.js";

/** Opt-in tracing and warnings: `NODE_DEBUG=libcni`. */
export const debug = debuglog("libcni");

/** How a caller treats a record that is not JSON at all. */
export interface CachedResultOptions {
  /**
   * DEL: a zero-byte or non-JSON record (what an interrupted in-place write leaves,
   * upstream #1055) counts as no cache, with a warning on the debug log.
   */
  tolerateCorrupt?: boolean;
  /** Called for such a record before it counts as no cache (DEL removes it, as upstream). */
  onCorrupt?: () => Promise<void>;
}

/** True for bytes that cannot be a record or a legacy result: empty or not JSON. */
function isCorrupt(bytes: Uint8Array): boolean {
  return checkValid(bytes) !== undefined;
}

function decodeRecord(bytes: Uint8Array): CacheRecord | undefined {
  try {
    const record = decodeCacheRecord(bytes);
    return record.kind === CNICacheV1 ? record : undefined;
  } catch {
    return undefined;
  }
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
 * `cniVersion`; undefined when there is no readable record. A file that is not a
 * `cniCacheV1` record is read as a legacy raw result (libcni before 0.7).
 * @throws the cache path's errors (an empty or invalid name); the result's decoding errors;
 *   `failed to convert cached result to config version "<v>": ...`.
 */
export async function getCachedResult(
  cacheDir: string,
  netName: string,
  cniVersion: string,
  rt: RuntimeConf,
  options: CachedResultOptions = {},
): Promise<Result | undefined> {
  const path = cacheFilePath(cacheDir, netName, rt.containerID, rt.ifName);
  const bytes = await readCacheFile(path);
  if (bytes === undefined) return undefined;
  const record = decodeRecord(bytes);
  if (record === undefined) {
    if (options.tolerateCorrupt && isCorrupt(bytes)) {
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
  // Upstream re-marshals the record's result map (Go: a nil map is "null").
  return asVersion(createResult(marshal(record.result ?? null)), cniVersion);
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
  cacheDir: string,
  netName: string,
  rt: RuntimeConf,
): Promise<CachedConfig | undefined> {
  const path = cacheFilePath(cacheDir, netName, rt.containerID, rt.ifName);
  const bytes = await readCacheFile(path);
  if (bytes === undefined) return undefined;
  let record: CacheRecord;
  try {
    record = decodeCacheRecord(bytes);
  } catch (error) {
    throw new WrappedError(`failed to unmarshal cached network ${goQuote(netName)} config`, error);
  }
  if (record.kind !== CNICacheV1) {
    throw new Error(
      `read cached network ${goQuote(netName)} config has wrong kind: ${record.kind}`,
    );
  }
  const newRt: RuntimeConf = { ...rt };
  if (record.cniArgs !== undefined) newRt.args = record.cniArgs;
  newRt.capabilityArgs = record.capabilityArgs;
  return { config: record.config, rt: newRt };
}
