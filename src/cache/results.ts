/**
 * The result cache: one record per attachment at `<cacheDir>/results/<net>-<cid>-<ifname>`, in
 * upstream's layout and format, so Go runtimes and this library share it. Better than upstream:
 * records are replaced atomically and durably, and every path is built from validated names,
 * so a hostile name (`../../etc`, `a/b`) never reaches a file outside `<cacheDir>/results`.
 */
import { readdir, rmdir, unlink } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { compareUTF8 } from "../encoding/json.js";
import { readWhole } from "../engines/file-read.js";
import {
  flushCreatedDirs,
  fsyncDir,
  isTempName,
  mkdirDurable,
  sweepTempFiles,
  writeFileAtomic,
} from "../engines/file-write.js";
import { InvalidArgumentError } from "../errors/base.js";
import { CacheRecordRemoveError } from "../errors/cache.js";
import { reportCacheRemoveFailed } from "../internal/diagnostics.js";
import { errnoCode, undefinedIfMissing } from "../internal/errno.js";
import { attempt } from "../internal/error-message.js";
import { closeFd, fdatasyncFd, fstatFd, openFd } from "../internal/fs.js";
import { goQuote } from "../internal/go-quote.js";
import type { GCAttachment } from "../types/gc.js";
import { attachmentNameError } from "./names.js";
import { MAX_CACHE_RECORD_BYTES, readRecord, recordOpenFlags } from "./read.js";
import { CNICacheV1, decodeCacheRecord } from "./record.js";

/** One `CNI_ARGS` pair, `[key, value]` (Go `[2]string`). */
export type CNIArgPair = [string, string];

/** An attachment found in the result cache (upstream `NetworkAttachment`). */
export interface NetworkAttachment {
  /** The container ID the attachment was added for. */
  containerID: string;
  /** The network's name. */
  network: string;
  /** The interface name inside the container. */
  ifName: string;
  /** The network configuration's bytes given to ADD (undefined when the record has none). */
  config: Uint8Array | undefined;
  /** The network namespace path given to ADD ("" when the record has none). */
  netNS: string;
  /** The `CNI_ARGS` pairs given to ADD. */
  cniArgs: CNIArgPair[] | undefined;
  /** The capability arguments given to ADD. */
  capabilityArgs: Record<string, unknown> | undefined;
}

export { CacheDir } from "./constants.js";

/** How old a temporary file must be before a sweep treats it as a crash leftover. */
export const STALE_TEMP_MS = 10 * 60 * 1000;

/** How many records are read at once when listing attachments. */
const READ_CONCURRENCY = 32;

/** The directory holding the records: `<cacheDir>/results`. */
export function resultsDir(cacheDir: string): string {
  return join(cacheDir, "results");
}

/**
 * The record path for an attachment. An empty part fails with upstream's message; then each
 * part is validated as ADD validates it (upstream's codes), which also keeps the path inside
 * `<cacheDir>/results`: a valid name holds no `/` and is neither `.` nor `..`.
 */
export function cacheFilePath(
  cacheDir: string,
  netName: string,
  containerID: string,
  ifName: string,
): string {
  const invalid =
    missingNameError(netName, containerID, ifName) ??
    attachmentNameError(netName, containerID, ifName);
  if (invalid) throw invalid;
  return recordPathIn(cacheDir, netName, containerID, ifName);
}

/** Upstream's error for a record path with an empty part; undefined when none is empty. */
export function missingNameError(
  netName: string,
  containerID: string,
  ifName: string,
): InvalidArgumentError | undefined {
  if (netName !== "" && containerID !== "" && ifName !== "") return undefined;
  const argument = netName === "" ? "netName" : containerID === "" ? "containerID" : "ifName";
  return new InvalidArgumentError(
    argument,
    `cache file path requires network name (${goQuote(netName)}), container ID (${goQuote(containerID)}), and interface name (${goQuote(ifName)})`,
  );
}

/** The record path of names already validated. */
export function recordPathIn(
  cacheDir: string,
  netName: string,
  containerID: string,
  ifName: string,
): string {
  return join(resultsDir(cacheDir), `${netName}-${containerID}-${ifName}`);
}

// Results directories this process has made sure of (by absolute path), or is making sure of:
// once one is known, a write skips the MkdirAll (a stat or a mkdir per ADD). Concurrent writers
// share one MkdirAll, so none writes before the directory's own durable creation is done. One
// made by a write without fsync is flushed by the first durable write that comes after it.
interface KnownDir {
  /** Settles with the directories the MkdirAll created. */
  ready: Promise<readonly string[]>;
  /** True once those directories' entries are flushed (or are being). */
  durable: boolean;
}
const knownDirs = new Map<string, KnownDir>();
// Far more than any runtime's cache directories: a bound, not a policy.
const KNOWN_DIRS_MAX = 1024;

