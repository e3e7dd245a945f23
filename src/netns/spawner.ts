/**
 * The spawner helper's side of pinning: it unshares a network namespace, bind-mounts it on the
 * mount point and returns to its own namespace; and it unmounts one. This process never forks.
 */
import { access, constants } from "node:fs/promises";
import { type LauncherName, type SpawnerLauncher, sharedSpawner } from "../engines/plugin-start.js";
import { NetnsError } from "../errors/netns.js";
import { SpawnerExitedError } from "../errors/spawner.js";
import { debug } from "../internal/diagnostics.js";
import { errnoName } from "../internal/errno.js";
import { isNetns } from "./check.js";
import { defaultNetnsDir, netnsErrorOf, splitNetnsPath } from "./path.js";

/** Pins and unpins namespaces. */
export interface NetnsPinner {
  /** Pins a new network namespace on the existing empty file `path`. */
  pin(path: string): Promise<void>;
  /** Unmounts the namespace pinned at `path` (lazily; the file stays), never through a link. */
  unpin(path: string): Promise<void>;
}

/** An OS error of the helper's errno, shaped as Node's (`code`). */
function osError(errno: number): NodeJS.ErrnoException {
  const code = errnoName(errno);
  return Object.assign(new Error(code), { code, errno: -errno });
}

/**
 * Asks the helper; a helper that died before answering is asked again once, on a new one, when
 * the request surely was not carried out: an unpin always (unpinning what is no longer pinned
 * is EINVAL, which counts as done), a pin when nothing is mounted at the path (a dead helper
 * mounts nothing more).
 */
async function request(
  spawner: SpawnerLauncher,
  pin: boolean,
  path: string,
  shareDir: boolean,
): Promise<number> {
  return spawner.netnsRequest(pin, path, shareDir).catch(async (error: unknown) => {
    if (!(error instanceof SpawnerExitedError) || (pin && (await isNetns(path)))) throw error;
    debug("netns: %s; asking a new helper", error.message);
    return spawner.netnsRequest(pin, path, shareDir);
  });
}

function pinnerOf(spawner: SpawnerLauncher): NetnsPinner {
  const ask = async (action: string, pin: boolean, path: string, shareDir: boolean) => {
    const errno = await request(spawner, pin, path, shareDir).catch((error: unknown) => {
      throw netnsErrorOf(action, path, error);
    });
    // An unpin's EINVAL: nothing is mounted there (any more), or a symbolic link is (the helper
    // does not follow one: UMOUNT_NOFOLLOW); removeNetns looks at the path again before its unlink.
    if (errno === 0 || (!pin && errnoName(errno) === "EINVAL")) return;
    throw netnsErrorOf(action, path, osError(errno));
  };
  return {
    // As `ip netns add`: its own dir is made a shared mount, so pins show in other mount
    // namespaces; another dir is left as it is (a test's temp dir must stay removable).
    pin: (path) =>
      ask("create network namespace", true, path, splitNetnsPath(path).dir === defaultNetnsDir),
    unpin: (path) => ask("remove network namespace", false, path, false),
  };
}

let available: Promise<SpawnerLauncher | Error> | undefined;

/**
 * The process's spawner helper when it runs here (its binary present, its handshake done).
 * Only an answer that it runs is kept: a failed probe (a handshake timing out under load) is
 * asked again next time.
 */
function helperHere(): Promise<SpawnerLauncher | Error> {
  available ??= (async () => {
    if (process.platform !== "linux") return new Error(`no spawner helper on ${process.platform}`);
    const spawner = sharedSpawner();
    try {
      await access(spawner.binaryPath, constants.X_OK);
      await spawner.probe();
      return spawner;
    } catch (error) {
      available = undefined;
      return error instanceof Error ? error : new Error(String(error));
    }
  })();
  return available;
}

/**
 * The helper's pinner for `mechanism`; undefined for "direct", or for "auto" where the helper
 * cannot run ("spawner": a NetnsError saying why instead).
 */
export async function spawnerPinner(mechanism: LauncherName): Promise<NetnsPinner | undefined> {
  if (mechanism === "direct") return undefined;
  const helper = await helperHere();
  if (!(helper instanceof Error)) return pinnerOf(helper);
  if (mechanism === "auto") return undefined;
  throw new NetnsError(`the spawner helper cannot run here: ${helper.message}`, "failed", "", {
    cause: helper,
  });
}
