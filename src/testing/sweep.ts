/**
 * The sweep of what killed test runs left (docs/testing.md, "Names, and what a killed run
 * leaves"): names carry their owner (names.ts), so the next run removes those whose owner is
 * gone, never a live process's nor another pid namespace's. The first tempNetns, testHost or
 * checkPlugin of a process sweeps its namespace dir and the temp dir (sweepLeftoversOnce).
 */
import { lstat, readdir, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { assertOptions } from "../errors/base.js";
import { debug } from "../internal/diagnostics.js";
import { errnoCode } from "../internal/errno.js";
import { asError, messageOf } from "../internal/error-message.js";
import { type Mount, mounts } from "../netns/check.js";
import { defaultNetnsDir, type NetnsMechanism, removeNetns } from "../netns/index.js";
import { parseTestName, processStart, type TestNameOwner, thisOwner } from "./names.js";

/** Options of {@link sweepTestLeftovers}. */
export interface SweepTestLeftoversOptions {
  /** The dirs namespaces are pinned in. Default `["/run/netns"]`. */
  netnsDirs?: readonly string[];
  /** The dirs holding testHost's temp dirs. Default `[os.tmpdir()]`. */
  tmpDirs?: readonly string[];
  /** How namespaces are removed (libcni/netns): "spawner", "direct" or "auto" (the default). */
  mechanism?: NetnsMechanism;
}

/** A leftover the sweep could not remove (it stays for the next sweep). */
export interface SweepFailure {
  readonly path: string;
  readonly error: Error;
}

/** What {@link sweepTestLeftovers} did. */
export interface SweptTestLeftovers {
  /** The paths removed: namespaces (their pinned paths), then temp dirs, each dir sorted. */
  readonly removed: string[];
  /** The leftovers (or dirs) it could not remove, and why. */
  readonly failed: SweepFailure[];
}

/**
 * True when the owner of a name is gone: its pid is free, or taken by a process started at
 * another time; never for another namespace's name, nor an owner whose /proc is unreadable.
 */
export async function ownerGone(owner: TestNameOwner, self: TestNameOwner): Promise<boolean> {
  if (owner.ns !== self.ns) return false;
  if (owner.pid === self.pid) return owner.start !== self.start;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if (errnoCode(error) === "ESRCH") return true;
    if (errnoCode(error) !== "EPERM") return false;
  }
  const start = await processStart(owner.pid);
  return start !== undefined && start !== owner.start;
}

/** The entries of `dir` named by the library for an owner that is gone, sorted. */
async function leftoversIn(
  dir: string,
  self: TestNameOwner,
  failed: SweepFailure[],
): Promise<string[]> {
  const names = await readdir(dir).catch((error: unknown) => {
    if (errnoCode(error) !== "ENOENT") failed.push({ path: dir, error: asError(error) });
    return [];
  });
  const found: string[] = [];
  for (const name of names.sort()) if (await isLeftover(name, self)) found.push(name);
  return found;
}

/** True for a name of the scheme whose owner is gone. */
async function isLeftover(name: string, self: TestNameOwner): Promise<boolean> {
  const parsed = parseTestName(name);
  return parsed !== undefined && (await ownerGone(parsed.owner, self));
}

/**
 * Removes a leftover temp dir. A namespace pinned inside it by an owner that is gone (a
 * tempNetns with its `dir` there) is removed first; any other mount inside leaves the dir
 * alone: a recursive removal would descend into the mounted tree, which is not the library's.
 */
async function removeTempDir(
  path: string,
  self: TestNameOwner,
  allMounts: () => Promise<Mount[]>,
  mechanism: NetnsMechanism | undefined,
): Promise<void> {
  const others: string[] = [];
  for (const mount of (await allMounts()).filter((m) => m.point.startsWith(`${path}/`))) {
    if (mount.fsType === "nsfs" && (await isLeftover(basename(mount.point), self))) {
      await removeNetns(mount.point, { dir: dirname(mount.point), mechanism });
    } else {
      others.push(mount.point);
    }
  }
  if (others.length > 0) {
    throw new Error(`${path} holds mount points (${others.join(", ")}): left alone`);
  }
  await rm(path, { recursive: true, force: true });
}