function ensureDir(dir: string, durable: boolean): { ready: Promise<unknown>; fresh: boolean } {
  const key = resolve(dir);
  const known = knownDirs.get(key);
  if (known !== undefined && (known.durable || !durable))
    return { ready: known.ready, fresh: false };
  if (known === undefined && knownDirs.size >= KNOWN_DIRS_MAX) knownDirs.clear();
  const ready =
    known === undefined
      ? mkdirDurable(dir, 0o700, durable)
      : known.ready.then(async (created) => {
          // Removed meanwhile: the write fails on it and makes it again, durably.
          await flushCreatedDirs(created).catch(undefinedIfMissing);
          return created;
        });
  const entry: KnownDir = { ready, durable };
  knownDirs.set(key, entry);
  // A failure is not remembered: the next write tries again (and reports the error again).
  ready.catch(() => {
    if (knownDirs.get(key) === entry) knownDirs.delete(key);
  });
  return { ready, fresh: known === undefined };
}

/**
 * Writes an attachment's record at `path` (from {@link cacheFilePath}), replaced atomically
 * with mode 0600, its directory made with mode 0700 (Go's `os.MkdirAll`, with its error text)
 * once per process, and again (the write retried once) should it vanish later. `durable`
 * (default true): fsync the record and its directory; `exclusive`: fail (EEXIST) where a file is.
 */
export async function writeCacheRecord(
  path: string,
  record: Uint8Array,
  options: { durable?: boolean; exclusive?: boolean } = {},
): Promise<void> {
  const durable = options.durable ?? true;
  const how = { mode: 0o600, durable, exclusive: options.exclusive };
  const dir = dirname(path);
  const { ready, fresh } = ensureDir(dir, durable);
  await ready;
  try {
    await writeFileAtomic(path, record, how);
  } catch (error) {
    // The directory removed (ENOENT), or replaced by a file (ENOTDIR: the MkdirAll says it in
    // Go's words); any other error is the write's own.
    const code = errnoCode(error);
    if (fresh || (code !== "ENOENT" && code !== "ENOTDIR")) throw error;
    // Forgotten only if it is still the one this write trusted: a concurrent writer's retry
    // may have begun its MkdirAll already, which this write must then wait for.
    const key = resolve(dir);
    if (knownDirs.get(key)?.ready === ready) knownDirs.delete(key);
    await ensureDir(dir, durable).ready;
    await writeFileAtomic(path, record, how);
  }
}

/** Makes sure of `<cacheDir>/results` as a durable write does (see {@link syncRecords}). */
export async function ensureResultsDir(cacheDir: string): Promise<void> {
  await ensureDir(resultsDir(cacheDir), true).ready;
}

/**
 * Group commit of records written without fsync (a pod's setup): each file's data flushed, all
 * at once, then their directory once, so that the renames survive a power loss as a durable
 * write's do. Rejects with the first failure.
 */
export async function syncRecords(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map(flushRecord));
  for (const dir of new Set(paths.map((path) => dirname(path)))) await fsyncDir(dir);
}

/**
 * A record's data flushed, opened as a read opens it: what sits at its name now may be anything
 * (a FIFO's fdatasync would not be the record's, nor would that of a file elsewhere).
 */
