/** Names and paths of pinned network namespaces, and the OS's refusals as {@link NetnsError}s. */
import type { Stats } from "node:fs";
import { lstat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { NetnsError, type NetnsFailure } from "../errors/netns.js";
import { errnoCode, undefinedIfMissing } from "../internal/errno.js";

/** Where `ip netns` pins namespaces (iproute2's NETNS_RUN_DIR), and so the default here. */
export const defaultNetnsDir = "/run/netns";

/** The path of a namespace named `name` in `dir`, the name checked as `ip netns add` checks it. */
export function netnsPathOf(name: string, dir: string = defaultNetnsDir): string {
  const bad = typeof name !== "string" || name === "" || name === "." || name === "..";
  if (bad || name.includes("/") || name.includes("\0")) {
    throw new NetnsError(
      `invalid network namespace name ${JSON.stringify(name)}: it must be non-empty, hold no "/" or NUL, and be neither "." nor ".."`,
      "invalid-name",
      String(name),
    );
  }
  // Absolute: the spawner helper resolves a relative path against its own working directory.
  return resolve(dir, name);
}

/** The absolute directory of the `dir` option (default {@link defaultNetnsDir}). */
export function netnsDirOf(dir: string | undefined): string {
  if (dir === undefined) return defaultNetnsDir;
  // "" would be the current directory, whose empty files removeNetns takes for stale pins.
  if (typeof dir !== "string" || dir === "" || dir.includes("\0")) {
    throw new NetnsError(
      `invalid network namespace directory ${JSON.stringify(dir)}`,
      "invalid-name",
      String(dir),
    );
  }
  return resolve(dir);
}

/** An absolute namespace path (see {@link netnsPathOf}); a NUL byte is refused. */
export function absoluteNetnsPath(path: string): string {
  if (typeof path !== "string" || path === "" || path.includes("\0")) {
    throw new NetnsError(
      `invalid network namespace path ${JSON.stringify(path)}`,
      "invalid-name",
      String(path),
    );
  }
  return resolve(path);
}

/** The directory and name of a pinned namespace's path. */
export function splitNetnsPath(path: string): { dir: string; name: string } {
  return { dir: dirname(path), name: basename(path) };
}

const reasons = new Map<string | undefined, NetnsFailure>([
  ["EPERM", "permission"],
  ["EACCES", "permission"],
  ["EEXIST", "exists"],
  ["ENOENT", "missing"],
  ["EBUSY", "busy"],
]);

/** A {@link NetnsError} for an OS error of `action` on `path`, its reason told by the errno. */
export function netnsErrorOf(action: string, path: string, error: unknown): NetnsError {
  const errno = errnoCode(error);
  const reason = reasons.get(errno) ?? "failed";
  const text = error instanceof Error ? error.message : String(error);
  return new NetnsError(`${action} ${path}: ${text}${permissionHint(reason)}`, reason, path, {
    cause: error,
    errno,
  });
}

/**
 * What is at `path` itself (lstat); undefined when nothing is; any other error is thrown as it
 * came. A symbolic link is refused: a pinned namespace is a mount on a regular file, and what a
 * link points to (another's live namespace, say) is not the caller's to unpin.
 */
export async function entryAt(action: string, path: string): Promise<Stats | undefined> {
  const entry = await lstat(path).catch(undefinedIfMissing);
  if (entry?.isSymbolicLink()) {
    throw new NetnsError(
      `${action} ${path}: a symbolic link, not a network namespace (neither it nor what it points to is removed)`,
      "not-a-netns",
      path,
    );
  }
  return entry;
}

/** What a refused namespace operation's message adds: how to get the rights, or nothing. */
export function permissionHint(reason: NetnsFailure): string {
  return reason === "permission"
    ? " (network namespaces need CAP_SYS_ADMIN: run as root, or without root in a sandbox of your own: cnitool rootless -- <command>)"
    : "";
}
