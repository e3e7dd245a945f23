/**
 * The netns sanity check (upstream `pkg/ns.CheckNetNS`): a plugin must not configure the
 * namespace it runs in, so skel refuses when CNI_NETNS names the plugin's own netns.
 */

import { stat } from "node:fs/promises";
import { CNIError } from "../errors/types.js";
import { ErrInvalidNetNS } from "../types/error-codes.js";

/** The path of the calling process's network namespace. */
export const selfNetNSPath = "/proc/self/ns/net";

/**
 * True when `nsPath` is the plugin's own network namespace: both paths stat (following the
 * magic links) to the same nsfs device and inode, as netlink's `NsHandle.Equal` compares them.
 * A path that cannot be opened is not the plugin's netns (upstream lets the plugin judge it,
 * and DEL allows an empty or vanished netns). Failing to read the plugin's own netns is code 8
 * `get plugin's netns failed`. Off Linux there are no netns, and the answer is false, as
 * upstream's non-Linux build.
 */
export async function isPluginNetNS(nsPath: string): Promise<boolean> {
  if (process.platform !== "linux") return false;
  let target: Awaited<ReturnType<typeof statNs>>;
  try {
    target = await statNs(nsPath);
  } catch {
    return false;
  }
  let own: Awaited<ReturnType<typeof statNs>>;
  try {
    own = await statNs(selfNetNSPath);
  } catch (error) {
    throw new CNIError(ErrInvalidNetNS, "get plugin's netns failed", "", { cause: error });
  }
  return own.dev === target.dev && own.ino === target.ino;
}

function statNs(path: string): Promise<{ dev: bigint; ino: bigint }> {
  // bigint: inode numbers of nsfs are large; compare them exactly.
  return stat(path, { bigint: true });
}
