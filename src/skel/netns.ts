/**
 * The netns sanity check (upstream `pkg/ns.CheckNetNS`): a plugin must not configure the
 * namespace it runs in, so skel refuses when CNI_NETNS names the plugin's own netns.
 */

import { stat } from "node:fs/promises";
import { CNIError } from "../errors/types.js";
import { ErrInvalidNetNS } from "../types/error-codes.js";

/**
 * True when `nsPath` stats to the plugin's own netns device and inode (netlink's
 * `NsHandle.Equal`). A path that cannot be opened is not (upstream lets the plugin judge it, and
 * DEL allows a vanished netns); failing to read the plugin's own is code 8. Off Linux: false.
 */
export async function isPluginNetNS(nsPath: string): Promise<boolean> {
  if (process.platform !== "linux") return false;
  // bigint: inode numbers of nsfs are large; compare them exactly.
  const target = await stat(nsPath, { bigint: true }).catch(() => undefined);
  if (target === undefined) return false;
  const own = await stat("/proc/self/ns/net", { bigint: true }).catch((error: unknown) => {
    throw new CNIError(ErrInvalidNetNS, "get plugin's netns failed", "", { cause: error });
  });
  return own.dev === target.dev && own.ino === target.ino;
}
