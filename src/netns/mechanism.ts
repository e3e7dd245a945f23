/**
 * How libcni/netns does its work, named as libcni/invoke names how a plugin is started (RawExec's
 * `launcher`, `LIBCNI_LAUNCHER`): one vocabulary for the one mechanism. "spawner" is the
 * library's spawner helper, which pins, removes and enters namespaces as it starts plugins,
 * without a fork of this process; "direct" is this process doing it itself, through the
 * commands of iproute2 and util-linux (`ip netns add`/`del`, `unshare --net=`, `umount
 * --lazy`, `nsenter --net=`), as the direct spawn starts plugins with Node's own spawn.
 */

import type { LauncherName } from "../engines/plugin-start.js";
import { NetnsError } from "../errors/netns.js";

/**
 * How namespaces are pinned, removed and entered: "spawner" (the spawner helper, or a
 * NetnsError where it cannot run), "direct" (the commands of iproute2 and util-linux, a fork
 * each), or "auto" (the helper when it runs here, else the commands), as libcni/invoke's
 * `launcher` option names them.
 */
// Spelled out rather than LauncherName, which libcni/invoke exports, not this entry; the test
// of this module keeps the two equal.
export type NetnsMechanism = "auto" | "spawner" | "direct";

const names: Readonly<Record<string, LauncherName>> = {
  auto: "auto",
  spawner: "spawner",
  direct: "direct",
};

/**
 * The mechanism an option names, in libcni/invoke's words ("auto" when none is given).
 * @throws NetnsError `failed` for a value that names none (`action` and `path` say of which
 *   call, as the call's other errors do).
 */
export function mechanismOf(
  mechanism: NetnsMechanism | undefined,
  action: string,
  path: string,
): LauncherName {
  if (mechanism === undefined) return "auto";
  const name =
    typeof mechanism === "string" && Object.hasOwn(names, mechanism) ? names[mechanism] : undefined;
  if (name !== undefined) return name;
  throw new NetnsError(
    `${action} ${path}: option mechanism must be "auto", "spawner" or "direct", got ${String(mechanism)}`,
    "failed",
    path,
  );
}
