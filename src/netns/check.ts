/**
 * Whether a path is a live network namespace, as upstream plugins' `ns` package checks it (the
 * file system is nsfs, or procfs for `/proc/<pid>/ns/net`), and then that the namespace is a
 * network one where that can be told (a pinned mount or UTS namespace is nsfs too).
 */
import { readFile, readlink, realpath, statfs } from "node:fs/promises";
import { isNamespaceFsType, PROC_SUPER_MAGIC } from "../internal/namespace-fs.js";

/** Undoes the octal escapes of a mountinfo field (`\040` for a space). */
export function unescapeField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(Number.parseInt(octal, 8)),
  );
}

/** One mount of this mount namespace, as /proc/self/mountinfo lists it. */
export interface Mount {
  /** Its root: `net:[<inode>]` for a pinned network namespace. */
  root: string;
  point: string;
  fsType: string;
}

/** The mounts of this mount namespace (/proc/self/mountinfo), in its order. */
export async function mounts(): Promise<Mount[]> {
  const info = await readFile("/proc/self/mountinfo", "utf8");
  return info
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [left, right = ""] = line.split(" - ");
      const [, , , root = "", point = ""] = left.split(" ");
      return { root, point: unescapeField(point), fsType: right.split(" ")[0] ?? "" };
    });
}

/**
 * True when `path` is a live network namespace: a pinned one (`/run/netns/<name>`, a bind
 * mount of nsfs) or a process's (`/proc/<pid>/ns/net`). False for anything else, a missing
 * path included (never throws).
 */
export async function isNetns(path: string): Promise<boolean> {
  try {
    const { type } = await statfs(path);
    if (!isNamespaceFsType(type)) return false;
    // A process's namespace (`/proc/<pid>/ns/net`) is a link that names its kind.
    const link = await readlink(path).catch(() => undefined);
    if (link !== undefined && /^[a-z_]+:\[/.test(link)) return link.startsWith("net:[");
    // Any other procfs file (`/proc/self/status`) is no namespace.
    if (type === PROC_SUPER_MAGIC) return false;
    // The kind pinned there, as the root of the last mount on it says (none listed: not told).
    const point = await realpath(path);
    const kind = (await mounts()).findLast((m) => m.point === point)?.root.split(":")[0];
    return kind === undefined || kind === "net";
  } catch {
    return false;
  }
}