async function flushRecord(path: string): Promise<void> {
  const fd = await openFd(path, recordOpenFlags);
  try {
    if (!(await fstatFd(fd)).isFile())
      throw new Error(`cache record ${path} is not a regular file`);
    await fdatasyncFd(fd);
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}

/**
 * Reads a record's bytes; undefined when it cannot be read (upstream ignores read errors) or is
 * not a regular file (read.ts), with the other records asked for in this turn where the helper
 * runs (engines/files/read-whole.ts).
 */
export async function readCacheFile(
  path: string,
  signal?: AbortSignal,
): Promise<Uint8Array | undefined> {
  const whole = readWhole(path, { nofollow: true, maxBytes: MAX_CACHE_RECORD_BYTES });
  const bytes = whole === undefined ? undefined : await whole;
  if (bytes !== undefined) {
    if (signal?.aborted) throw signal.reason;
    return bytes;
  }
  const found = await readRecord(path, signal);
  return found.kind === "bytes" ? found.bytes : undefined;
}

/**
 * Removes a record; a missing one is not an error. Upstream ignores the removal's result
 * (`_ = c.cacheDel(...)`): a failure other than a missing record is said on NODE_DEBUG=libcni
 * and `libcni:cache-remove-failed`, or with `strict` (a runtime's teardown) rejects with
 * CacheRecordRemoveError.
 */
export async function removeCacheRecord(
  path: string,
  options: { strict?: boolean | undefined } = {},
): Promise<void> {
  // Go's os.Remove: an empty directory at the path goes too (rmdir after unlink's EISDIR).
  await unlink(path)
    .catch((e: unknown) => (errnoCode(e) === "EISDIR" ? rmdir(path) : Promise.reject(e)))
    .catch((error: unknown) => {
      if (errnoCode(error) === "ENOENT") return;
      if (options.strict) throw new CacheRecordRemoveError(path, error);
      reportCacheRemoveFailed(path, error);
    });
}

async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Upstream's file-name prefilter: `-<cid>-` somewhere after the first byte, not at the end. */
function nameMayHold(name: string, containerID: string): boolean {
  if (containerID === "") return true;
  const part = `-${containerID}-`;
  const pos = name.indexOf(part);
  return pos > 0 && pos + part.length < name.length;
}

/** The attachment a record's bytes hold, by upstream's listing rules; undefined when skipped. */
function attachmentOf(bytes: Uint8Array, containerID: string): NetworkAttachment | undefined {
  const record = attempt(() => decodeCacheRecord(bytes));
  if (record === undefined || record.kind !== CNICacheV1) return undefined;
  if (containerID !== "" && record.containerId !== containerID) return undefined;
  if (record.ifName === "" || record.networkName === "") return undefined;
  return {
    containerID: record.containerId,
    network: record.networkName,
    ifName: record.ifName,
    config: record.config,
    netNS: record.netns,
    cniArgs: record.cniArgs,
    capabilityArgs: record.capabilityArgs,
  };
}

/**
 * The names `<cacheDir>/results` holds, in byte order (temporary files included), and those that
 * may hold `containerID`'s records by upstream's prefilter; undefined when there is no such dir.
 */
async function listNames(
  dir: string,
  containerID: string,
  sweep: boolean,
): Promise<{ names: string[]; candidates: string[] } | undefined> {
  const names = await readdir(dir).catch(undefinedIfMissing);
  if (names === undefined) return undefined;
  if (sweep) await sweepTempFiles(dir, names, STALE_TEMP_MS);
  names.sort(compareUTF8);
  const candidates = names.filter((name) => !isTempName(name) && nameMayHold(name, containerID));
  return { names, candidates };
}

/**
 * Upstream's `GetCachedAttachments`: the records of `<cacheDir>/results` in byte order of
 * their names, optionally only those of one container. A missing directory gives an empty
 * list; unreadable, malformed, foreign (kind other than `cniCacheV1`) or incomplete records
 * are skipped, as are this library's temporary files, which `sweep` (GC) removes once stale.
 */
export async function listCachedAttachments(
  cacheDir: string,
  containerID: string,
  options: { sweep?: boolean } = {},
): Promise<NetworkAttachment[]> {
  const dir = resultsDir(cacheDir);
  const listed = await listNames(dir, containerID, options.sweep ?? false);
  if (listed === undefined) return [];
  const found = await mapLimit(listed.candidates, READ_CONCURRENCY, async (name) => {
    const bytes = await readCacheFile(join(dir, name));
    return bytes === undefined ? undefined : attachmentOf(bytes, containerID);
  });
  return found.filter((a): a is NetworkAttachment => a !== undefined);
}

/**
 * The runtime's GC of a network (runtime/gc.ts): its valid attachments decided from the cached
 * attachments the GC lists under the network's lock, so that a record written since the
 * runtime's own listing (a setup that ended in between) is not DELeted as stale. A key of the
 * GC args no caller can write; upstream's `GCArgs` has only `ValidAttachments`.
 */
export const validFromListing: unique symbol = Symbol("libcni gc valid from listing");
export type ValidFromListing = (listed: readonly NetworkAttachment[]) => Promise<GCAttachment[]>;

/** The record names `<cacheDir>/results` holds, temporary files left out, in byte order. */
export async function listRecordNames(cacheDir: string): Promise<string[]> {
  return (await listNames(resultsDir(cacheDir), "", false))?.candidates ?? [];
}

/**
 * One record of a pod as read once through its fd: its attachment, the bytes a DEL passes on,
 * and the modification time its fstat saw (the pod's attach order).
 */
export interface PodRecord {
  readonly attachment: NetworkAttachment;
  readonly bytes: Uint8Array;
  readonly mtimeNs: bigint;
}

/**
 * The records of one container by {@link listCachedAttachments}' rules, each read once (see
 * {@link PodRecord}); beside them, the names the directory held (the runtime looks again at
 * those the listing skipped, without a second readdir).
 */
export async function readPodRecords(
  cacheDir: string,
  containerID: string,
  signal?: AbortSignal,
): Promise<{ records: PodRecord[]; names: readonly string[] }> {
  const dir = resultsDir(cacheDir);
  const listed = await listNames(dir, containerID, false);
  if (listed === undefined) return { records: [], names: [] };
  const read = await mapLimit(listed.candidates, READ_CONCURRENCY, async (name) => {
    const found = await readRecord(join(dir, name), signal);
    if (found.kind !== "bytes") return undefined;
    const attachment = attachmentOf(found.bytes, containerID);
    return attachment && { attachment, bytes: found.bytes, mtimeNs: found.mtimeNs };
  });
  return { records: read.filter((r): r is PodRecord => r !== undefined), names: listed.names };
}
