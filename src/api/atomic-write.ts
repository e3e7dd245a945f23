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
import { mkdir, open, rename, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";

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

/**
 * Creates `dir` and its missing parents with `mode`, as Go's `os.MkdirAll`. When `durable`,
 * the parent of every directory created is flushed so the new entries survive a power loss.
 */
export async function mkdirDurable(dir: string, mode: number, durable: boolean): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode });
  if (first === undefined || !durable) return;
  for (let d = dir; ; d = dirname(d)) {
    await fsyncDir(dirname(d));
    if (d === first || dirname(d) === d) break;
  }
}

/**
 * Replaces `path` with `data` atomically: a temporary file in the same directory, written and
 * flushed, then renamed over `path`, then the directory flushed. On any failure the temporary
 * file is removed and the previous content of `path`, if any, is left as it was.
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
  const handle = await open(temp, "wx", mode);
  try {
    try {
      await handle.writeFile(data);
      if (durable) await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  if (durable) await fsyncDir(dir);
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
