/**
 * The sweep of what killed test runs left behind: a test process (or a conformance check)
 * SIGKILLed before its `await using` blocks ran leaves its namespaces pinned and its temp dirs
 * in place. Their names (names.ts) carry their owner, so the next run finds those whose owner
 * is gone and removes them: never a live process's (a reused pid is told apart by its start
 * time), never a name of another pid namespace, never a name the library did not make.
 *
 * The first tempNetns, testHost or checkPlugin of a process sweeps the namespace dir it uses
 * and the temp dir, once each (sweepLeftoversOnce); `sweepTestLeftovers` and `cnitool sweep`
 * do it on demand.
 */
import { lstat, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { debug } from "../internal/diagnostics.js";
import { errnoCode } from "../internal/errno.js";
import { messageOf } from "../internal/error-message.js";
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
 * another time. A name of another pid or time namespace is never judged gone, nor one whose
 * owner's /proc entry cannot be read.
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
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") failed.push({ path: dir, error: asError(error) });
    return [];
  }
  const found: string[] = [];
  for (const name of names.sort()) {
    const parsed = parseTestName(name);
    if (parsed !== undefined && (await ownerGone(parsed.owner, self))) found.push(name);
  }
  return found;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

interface Mount {
  point: string;
  fsType: string;
}

/** The mounts of this process (/proc/self/mountinfo); empty where there is none. */
async function mounts(): Promise<Mount[]> {
  let text: string;
  try {
    text = await readFile("/proc/self/mountinfo", "utf8");
  } catch {
    return [];
  }
  const decodeOctal = (s: string) =>
    s.replace(/\\([0-7]{3})/g, (_, octal: string) =>
      String.fromCharCode(Number.parseInt(octal, 8)),
    );
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const [left, right = ""] = line.split(" - ");
      return { point: decodeOctal(left.split(" ")[4] ?? ""), fsType: right.split(" ")[0] ?? "" };
    });
}

/** True for a namespace pinned at `point` whose name says its owner is gone. */
async function goneNamespace(mount: Mount, self: TestNameOwner): Promise<boolean> {
  if (mount.fsType !== "nsfs") return false;
  const parsed = parseTestName(basename(mount.point));
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
    if (await goneNamespace(mount, self)) {
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
 * Removes the namespaces and temp dirs that test processes and conformance checks which are
 * gone left behind (named `lcnitest-…` and `lcnicheck-…` for their owner), and resolves to what
 * it removed and what it could not. Those of live processes, of other pid namespaces, and
 * anything named otherwise are left alone; so is a temp dir that is not this user's. Removing
 * a namespace needs CAP_SYS_ADMIN (each one it cannot remove is a failure in the result).
 * Without /proc (where owners cannot be told apart) it removes nothing.
 */
export async function sweepTestLeftovers(
  options: SweepTestLeftoversOptions = {},
): Promise<SweptTestLeftovers> {
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
      try {
        await removeNetns(name, { dir, mechanism });
        removed.push(path);
      } catch (error) {
        failed.push({ path, error: asError(error) });
      }
    }
  }
  let mountList: Promise<Mount[]> | undefined;
  const allMounts = () => {
    mountList ??= mounts();
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
  let sweep = sweeps.get(key);
  if (sweep === undefined) {
    sweep = sweepTestLeftovers(options).then(
      ({ removed, failed }) => {
        for (const path of removed) debug("testing: removed %s (its owner is gone)", path);
        for (const { path, error } of failed) {
          debug("testing: leftover %s not removed: %s", path, messageOf(error));
        }
      },
      (error: unknown) => debug("testing: leftovers not swept: %s", messageOf(error)),
    );
    sweeps.set(key, sweep);
  }
  return sweep;
}

/**
 * The sweep of the first tempNetns, testHost or checkPlugin of the process: the namespace dir
 * it uses and the temp dir, each once per process however many calls come at the same time.
 * It never rejects: what it cannot do goes to the `NODE_DEBUG=libcni` log.
 */
export function sweepLeftoversOnce(
  options: { netnsDir?: string; mechanism?: NetnsMechanism } = {},
): Promise<void> {
  const netnsDir = resolve(options.netnsDir ?? defaultNetnsDir);
  const tmp = resolve(tmpdir());
  return Promise.all([
    sweepOnce(`netns:${netnsDir}`, {
      netnsDirs: [netnsDir],
      tmpDirs: [],
      mechanism: options.mechanism,
    }),
    sweepOnce(`tmp:${tmp}`, { netnsDirs: [], tmpDirs: [tmp], mechanism: options.mechanism }),
  ]).then(() => undefined);
}
