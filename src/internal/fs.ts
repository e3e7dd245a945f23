/**
 * The callback fs calls that hot paths use, promisified once. On purpose not `fs/promises`:
 * each is one thread-pool round trip without the FileHandle machinery, a measurable part of an
 * ADD's own cost (bench/). Same syscalls and errors (`writeFd` loops over short writes too).
 */
import {
  close as closeCallback,
  fdatasync as fdatasyncCallback,
  fstat as fstatCallback,
  fsync as fsyncCallback,
  open as openCallback,
  read as readCallback,
  rename as renameCallback,
  type StatsBase,
  stat as statCallback,
  writeFile as writeFileCallback,
} from "node:fs";
import { promisify } from "node:util";

export const openFd = promisify(openCallback);
export const closeFd = promisify(closeCallback);
export const fstatFd = promisify(fstatCallback);
export const readFd = promisify(readCallback);
/** `fs.writeFile` on a file descriptor: every byte of `data` written. */
export const writeFd = promisify(writeFileCallback) as (
  fd: number,
  data: Uint8Array,
) => Promise<void>;
export const fdatasyncFd = promisify(fdatasyncCallback);
export const fsyncFd = promisify(fsyncCallback);
export const renamePath = promisify(renameCallback);
export const statPath = promisify(statCallback);

/** True when `path` is a directory (links followed); false when it cannot be looked at. */
export const isDirectory = (path: string): Promise<boolean> =>
  statPath(path).then(
    (st) => st.isDirectory(),
    () => false,
  );

/** What a file that is no regular file is, as a refusal to read it names it. */
export function kindName(stats: StatsBase<unknown>): string {
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a directory";
  return "not a regular file";
}
