/**
 * The plain way to start a plugin: Node's `child_process.spawn` (the twin of the spawner
 * helper's launcher, engines/spawner/pool.ts, which falls back to it for a run the helper cannot
 * take).
 */
import { spawn } from "node:child_process";
import { statfs } from "node:fs/promises";
import { isNamespaceFsType } from "../../internal/namespace-fs.js";
import {
  type Launcher,
  type LaunchRun,
  netnsEntryError,
  OwnLauncher,
  type Started,
} from "./launcher.js";
import type { PluginEnv } from "./plugin-env.js";

/** The program `nsenter` (util-linux): how the direct spawn starts a process in a namespace. */
const nsenter = "nsenter";

/**
 * The direct spawn: Node's `child_process.spawn`, the process detached into its own session;
 * in another network namespace through `nsenter --net=<path>`, which enters it and execs the
 * program (the same process, so the same pid, group and pipes).
 */
class DirectLauncher extends OwnLauncher {
  readonly name = "direct";

  start(path: string, env: PluginEnv, run: LaunchRun | undefined): Started {
    const args = run?.args ?? [];
    const options = { env: env.object(), detached: true, stdio: "pipe" } as const;
    const netns = run?.netns;
    if (netns === undefined) return spawn(path, args, options);
    // nsenter would block for ever opening a FIFO, and say little of anything else that is no
    // namespace: the path is checked first, as the helper's setns() checks it.
    return statfs(netns).then(
      ({ type }) => {
        if (!isNamespaceFsType(type)) throw netnsEntryError(netns, "EINVAL");
        return spawn(nsenter, [`--net=${netns}`, "--", path, ...args], options);
      },
      (error: NodeJS.ErrnoException) => {
        throw netnsEntryError(netns, error.code ?? "EINVAL");
      },
    );
  }
}

/** The direct spawn (see {@link LaunchRun.netns} for a run in another namespace). */
export const directLauncher: Launcher = new DirectLauncher();
