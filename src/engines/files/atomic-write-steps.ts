/**
 * The steps of one atomic, durable record write, the one implementation both writers run over
 * their own file-system calls: the main thread's `writeFileAtomic` (atomic-write.ts, callback
 * fs calls through the thread pool) and the cache-write thread (write-worker.ts, mostly
 * synchronous calls in one request). The seam also lets a test observe the order without strace.
 *
 * The order: the temporary file created exclusively (O_CREAT|O_EXCL) in the record's directory
 * (same filesystem, so the rename is atomic), written, flushed (fdatasync) when durable, closed,
 * renamed over the record, then the directory flushed (grouped with concurrent writers by a
 * {@link DirSyncGroup}) when durable, so the rename itself survives a power loss. On a failure
 * before the rename the temporary file is removed and the record is left as it was.
 */
import { dirname, join } from "node:path";

/**
 * Prefix of the temporary files. It starts with a dot, which no valid network name can, and
 * holds no container ID, so Go's `GetCachedAttachments(containerID)` never matches one.
 */
export const TEMP_PREFIX = ".libcni-";
/** Suffix of the temporary files. */
export const TEMP_SUFFIX = ".tmp";

/** True for the name of one of the writers' temporary files (the GC sweep removes stale ones). */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

/** The temporary file `id` (unique among the writers of the directory) for a write of `path`. */
export function tempPath(path: string, id: string): string {
  return join(dirname(path), `${TEMP_PREFIX}${id}${TEMP_SUFFIX}`);
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
    return tempPath(path, `${this.prefix}${(this.next++).toString(16)}`);
  }
}

/** The file-system calls one write makes, each synchronous or asynchronous. */
export interface WriteSteps {
  /** Creates `path` exclusively ("wx") with `mode`; returns its descriptor. */
  open(path: string, mode: number): number | Promise<number>;
  /** Writes all of `data` to `fd`. */
  write(fd: number, data: Uint8Array): void | Promise<void>;
  /** Flushes `fd`'s data to disk. */
  fdatasync(fd: number): void | Promise<void>;
  /** Closes `fd`. */
  close(fd: number): void | Promise<void>;
  /** Renames `from` over `to`. */
  rename(from: string, to: string): void | Promise<void>;
  /** Removes `path` (a failed write's temporary file); errors are ignored by the caller. */
  unlink(path: string): void | Promise<void>;
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
 * Runs the steps of one write of `req` through the temporary file `temp` (see the module
 * comment for the order). Rejects with the failing step's own error.
 */
export async function runWriteSteps(
  req: WriteRequest,
  temp: string,
  fs: WriteSteps,
): Promise<void> {
  const fd = await fs.open(temp, req.mode);
  try {
    try {
      await fs.write(fd, req.data);
      if (req.durable) await fs.fdatasync(fd);
    } finally {
      await fs.close(fd);
    }
    await fs.rename(temp, req.path);
  } catch (error) {
    try {
      await fs.unlink(temp);
    } catch {
      // Already gone, or never written: the write's own error is the one to report.
    }
    throw error;
  }
  if (req.durable) await fs.syncDir(dirname(req.path));
}

type DirSyncState = { running?: Promise<void>; queued?: Promise<void> };

/**
 * Coalesces the directory fsyncs of concurrent writers (group commit). A writer calls
 * {@link DirSyncGroup.sync} once its rename is done and is answered by an fsync that *began
 * after that call*, so its rename is covered: when none is running, a new one starts at once;
 * when one is running (it may have begun before the rename), the writer joins the single fsync
 * queued to start when the running one ends, shared by everyone who arrives meanwhile. A
 * burst of writers in one directory thus costs about two fsyncs instead of one each.
 */
export class DirSyncGroup {
  private readonly states = new Map<string, DirSyncState>();

  /** @param syncDir flushes one directory. */
  constructor(private readonly syncDir: (dir: string) => Promise<void>) {}

  /** Resolves once an fsync of `dir` that began after this call has completed. */
  sync(dir: string): Promise<void> {
    let state = this.states.get(dir);
    if (state === undefined) {
      state = {};
      this.states.set(dir, state);
    }
    const running = state.running;
    if (running === undefined) return this.start(dir, state);
    if (state.queued !== undefined) return state.queued;
    const s = state;
    const queued = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        s.queued = undefined;
        return this.start(dir, s);
      });
    s.queued = queued;
    return queued;
  }

  private start(dir: string, state: DirSyncState) {
    const run: Promise<void> = this.syncDir(dir).finally(() => {
      if (state.running === run) state.running = undefined;
      const idle = state.running === undefined && state.queued === undefined;
      if (idle && this.states.get(dir) === state) this.states.delete(dir);
    });
    state.running = run;
    return run;
  }
}
