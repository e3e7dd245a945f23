/**
 * The fallback where the spawner helper cannot run: the commands iproute2 and util-linux ship
 * (`ip netns add` / `ip netns del` for the default dir, as `ip netns` itself pins there;
 * `unshare --net=<file>` and `umount --lazy` for another dir). Each costs a fork of this
 * process (Node's spawn), which the helper avoids. Both removal commands follow a symbolic
 * link, so the path is looked at (lstat) right before they run and a link is refused.
 */
import { execFile } from "node:child_process";
import { unlink } from "node:fs/promises";
import { promisify } from "node:util";
import { NetnsError } from "../errors/netns.js";
import { errnoCode } from "../internal/errno.js";
import { isNetns } from "./check.js";
import { defaultNetnsDir, entryAt, netnsErrorOf, permissionHint, splitNetnsPath } from "./path.js";

const execFileP = promisify(execFile);

interface CommandFailure {
  stderr?: string;
  code?: unknown;
}

/** Runs a command; a failure is a NetnsError whose reason the command's stderr tells. */
async function command(action: string, path: string, file: string, args: string[]) {
  try {
    await execFileP(file, args, { encoding: "utf8" });
  } catch (error) {
    const { stderr = "", code } = error as CommandFailure;
    if (code === "ENOENT") throw netnsErrorOf(`${action} (no ${file} command)`, path, error);
    const text = stderr.trim() || (error as Error).message;
    const reason = /not permitted|permission denied/i.test(text)
      ? "permission"
      : /exists/i.test(text)
        ? "exists"
        : /busy/i.test(text)
          ? "busy"
          : "failed";
    throw new NetnsError(
      `${action} ${path}: ${file} ${args.join(" ")}: ${text}${permissionHint(reason)}`,
      reason,
      path,
      {
        cause: error,
      },
    );
  }
}

/** True when the commands pin `path` themselves (`ip netns add` creates its file). */
export function commandsCreateFile(path: string): boolean {
  return splitNetnsPath(path).dir === defaultNetnsDir;
}

/** Pins a new network namespace at `path` (its empty file made already, unless ip makes it). */
export async function pinWithCommands(path: string): Promise<void> {
  const { name } = splitNetnsPath(path);
  if (commandsCreateFile(path))
    await command("create network namespace", path, "ip", ["netns", "add", name]);
  else await command("create network namespace", path, "unshare", [`--net=${path}`, "true"]);
}

/**
 * Unpins the namespace at `path` (lazily, as `ip netns del`) and removes its file. A symbolic
 * link there is refused first (`not-a-netns`): `ip netns del` and `umount` both follow it and
 * would unpin what it points to (util-linux's umount has no option not to).
 */
export async function unpinWithCommands(path: string): Promise<void> {
  const { name } = splitNetnsPath(path);
  const action = "remove network namespace";
  try {
    await entryAt(action, path);
  } catch (error) {
    if (error instanceof NetnsError) throw error;
    throw netnsErrorOf(action, path, error);
  }
  if (commandsCreateFile(path)) {
    await command("remove network namespace", path, "ip", ["netns", "del", name]);
    return;
  }
  try {
    await command("remove network namespace", path, "umount", ["--lazy", path]);
  } catch (error) {
    // Unmounted meanwhile (a concurrent remove): the file is left to remove.
    if (await isNetns(path)) throw error;
  }
  try {
    await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw netnsErrorOf("remove network namespace", path, error);
  }
}
