/**
 * The callback fs calls that hot paths use, promisified once for every module, and whole-file
 * reads batched through the spawner helper ({@link readWhole}).
 *
 * On purpose not `fs/promises`: each of these is one thread-pool round trip without the
 * FileHandle machinery, a measurable part of an ADD's own cost (bench/). Same syscalls and
 * same errors as the `fs/promises` versions (`writeFd` on an fd loops over short writes as
 * FileHandle.writeFile does).
 */
import {
  close as closeCallback,
  fdatasync as fdatasyncCallback,
  fstat as fstatCallback,
  open as openCallback,
  read as readCallback,
  rename as renameCallback,
  stat as statCallback,
  writeFile as writeFileCallback,
} from "node:fs";
import { resolve as resolvePath } from "node:path";
import { promisify } from "node:util";
import { helperFiles } from "../invoke/spawner/file-io.js";
import type { FileChannel } from "../invoke/spawner/files.js";
import { maxFileBytes } from "../invoke/spawner/protocol.js";

/** `fs.open`, promisified: the file descriptor. */
export const openFd = promisify(openCallback);
/** `fs.close`, promisified. */
export const closeFd = promisify(closeCallback);
/** `fs.fstat`, promisified. */
export const fstatFd = promisify(fstatCallback);
/** `fs.read`, promisified: `{ bytesRead, buffer }`. */
export const readFd = promisify(readCallback);
/** `fs.writeFile` on a file descriptor, promisified: every byte of `data` written. */
export const writeFd = promisify(writeFileCallback) as (
  fd: number,
  data: Uint8Array,
) => Promise<void>;
/** `fs.fdatasync`, promisified. */
export const fdatasyncFd = promisify(fdatasyncCallback);
/** `fs.rename`, promisified. */
export const renamePath = promisify(renameCallback);
/** `fs.stat`, promisified (follows symlinks). */
export const statPath = promisify(statCallback);

/** Options of {@link readWhole}. */
export interface ReadWholeOptions {
  /** The file itself may not be a symlink (O_NOFOLLOW). */
  nofollow: boolean;
  /** The most bytes the file may hold. */
  maxBytes: number;
}

interface Batch {
  dir: string;
  names: string[];
  waiters: ((bytes: Uint8Array | undefined) => void)[];
}

const batches = new Map<string, Batch>();
let batchDue = false;

/**
 * The bytes of the regular file `path`, read whole by the spawner helper together with every
 * other file of its directory asked for in the same turn of the event loop (one request for
 * them all: files.ts); undefined when the helper did not read it (no helper here, not a
 * regular file, too large, any error), and the caller reads it itself, as it always did, with
 * its own checks and errors.
 */
export function readWhole(
  path: string,
  options: ReadWholeOptions,
): Promise<Uint8Array | undefined> | undefined {
  if (helperFiles() === undefined) return undefined;
  const slash = path.lastIndexOf("/");
  if (slash < 0 || slash === path.length - 1) return undefined;
  const dir = path.slice(0, slash) || "/";
  const name = path.slice(slash + 1);
  const maxBytes = Math.min(options.maxBytes, maxFileBytes);
  const key = `${options.nofollow ? 1 : 0}:${maxBytes}:${dir}`;
  return new Promise((resolve) => {
    let batch = batches.get(key);
    if (batch === undefined) {
      batch = { dir, names: [], waiters: [] };
      batches.set(key, batch);
    }
    batch.names.push(name);
    batch.waiters.push(resolve);
    if (batchDue) return;
    batchDue = true;
    setImmediate(() => {
      batchDue = false;
      const due = [...batches];
      batches.clear();
      const files = helperFiles();
      for (const [k, b] of due) void send(files, k, b);
    });
  });
}

async function send(
  files: FileChannel | undefined | Promise<FileChannel | undefined>,
  key: string,
  batch: Batch,
): Promise<void> {
  const [flag, most] = key.split(":", 2);
  let got: (Uint8Array | undefined)[] = [];
  try {
    const channel = await files;
    if (channel !== undefined) {
      got = await channel.read(resolvePath(batch.dir), batch.names, flag === "1", Number(most));
    }
  } catch {
    // The helper went: every file is read by its caller.
  }
  for (const [i, resolve] of batch.waiters.entries()) resolve(got[i]);
}
