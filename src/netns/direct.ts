/**
 * The fallback where the spawner helper cannot run: the commands iproute2 and util-linux ship
 * (`ip netns add` / `ip netns del` for the default dir, as `ip netns` itself pins there;
 * `unshare --net=<file>` and `umount --lazy` for another dir), a fork of this process each.
 */
import { execFile } from "node:child_process";
import { unlink } from "node:fs/promises";
import { promisify } from "node:util";
import { NetnsError, type NetnsFailure } from "../errors/netns.js";
import { errnoCode } from "../internal/errno.js";
import { isNetns } from "./check.js";
import { defaultNetnsDir, entryAt, netnsErrorOf, permissionHint, splitNetnsPath } from "./path.js";

const execFileP = promisify(execFile);

/** The reason a command's failure text tells, in order; none of them: `failed`. */
const reasons: [RegExp, NetnsFailure][] = [
  [/not permitted|permission denied/i, "permission"],
  [/exists/i, "exists"],
  [/busy/i, "busy"],
];

/** Runs a command; a failure is a NetnsError whose reason the command's stderr tells. */
async function command(action: string, path: string, file: string, args: string[]) {
  try {
    await execFileP(file, args, { encoding: "utf8" });
  } catch (error) {
    const { stderr = "", code } = error as { stderr?: string; code?: unknown };
    if (code === "ENOENT") throw netnsErrorOf(`${action} (no ${file} command)`, path, error);
    const text = stderr.trim() || (error as Error).message;
    const reason = reasons.find(([pattern]) => pattern.test(text))?.[1] ?? "failed";
    throw new NetnsError(
      `${action} ${path}: ${file} ${args.join(" ")}: ${text}${permissionHint(reason)}`,
      reason,
      path,
      { cause: error },
    );
  }
}

/** True when the commands pin `path` themselves (`ip netns add` creates its file). */
export function commandsCreateFile(path: string): boolean {
  return splitNetnsPath(path).dir === defaultNetnsDir;
}

/** Pins a new network namespace at `path` (its empty file made already, unless ip makes it). */
export async function pinWithCommands(path: string): Promise<void> {
  const action = "create network namespace";
  if (commandsCreateFile(path))
    await command(action, path, "ip", ["netns", "add", splitNetnsPath(path).name]);
  else await command(action, path, "unshare", [`--net=${path}`, "true"]);
}

/**
 * Unpins the namespace at `path` (lazily, as `ip netns del`) and removes its file. A symbolic
 * link there is refused first (`not-a-netns`): `ip netns del` and `umount` both follow it and
 * would unpin what it points to (util-linux's umount has no option not to).
 */
export async function unpinWithCommands(path: string): Promise<void> {
  const action = "remove network namespace";
  await entryAt(action, path).catch((error: unknown) => {
    throw error instanceof NetnsError ? error : netnsErrorOf(action, path, error);
  });
  if (commandsCreateFile(path)) {
    await command(action, path, "ip", ["netns", "del", splitNetnsPath(path).name]);
    return;
  }
  await command(action, path, "umount", ["--lazy", path]).catch(async (error: unknown) => {
    // Unmounted meanwhile (a concurrent remove): the file is left to remove.
    if (await isNetns(path)) throw error;
  });
  await unlink(path).catch((error: unknown) => {
    if (errnoCode(error) !== "ENOENT") throw netnsErrorOf(action, path, error);
  });
}
