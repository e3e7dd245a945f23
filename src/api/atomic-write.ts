/**
 * Atomic, durable file replacement.
 *
 * Upstream writes the cache record in place (`os.WriteFile`: truncate, then write), so a crash
 * or power loss can leave a zero-byte or torn record (upstream issue #1055). Here the bytes go
 * to a temporary file in the same directory (same filesystem, so the rename is atomic), which
 * is flushed to disk before it is renamed over the record; the directory is then flushed so
 * the rename itself survives a power loss. A reader sees the old record or the new one, never
 * a mixture, and never an empty file.
 */
import { randomBytes } from "node:crypto";
import { lstat, mkdir, open, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { goPathError } from "../internal/errno.js";
import { closeFd, fdatasyncFd, openFd, renamePath, writeFd } from "../internal/fs.js";

/**
 * Prefix of the temporary files. It starts with a dot, which no valid network name can, and
 * holds no container ID, so Go's `GetCachedAttachments(containerID)` never matches one.
 */
export const TEMP_PREFIX = ".libcni-";
/** Suffix of the temporary files. */
export const TEMP_SUFFIX = ".tmp";

/** True for the name of one of this module's temporary files. */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode of the new file (before the umask). Default 0o600. */
  mode?: number;
  /** Flush the file and its directory to disk (fsync). Default true. */
  durable?: boolean;
}

/** Flushes a directory's entries to disk. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// Go's os.MkdirAll, step for step, so that its failures read as Go's do: a path that exists but
// is not a directory is `mkdir <path>: not a directory` (Node's recursive mkdir says EEXIST),
// and an error names the directory it failed on. `created` collects what this call made.
async function mkdirAllGo(path: string, mode: number, created: string[]): Promise<void> {
  const info = await stat(path).catch(() => undefined);
  if (info !== undefined) {
    if (info.isDirectory()) return;
    throw goPathError("mkdir", path, undefined, "ENOTDIR");
  }
  let i = path.length;
  while (i > 0 && path[i - 1] === "/") i--;
  let j = i;
  while (j > 0 && path[j - 1] !== "/") j--;
  if (j > 1) await mkdirAllGo(path.slice(0, j - 1), mode, created);
  try {
    await mkdir(path, mode);
  } catch (error) {
    // Made meanwhile by someone else (or "foo/."): fine, as in Go.
    const now = await lstat(path).catch(() => undefined);
    if (now?.isDirectory()) return;
    throw goPathError("mkdir", path, error);
  }
  created.push(path);
}

/**
 * Creates `dir` and its missing parents with `mode`, as Go's `os.MkdirAll`, failing with Go's
 * text (a {@link GoPathError}). When `durable`, the parent of every directory created is
 * flushed, deepest first, so the new entries survive a power loss.
 */
export async function mkdirDurable(dir: string, mode: number, durable: boolean): Promise<void> {
  const created: string[] = [];
  await mkdirAllGo(dir, mode, created);
  if (!durable) return;
  for (const d of created.reverse()) await fsyncDir(dirname(d));
}

/**
 * Coalesces the directory fsyncs of concurrent writers (group commit). A writer calls
 * {@link DirSyncGroup.sync} once its rename is done and is answered by an fsync that *began
 * after that call*, so its rename is covered: when none is running, a new one starts at once;
 * when one is running (it may have begun before the rename), the writer joins the single fsync
 * queued to start when the running one ends, shared by everyone who arrives meanwhile. A
 * burst of N writers in one directory thus costs about two fsyncs instead of N.
 */
export class DirSyncGroup {
  private readonly states = new Map<string, { running?: Promise<void>; queued?: Promise<void> }>();

  /** @param syncDir flushes one directory (the default: {@link fsyncDir}). */
  constructor(private readonly syncDir: (dir: string) => Promise<void> = fsyncDir) {}

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

  private start(dir: string, state: { running?: Promise<void>; queued?: Promise<void> }) {
    const run: Promise<void> = this.syncDir(dir).finally(() => {
      if (state.running === run) state.running = undefined;
      const idle = state.running === undefined && state.queued === undefined;
      if (idle && this.states.get(dir) === state) this.states.delete(dir);
    });
    state.running = run;
    return run;
  }
}

const dirSyncs = new DirSyncGroup();

// The record write uses the promisified callback fs calls of internal/fs.ts (faster here than
// fs/promises' FileHandle).

/**
 * Replaces `path` with `data` atomically: a temporary file in the same directory, written and
 * flushed, then renamed over `path`, then the directory flushed. On any failure the temporary
 * file is removed and the previous content of `path`, if any, is left as it was. Concurrent
 * writers in one directory share directory fsyncs ({@link DirSyncGroup}); each still resolves
 * only after an fsync that began after its own rename.
 */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { mode = 0o600, durable = true } = options;
  const dir = dirname(path);
  const temp = join(dir, `${TEMP_PREFIX}${randomBytes(8).toString("hex")}${TEMP_SUFFIX}`);
  // "wx": O_CREAT|O_EXCL, never follows or reuses an existing file at the temporary name.
  const fd = await openFd(temp, "wx", mode);
  try {
    try {
      await writeFd(fd, data);
      if (durable) await fdatasyncFd(fd);
    } finally {
      await closeFd(fd);
    }
    await renamePath(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await dirSyncs.sync(dir);
}

/**
 * Removes temporary files a crashed writer left in `dir` (found among `names`, the directory's
 * listing) when older than `maxAgeMs`; younger ones may belong to a write in progress.
 * Errors are ignored: another process may remove the same file first.
 */
export async function sweepTempFiles(
  dir: string,
  names: readonly string[],
  maxAgeMs: number,
): Promise<void> {
  const now = Date.now();
  await Promise.all(
    names.filter(isTempName).map(async (name) => {
      const path = join(dir, name);
      try {
        const info = await stat(path);
        if (now - info.mtimeMs > maxAgeMs) await unlink(path);
      } catch {
        // Gone already, or not ours to remove.
      }
    }),
  );
}
