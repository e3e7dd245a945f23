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

/**
 * The kind of namespace pinned at `mountPoint` as this mount namespace's mountinfo says it
 * (its root is `net:[<inode>]` for a network namespace); undefined when it is not listed.
 */
async function pinnedKind(mountPoint: string): Promise<string | undefined> {
  const info = await readFile("/proc/self/mountinfo", "utf8");
  let kind: string | undefined;
  for (const line of info.split("\n")) {
    const fields = line.split(" ");
    // The last mount on a point is the one seen there.
    if (fields.length > 4 && unescapeField(fields[4]) === mountPoint)
      kind = fields[3].split(":")[0];
  }
  return kind;
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
    const kind = await pinnedKind(await realpath(path));
    return kind === undefined || kind === "net";
  } catch {
    return false;
  }
}
