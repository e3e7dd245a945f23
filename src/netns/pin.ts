/**
 * Creating and removing pinned network namespaces, in the layout `ip netns` uses (an empty
 * file bind-mounted with the namespace): by the spawner helper, or the commands of direct.ts.
 */
import type { Stats } from "node:fs";
import { lstat, mkdir, open, unlink } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import type { LauncherName } from "../engines/plugin-start.js";
import { assertOptions } from "../errors/base.js";
import { NetnsError } from "../errors/netns.js";
import { errnoCode } from "../internal/errno.js";
import { isNetns } from "./check.js";
import { commandsCreateFile, pinWithCommands, unpinWithCommands } from "./direct.js";
import { mechanismOf, type NetnsMechanism } from "./mechanism.js";
import {
  absoluteNetnsPath,
  entryAt,
  netnsDirOf,
  netnsErrorOf,
  netnsPathOf,
  splitNetnsPath,
} from "./path.js";
import { spawnerPinner } from "./spawner.js";

/** Options of {@link createNetns} and {@link removeNetns}. */
export interface NetnsOptions {
  /** Where the namespace is pinned. Default `/run/netns`, where `ip netns` pins. */
  dir?: string;
  /** Default "auto": the spawner helper when it runs here, else the commands ("direct"). */
  mechanism?: NetnsMechanism;
}

/** Makes the empty file a namespace is bind-mounted on (as `ip netns add`: mode 0, exclusive). */
async function createMountPoint(path: string): Promise<void> {
  await mkdir(splitNetnsPath(path).dir, { recursive: true, mode: 0o755 });
  const handle = await open(path, "wx", 0o000);
  await handle.close();
}

/**
 * Creates a new network namespace pinned at `<dir>/<name>` and returns that path (what a
 * plugin gets as CNI_NETNS). Its loopback is down, as `ip netns add` leaves it.
 * @throws NetnsError: `invalid-name`; `exists` (the path is taken); `permission` (no
 *   CAP_SYS_ADMIN); `failed` otherwise (the spawner helper's error, if it died, is the
 *   `cause`; a pin it surely never carried out is first asked of a new helper, once). Nothing
 *   is left behind on failure.
 */
export async function createNetns(name: string, options: NetnsOptions = {}): Promise<string> {
  assertOptions(options);
  const action = "create network namespace";
  const path = netnsPathOf(name, netnsDirOf(options.dir));
  const helper = await spawnerPinner(mechanismOf(options.mechanism, action, path));
  const ownFile = helper !== undefined || !commandsCreateFile(path);
  if (ownFile) {
    await createMountPoint(path).catch((error: unknown) => {
      throw netnsErrorOf(action, path, error);
    });
  }
  try {
    if (helper !== undefined) await helper.pin(path);
    else await pinWithCommands(path);
  } catch (error) {
    // The helper may have died after its mount: unpin what is there before the file goes.
    // Only a mount point this call made: a failure of `ip netns add` on a taken name must not
    // touch the namespace already there.
    if (ownFile && (await isNetns(path))) await unpinWithCommands(path).catch(() => undefined);
    if (ownFile) await unlink(path).catch(() => undefined);
    throw error instanceof NetnsError ? error : netnsErrorOf(action, path, error);
  }
  return path;
}

/** Removes of one path in flight in this process: each waits for the one before it. */
const removing = new Map<string, Promise<unknown>>();

/**
 * Removes the namespace pinned at `path` (or named so in `options.dir`): unmounted lazily, as
 * `ip netns del` does, and its file removed (docs/netns.md). Removing one that is gone
 * succeeds, as does removing one a concurrent call removes: in this process always; in
 * another, but for a namespace outside `options.dir` that the other call has unmounted and not
 * unlinked within a short grace (an empty file there is nobody's mount point; docs/reliability.md,
 * "Network namespaces"). So does removing an empty mount point a crash left in `options.dir`.
 * @throws NetnsError: `not-a-netns` for a path that is something else, a symbolic link
 *   included (neither it nor its target is touched); `invalid-name`; `permission`; `failed`
 *   (the spawner helper's error, if it failed, is the `cause`).
 */
