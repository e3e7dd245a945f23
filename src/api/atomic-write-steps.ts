/**
 * The steps of one atomic, durable record write, over an injected file-system seam, so that the
 * cache-write thread (cache-write-worker.ts) runs them with synchronous calls in one request
 * and a test can observe their order without strace.
 *
 * The order is the one of `writeFileAtomic` (atomic-write.ts): the temporary file created
 * exclusively (O_CREAT|O_EXCL) in the record's directory, written, flushed (fdatasync) when
 * durable, closed, renamed over the record, then the directory flushed (grouped with concurrent
 * writers by a {@link DirSyncGroup}) when durable. On a failure before the rename the temporary
 * file is removed and the record is left as it was.
 */
import { dirname, join } from "node:path";
import { TEMP_PREFIX, TEMP_SUFFIX } from "./atomic-write.js";

/** The file-system calls one write makes. The slow flushes may be asynchronous. */
export interface WriteSteps {
  /** Creates `path` exclusively ("wx") with `mode`; returns its descriptor. */
  open(path: string, mode: number): number;
  /** Writes all of `data` to `fd`. */
  write(fd: number, data: Uint8Array): void;
  /** Flushes `fd`'s data to disk. */
  fdatasync(fd: number): Promise<void> | void;
  /** Closes `fd`. */
  close(fd: number): void;
  /** Renames `from` over `to`. */
  rename(from: string, to: string): void;
  /** Removes `path` (a failed write's temporary file); errors are ignored by the caller. */
  unlink(path: string): void;
  /** Flushes directory `dir` with an fsync that began after this call (group commit). */
  syncDir(dir: string): Promise<void>;
}

/** What one write request carries. */
export interface WriteRequest {
  path: string;
  data: Uint8Array;
  mode: number;
  durable: boolean;
}

/**
 * Names temporary files without a random draw per write: a random prefix drawn once, then a
 * counter. O_EXCL still refuses any name that exists, whoever made it.
 */
export class TempNames {
  private next = 0;
  constructor(private readonly prefix: string) {}
  /** The temporary path for a write of `path`. */
  for(path: string): string {
    return join(
      dirname(path),
      `${TEMP_PREFIX}${this.prefix}${(this.next++).toString(16)}${TEMP_SUFFIX}`,
    );
  }
}

/** Runs the steps of one write of `req` (see the module comment for the order). */
export async function runWriteSteps(
  req: WriteRequest,
  temp: string,
  fs: WriteSteps,
): Promise<void> {
  const fd = fs.open(temp, req.mode);
  try {
    try {
      fs.write(fd, req.data);
      if (req.durable) await fs.fdatasync(fd);
    } finally {
      fs.close(fd);
    }
    fs.rename(temp, req.path);
  } catch (error) {
    try {
      fs.unlink(temp);
    } catch {
      // Already gone, or never written: the write's own error is the one to report.
    }
    throw error;
  }
  if (req.durable) await fs.syncDir(dirname(req.path));
}
