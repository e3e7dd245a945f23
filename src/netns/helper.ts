/**
 * The spawner helper's side of pinning: it unshares a network namespace, bind-mounts it on the
 * mount point and returns to its own namespace; and it unmounts one. This process sends a
 * request and never forks.
 */
import { access, constants } from "node:fs/promises";
import { NetnsError } from "../errors.js";
import { errnoName } from "../invoke/spawner/instance.js";
import type { SpawnerLauncher } from "../invoke/spawner/pool.js";
import { sharedSpawner } from "../invoke/spawner/select.js";
import { defaultNetnsDir, netnsErrorOf, splitNetnsPath } from "./path.js";

/** Pins and unpins namespaces. */
export interface NetnsPinner {
  /** Pins a new network namespace on the existing empty file `path`. */
  pin(path: string): Promise<void>;
  /** Unmounts the namespace pinned at `path` (lazily; the file stays). */
  unpin(path: string): Promise<void>;
}

/** An OS error of the helper's errno, shaped as Node's (`code`). */
function osError(errno: number): NodeJS.ErrnoException {
  const code = errnoName(errno);
  return Object.assign(new Error(code), { code, errno: -errno });
}

function pinnerOf(spawner: SpawnerLauncher): NetnsPinner {
  return {
    async pin(path) {
      // As `ip netns add`: its own dir is made a shared mount, so pins show in other mount
      // namespaces; another dir is left as it is (a test's temp dir must stay removable).
      const shareDir = splitNetnsPath(path).dir === defaultNetnsDir;
      const errno = await spawner.netnsRequest(true, path, shareDir);
      if (errno !== 0) throw netnsErrorOf("create network namespace", path, osError(errno));
    },
    async unpin(path) {
      const errno = await spawner.netnsRequest(false, path);
      // EINVAL: nothing is mounted there (any more).
      if (errno !== 0 && errnoName(errno) !== "EINVAL") {
        throw netnsErrorOf("remove network namespace", path, osError(errno));
      }
    },
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
 * The helper's pinner, or undefined when the helper cannot run here (`required`: a NetnsError
 * saying why instead).
 */
export async function helperPinner(required: boolean): Promise<NetnsPinner | undefined> {
  const helper = await helperHere();
  if (!(helper instanceof Error)) return pinnerOf(helper);
  if (!required) return undefined;
  throw new NetnsError(`the spawner helper cannot run here: ${helper.message}`, "failed", "", {
    cause: helper,
  });
}
