/**
 * Creating and removing pinned network namespaces, in the layout `ip netns` uses (an empty
 * file bind-mounted with the namespace, under /run/netns by default), so `ip netns list`, Go
 * runtimes and plugins see them. The spawner helper does it (it unshares a namespace, pins it
 * and returns to its own, so this process never forks); where the helper cannot run, the
 * commands of commands.ts do.
 */
import { mkdir, open, stat, unlink } from "node:fs/promises";
import { resolve } from "node:path";
import { NetnsError } from "../errors.js";
import { errnoCode } from "../internal/errno.js";
import { isNetns } from "./check.js";
import { commandsCreateFile, pinWithCommands, unpinWithCommands } from "./commands.js";
import { helperPinner } from "./helper.js";
import {
  absoluteNetnsPath,
  defaultNetnsDir,
  netnsErrorOf,
  netnsPathOf,
  splitNetnsPath,
} from "./path.js";

/** How a namespace is pinned and run in: the spawner helper, the commands, or the helper when it can run. */
export type NetnsMechanism = "auto" | "helper" | "commands";

/** Options of {@link createNetns} and {@link removeNetns}. */
export interface NetnsOptions {
  /** Where the namespace is pinned. Default `/run/netns`, where `ip netns` pins. */
  dir?: string;
  /** Default "auto": the spawner helper when it runs here, else the commands. */
  mechanism?: NetnsMechanism;
}

async function pinner(mechanism: NetnsMechanism = "auto") {
  if (mechanism === "commands") return undefined;
  const helper = await helperPinner(mechanism === "helper");
  return helper;
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
 *   CAP_SYS_ADMIN); `failed` otherwise. Nothing is left behind on failure.
 */
export async function createNetns(name: string, options: NetnsOptions = {}): Promise<string> {
  const path = netnsPathOf(name, options.dir ?? defaultNetnsDir);
  const helper = await pinner(options.mechanism);
  const ownFile = helper !== undefined || !commandsCreateFile(path);
  if (ownFile) {
    try {
      await createMountPoint(path);
    } catch (error) {
      throw netnsErrorOf("create network namespace", path, error);
    }
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
    throw error instanceof NetnsError
      ? error
      : netnsErrorOf("create network namespace", path, error);
  }
  return path;
}

/**
 * Removes the namespace pinned at `path` (or named so in `options.dir`): unmounted lazily, as
 * `ip netns del` does, and its file removed. The namespace itself lives on while a process is
 * in it. Removing one that is already gone succeeds (idempotent); so does removing an empty
 * mount point a crash left in `options.dir` (default /run/netns).
 * @throws NetnsError: `not-a-netns` for a path that is something else (it is left alone);
 *   `permission`; `failed`.
 */
export async function removeNetns(pathOrName: string, options: NetnsOptions = {}): Promise<void> {
  const dir = resolve(options.dir ?? defaultNetnsDir);
  const path = pathOrName.includes("/")
    ? absoluteNetnsPath(pathOrName)
    : netnsPathOf(pathOrName, dir);
  if (!(await isNetns(path))) {
    let size: number;
    try {
      const st = await stat(path);
      if (!st.isFile()) throw new Error("not a regular file");
      size = st.size;
    } catch (error) {
      if (errnoCode(error) === "ENOENT") return;
      throw new NetnsError(
        `remove network namespace ${path}: not a network namespace`,
        "not-a-netns",
        path,
        {
          cause: error,
        },
      );
    }
    // Only in the namespaces' dir: an empty file elsewhere is nobody's mount point.
    if (size !== 0 || splitNetnsPath(path).dir !== dir) {
      throw new NetnsError(
        `remove network namespace ${path}: not a network namespace`,
        "not-a-netns",
        path,
      );
    }
    // An empty mount point nothing is mounted on: what a crash between its creation and the pin leaves.
    await unlink(path).catch((error: unknown) => {
      if (errnoCode(error) !== "ENOENT")
        throw netnsErrorOf("remove network namespace", path, error);
    });
    return;
  }
  const helper = await pinner(options.mechanism);
  if (helper === undefined) {
    await unpinWithCommands(path);
    return;
  }
  await helper.unpin(path);
  try {
    await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw netnsErrorOf("remove network namespace", path, error);
  }
}