/**
 * Removes the namespaces and temp dirs (`lcnitest-...`, `lcnicheck-...`) of test processes and
 * checks that are gone, and resolves to what it removed and what it could not (a namespace
 * needs CAP_SYS_ADMIN). Live processes', other pid namespaces', other users' temp dirs and
 * anything named otherwise are left alone; without /proc, everything is.
 */
export async function sweepTestLeftovers(
  options: SweepTestLeftoversOptions = {},
): Promise<SweptTestLeftovers> {
  assertOptions(options);
  const removed: string[] = [];
  const failed: SweepFailure[] = [];
  const self = await thisOwner();
  if (self === undefined) {
    debug("testing: leftovers not swept: the owner of a name cannot be told here (no /proc)");
    return { removed, failed };
  }
  const { mechanism } = options;
  for (const dir of unique(options.netnsDirs ?? [defaultNetnsDir])) {
    for (const name of await leftoversIn(dir, self, failed)) {
      const path = join(dir, name);
      await removeNetns(name, { dir, mechanism }).then(
        () => removed.push(path),
        (error: unknown) => failed.push({ path, error: asError(error) }),
      );
    }
  }
  let mountList: Promise<Mount[]> | undefined;
  const allMounts = () => {
    // Empty where there is no mountinfo.
    mountList ??= mounts().catch(() => []);
    return mountList;
  };
  const uid = process.geteuid?.();
  for (const given of unique(options.tmpDirs ?? [tmpdir()])) {
    // Mount points are real paths.
    const dir = await realpath(given).catch(() => given);
    for (const name of await leftoversIn(dir, self, failed)) {
      const path = join(dir, name);
      try {
        const st = await lstat(path);
        // testHost's roots are dirs of their owner's user; anything else is not one of them.
        if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
        await removeTempDir(path, self, allMounts, mechanism);
        removed.push(path);
      } catch (error) {
        if (errnoCode(error) !== "ENOENT") failed.push({ path, error: asError(error) });
      }
    }
  }
  return { removed, failed };
}

function unique(dirs: readonly string[]): string[] {
  return [...new Set(dirs.map((d) => resolve(d)))];
}

// Per process: the dirs swept (or being swept), by kind and path.
const sweeps = new Map<string, Promise<void>>();

function sweepOnce(key: string, options: SweepTestLeftoversOptions): Promise<void> {
  const sweep =
    sweeps.get(key) ??
    sweepTestLeftovers(options).then(
      ({ removed, failed }) => {
        for (const path of removed) debug("testing: removed %s (its owner is gone)", path);
        for (const { path, error } of failed) {
          debug("testing: leftover %s not removed: %s", path, messageOf(error));
        }
      },
      (error: unknown) => debug("testing: leftovers not swept: %s", messageOf(error)),
    );
  sweeps.set(key, sweep);
  return sweep;
}

/**
 * The sweep of the first tempNetns, testHost or checkPlugin: its namespace dir and the temp
 * dir, each once per process. It never rejects: failures go to the `NODE_DEBUG=libcni` log.
 */
export function sweepLeftoversOnce(
  options: { netnsDir?: string; mechanism?: NetnsMechanism } = {},
): Promise<void> {
  const netnsDir = resolve(options.netnsDir ?? defaultNetnsDir);
  const tmp = resolve(tmpdir());
  const { mechanism } = options;
  return Promise.all([
    sweepOnce(`netns:${netnsDir}`, { netnsDirs: [netnsDir], tmpDirs: [], mechanism }),
    sweepOnce(`tmp:${tmp}`, { netnsDirs: [], tmpDirs: [tmp], mechanism }),
  ]).then(() => undefined);
}
