/**
 * The callback fs calls that hot paths use, promisified once for every module. (Whole-file
 * reads batched through the spawner helper are engines/files/read-whole.ts' `readWhole`.)
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
  fsync as fsyncCallback,
  open as openCallback,
  read as readCallback,
  rename as renameCallback,
  stat as statCallback,
  writeFile as writeFileCallback,
} from "node:fs";
import { promisify } from "node:util";

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
/** `fs.fsync`, promisified. */
export const fsyncFd = promisify(fsyncCallback);
/** `fs.rename`, promisified. */
export const renamePath = promisify(renameCallback);
/** `fs.stat`, promisified (follows symlinks). */
export const statPath = promisify(statCallback);