export async function removeNetns(pathOrName: string, options: NetnsOptions = {}): Promise<void> {
  if (typeof pathOrName !== "string") {
    const name = String(pathOrName);
    throw new NetnsError(`invalid network namespace path ${name}`, "invalid-name", name);
  }
  assertOptions(options);
  const dir = netnsDirOf(options.dir);
  const path = pathOrName.includes("/")
    ? absoluteNetnsPath(pathOrName)
    : netnsPathOf(pathOrName, dir);
  const mechanism = mechanismOf(options.mechanism, "remove network namespace", path);
  // Removes of one path run one after the other: run at once, one would find the mount point
  // it was about to unmount gone, or an empty file between another's unmount and its unlink
  // (taken for a stranger's file outside the namespaces' dir).
  const before = removing.get(path);
  const run =
    before === undefined
      ? removeOnce(path, dir, mechanism)
      : before.then(() => removeOnce(path, dir, mechanism));
  const settled = run.catch(() => undefined);
  removing.set(path, settled);
  void settled.then(() => {
    if (removing.get(path) === settled) removing.delete(path);
  });
  return run;
}

async function removeOnce(path: string, dir: string, mechanism: LauncherName): Promise<void> {
  const action = "remove network namespace";
  // Nothing is followed through a link: a link at the path is refused before anything acts on
  // it (an unmount through it would unpin the namespace it points to, another's), the helper
  // unmounts with UMOUNT_NOFOLLOW, and the commands look again before they run.
  if ((await entryOrRefusal(action, path)) === undefined) return;
  if (!(await isNetns(path))) {
    // Looked at again: another process may have removed the namespace meanwhile.
    const entry = await entryOrRefusal(action, path);
    if (entry === undefined) return;
    // Only an empty regular file in the namespaces' dir: an empty file elsewhere is nobody's
    // mount point.
    if (!entry.isFile() || entry.size !== 0 || splitNetnsPath(path).dir !== dir) {
      // An empty file elsewhere may be a mount point another process has just unmounted and is
      // about to unlink: it gets a moment to go before it is taken for a stranger's file.
      if (entry.isFile() && entry.size === 0 && (await goneWithin(path, UNLINK_GRACE_MS))) return;
      throw new NetnsError(`${action} ${path}: not a network namespace`, "not-a-netns", path);
    }
    // An empty mount point nothing is mounted on: what a crash between its creation and the pin leaves.
    await unlink(path).catch((error: unknown) => {
      if (errnoCode(error) !== "ENOENT") throw netnsErrorOf(action, path, error);
    });
    return;
  }
  const helper = await spawnerPinner(mechanism);
  try {
    if (helper === undefined) await unpinWithCommands(path);
    else await helper.unpin(path);
  } catch (error) {
    // Another process removed it meanwhile: what this call was to do is done.
    if (await isGone(path)) return;
    throw error;
  }
  // A link that took the unmounted file's place is refused too, not unlinked.
  if ((await entryOrRefusal(action, path)) === undefined) return;
  await unlink(path).catch((error: unknown) => {
    if (errnoCode(error) !== "ENOENT") throw netnsErrorOf(action, path, error);
  });
}

const isGone = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => false,
    (error: unknown) => errnoCode(error) === "ENOENT",
  );

/** How long an empty file outside the dir gets to go (a concurrent remove's unlink). */
const UNLINK_GRACE_MS = 200;
const GRACE_STEP_MS = 10;

/** True once nothing is at `path`, looked at every {@link GRACE_STEP_MS} for up to `ms`. */
async function goneWithin(path: string, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += GRACE_STEP_MS) {
    await sleep(GRACE_STEP_MS);
    if (await isGone(path)) return true;
  }
  return false;
}

/**
 * What is at `path` itself (lstat), undefined when nothing is; a symbolic link, or a path that
 * cannot be looked at, is refused as `not-a-netns`.
 */
function entryOrRefusal(action: string, path: string): Promise<Stats | undefined> {
  return entryAt(action, path).catch((error: unknown) => {
    if (error instanceof NetnsError) throw error;
    throw new NetnsError(`${action} ${path}: not a network namespace`, "not-a-netns", path, {
      cause: error,
    });
  });
}
