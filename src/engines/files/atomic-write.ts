/**
 * Atomic, durable file replacement on the calling thread, and the directory work around it
 * (MkdirAll as Go's, the sweep of temporary files a crashed writer left).
 *
 * Upstream writes the cache record in place (`os.WriteFile`: truncate, then write), so a crash
 * or power loss can leave a zero-byte or torn record. Here the bytes go to a temporary file in
 * the same directory, flushed, renamed over the record, then the directory is flushed: a
 * reader sees the old record or the new one, never a mixture, and never an empty file. The
 * steps are those of atomic-write-steps.ts, which the cache-write thread runs too.
 */
import { randomBytes } from "node:crypto";
import { lstat, mkdir, open, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { goPathError } from "../../errors/go.js";
import { closeFd, fdatasyncFd, openFd, renamePath, writeFd } from "../../internal/fs.js";
import {
  DirSyncGroup,
  isTempName,
  runWriteSteps,
  tempPath,
  type WriteSteps,
} from "./atomic-write-steps.js";

export { DirSyncGroup, isTempName, TEMP_PREFIX, TEMP_SUFFIX } from "./atomic-write-steps.js";

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

const dirSyncs = new DirSyncGroup(fsyncDir);

/**
 * The steps on this thread: the promisified callback fs calls of internal/fs.ts (faster here
 * than fs/promises' FileHandle), concurrent writers sharing directory fsyncs.
 */
const steps: WriteSteps = {
  // "wx": O_CREAT|O_EXCL, never follows or reuses an existing file at the temporary name.
  open: (path, mode) => openFd(path, "wx", mode),
  write: writeFd,
  fdatasync: fdatasyncFd,
  close: closeFd,
  rename: renamePath,
  unlink,
  syncDir: (dir) => dirSyncs.sync(dir),
};

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
  const temp = tempPath(path, randomBytes(8).toString("hex"));
  await runWriteSteps({ path, data, mode, durable }, temp, steps);
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
