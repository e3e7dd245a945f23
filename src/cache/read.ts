/**
 * Reading a cache record without trusting what sits at its path (docs/reliability.md, "Path
 * safety"): a symlink out of the cache (its content would go to plugins as prevResult),
 * `/dev/zero` (an endless read), a FIFO (a read that never returns, holding a libuv thread).
 * Opened O_NOFOLLOW (the last component only: a symlinked cache dir keeps working), O_NONBLOCK
 * (a FIFO or a device opens at once) and O_NOCTTY, fstat'd to be a regular file within the cap,
 * then read, honouring the call's signal between steps.
 */
import { constants } from "node:fs";
import { errnoCode } from "../internal/errno.js";
import { closeFd, fstatFd, kindName, openFd, readFd } from "../internal/fs.js";

/**
 * The largest record read. A plugin's output is capped at 16 MiB by default and a record holds
 * it once more re-encoded (escaping can grow it) with the config in base64: far below this.
 */
export const MAX_CACHE_RECORD_BYTES = 128 * 1024 * 1024;

/**
 * How a record is opened: not through a symlink, and at once even for a FIFO or a device
 * (Windows has neither flag; there the plain open is what can be done).
 */
export const recordOpenFlags =
  constants.O_RDONLY |
  (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0) |
  (constants.O_NOCTTY ?? 0);

const CHUNK_BYTES = 4 * 1024 * 1024;

/** What reading a record found. */
export type RecordRead =
  /** The bytes, and the modification time the read saw (a pod's attach order, runtime). */
  | { kind: "bytes"; bytes: Uint8Array; mtimeNs: bigint }
  /** Nothing readable there (missing, or a read error: upstream ignores those). */
  | { kind: "none" }
  /** Something that cannot be a record; `reason` completes `cache record <path> ...`. */
  | { kind: "corrupt"; reason: string };

function checkSignal(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason;
}

/**
 * Reads the record at `path`. Rejects only with the signal's reason when the call is aborted;
 * every other outcome is described in the result.
 */
export async function readRecord(
  path: string,
  signal?: AbortSignal,
  maxBytes = MAX_CACHE_RECORD_BYTES,
): Promise<RecordRead> {
  checkSignal(signal);
  let fd: number;
  try {
    fd = await openFd(path, recordOpenFlags);
  } catch (error) {
    const code = errnoCode(error);
    // ELOOP: the record itself is a symlink. ENXIO: a socket (or a FIFO where opening fails).
    if (code === "ELOOP") return { kind: "corrupt", reason: "is a symbolic link" };
    if (code === "ENXIO") return { kind: "corrupt", reason: "is not a regular file" };
    return { kind: "none" };
  }
  try {
    checkSignal(signal);
    const stats = await fstatFd(fd, { bigint: true });
    if (!stats.isFile()) {
      return { kind: "corrupt", reason: `is ${kindName(stats)}, not a regular file` };
    }
    if (stats.size > BigInt(maxBytes)) {
      return { kind: "corrupt", reason: `is larger than ${maxBytes} bytes` };
    }
    const buffer = Buffer.allocUnsafe(Number(stats.size));
    let filled = 0;
    while (filled < buffer.length) {
      checkSignal(signal);
      const length = Math.min(CHUNK_BYTES, buffer.length - filled);
      const { bytesRead } = await readFd(fd, buffer, filled, length, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    checkSignal(signal);
    const bytes = filled === buffer.length ? buffer : buffer.subarray(0, filled);
    return { kind: "bytes", bytes, mtimeNs: stats.mtimeNs };
  } catch (error) {
    if (signal?.aborted && error === signal.reason) throw error;
    return { kind: "none" };
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}
