/**
 * How libcni/netns does its work, in libcni/invoke's words for how a plugin starts (RawExec's
 * `launcher`, `LIBCNI_LAUNCHER`): one vocabulary for the one mechanism.
 */

import type { LauncherName } from "../engines/plugin-start.js";
import { NetnsError } from "../errors/netns.js";

/**
 * How namespaces are pinned, removed and entered: "spawner" (the spawner helper, or a
 * NetnsError where it cannot run), "direct" (the commands of iproute2 and util-linux, a fork
 * each), or "auto" (the helper when it runs here, else the commands).
 */
// Spelled out rather than LauncherName, which libcni/invoke exports, not this entry; the test
// of this module keeps the two equal.
export type NetnsMechanism = "auto" | "spawner" | "direct";

const names: readonly unknown[] = ["auto", "spawner", "direct"] satisfies LauncherName[];

/**
 * The mechanism an option names ("auto" when none is given).
 * @throws NetnsError `failed` for a value that names none (`action` and `path` say of which
 *   call, as the call's other errors do).
 */
export function mechanismOf(
  mechanism: NetnsMechanism | undefined,
  action: string,
  path: string,
): LauncherName {
  if (mechanism === undefined) return "auto";
  if (names.includes(mechanism)) return mechanism;
  throw new NetnsError(
    `${action} ${path}: option mechanism must be "auto", "spawner" or "direct", got ${String(mechanism)}`,
    "failed",
    path,
  );
}
