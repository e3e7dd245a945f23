/**
 * Atomic, durable file replacement, and the directory work around it (MkdirAll as Go's, the
 * sweep of temporary files a crashed writer left).
 *
 * Upstream writes the cache record in place (`os.WriteFile`: truncate, then write), so a crash
 * or power loss can leave a zero-byte or torn record. Here the bytes go to a temporary file
 * created exclusively (O_CREAT|O_EXCL) in the same directory (same filesystem, so the rename is
 * atomic), written, flushed (fdatasync) when durable, closed, renamed over the record, then the
 * directory flushed (grouped with concurrent writers by a {@link DirSyncGroup}) when durable,
 * so the rename itself survives a power loss. A reader sees the old record or the new one,
 * never a mixture, and never an empty file. On a failure before the rename the temporary file
 * is removed and the record is left as it was. An exclusive write links instead of renaming,
 * which fails (EEXIST) where a file is already: of two such writers, one makes the file; one
 * that fails after its link (the directory's fsync) removes it again.
 */
import { link, lstat, mkdir, stat, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { goPathError } from "../../errors/go.js";
import { errnoCode } from "../../internal/errno.js";
import { closeFd, fdatasyncFd, fsyncFd, openFd, renamePath, writeFd } from "../../internal/fs.js";

/**
 * Prefix of the temporary files. It starts with a dot, which no valid network name can, and
 * holds no container ID, so Go's `GetCachedAttachments(containerID)` never matches one.
 */
const TEMP_PREFIX = ".libcni-";
const TEMP_SUFFIX = ".tmp";

/** True for the name of one of the writers' temporary files (the GC sweep removes stale ones). */
export function isTempName(name: string): boolean {
  return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
}

/** The file-system calls one write makes: a seam that lets a test observe their order. */
export interface WriteSteps {
  /** Creates `path` exclusively ("wx") with `mode`; returns its descriptor. */
  open(path: string, mode: number): Promise<number>;
  write(fd: number, data: Uint8Array): Promise<void>;
  fdatasync(fd: number): Promise<void>;
  close(fd: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Links `to` to `from`'s file, failing where `to` exists (an exclusive write). */
  link(from: string, to: string): Promise<void>;
  /** Removes a failed write's temporary file; errors are ignored by the caller. */
  unlink(path: string): Promise<void>;
  /** Flushes directory `dir` with an fsync that began after this call (group commit). */
  syncDir(dir: string): Promise<void>;
}

/** What one write request carries. */
export interface WriteRequest {
  path: string;
  data: Uint8Array;
  mode: number;
  durable: boolean;
  /** Fail (EEXIST) where the file exists already. */
  exclusive?: boolean;
}

/**
 * After a failed link: true when it was made after all (NFS answers a retransmitted LINK with
 * EEXIST; the temporary file's two links say so), false where the filesystem refuses hard links
 * (EPERM, ENOTSUP: the write renames there, not exclusively); else throws.
 */
async function linkRefused(error: unknown, temp: string): Promise<boolean> {
  const code = errnoCode(error) ?? "";
  if (code === "EEXIST" && (await lstat(temp).catch(() => undefined))?.nlink === 2) return true;
  if (["EPERM", "ENOTSUP", "EOPNOTSUPP"].includes(code)) return false;
  throw error;
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
  // Exclusive: a link, which fails (EEXIST) where a file is; a rename where links are refused.
  let linked = false;
  try {
    try {
      await fs.write(fd, req.data);
      if (req.durable) await fs.fdatasync(fd);
    } finally {
      await fs.close(fd);
    }
    linked =
      req.exclusive === true &&
      (await fs.link(temp, req.path).then(
        () => true,
        (e: unknown) => linkRefused(e, temp),
      ));
    if (!linked) await fs.rename(temp, req.path);
  } catch (error) {
    // Already gone, or never written: the write's own error is the one to report.
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  // A link leaves the temporary name, which a failed unlink leaves to the stale-temp sweep.
  if (linked) await fs.unlink(temp).catch(() => undefined);
  if (!req.durable) return;
  try {
    await fs.syncDir(dirname(req.path));
  } catch (error) {
    // An exclusive write that fails leaves no file of its own: what it made there goes again.
    if (req.exclusive) await fs.unlink(req.path).catch(() => undefined);
    throw error;
  }
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
    const state: DirSyncState = this.states.get(dir) ?? {};
    this.states.set(dir, state);
    if (state.running === undefined) return this.start(dir, state);
    state.queued ??= state.running
      .catch(() => undefined)
      .then(() => {
        state.queued = undefined;
        return this.start(dir, state);
      });
    return state.queued;
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

/** Options for {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode of the new file (before the umask). Default 0o600. */
  mode?: number;
  /** Flush the file and its directory to disk (fsync). Default true. */
  durable?: boolean;
  /** Fail (EEXIST) where the file exists already, instead of replacing it. */
  exclusive?: boolean;
}

/** Flushes a directory's entries to disk, through the same callback fs calls as the steps. */
export async function fsyncDir(dir: string): Promise<void> {
  const fd = await openFd(dir, "r");
  await fsyncFd(fd).finally(() => closeFd(fd));
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
 * text (a {@link GoPathError}). Returns the directories it created, outermost first. When
 * `durable`, they are flushed at once ({@link flushCreatedDirs}).
 */
export async function mkdirDurable(
  dir: string,
  mode: number,
  durable: boolean,
): Promise<readonly string[]> {
  const created: string[] = [];
  await mkdirAllGo(dir, mode, created);
  if (durable) await flushCreatedDirs(created);
  return created;
}

/**
 * Flushes the parent of every directory of `created` (as {@link mkdirDurable} lists them),
 * deepest first, so that their entries survive a power loss.
 */
export async function flushCreatedDirs(created: readonly string[]): Promise<void> {
  for (const d of [...created].reverse()) await fsyncDir(dirname(d));
}

const dirSyncs = new DirSyncGroup(fsyncDir);

/** The steps: internal/fs.ts' callback fs calls, concurrent writers sharing directory fsyncs. */
const steps: WriteSteps = {
  // "wx": O_CREAT|O_EXCL, never follows or reuses an existing file at the temporary name.
  open: (path, mode) => openFd(path, "wx", mode),
  write: writeFd,
  fdatasync: fdatasyncFd,
  close: closeFd,
  rename: renamePath,
  link,
  unlink,
  syncDir: (dir) => dirSyncs.sync(dir),
};

// A temporary name no other writer picks: this process's pid and count, and a random part for a
// process of another pid namespace over the same dir (the create is exclusive anyway). Not
// node:crypto, which would load a dozen more modules into every process that ADDs.
let temps = 0;
const tempName = (): string =>
  `${TEMP_PREFIX}${process.pid.toString(36)}.${(temps++).toString(36)}.${Math.random().toString(36).slice(2)}${TEMP_SUFFIX}`;

/** Replaces `path` with `data` atomically (and durably, by default): see the module comment. */
export async function writeFileAtomic(
  path: string,
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const { mode = 0o600, durable = true, exclusive } = options;
  const temp = join(dirname(path), tempName());
  await runWriteSteps({ path, data, mode, durable, exclusive }, temp, steps);
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
