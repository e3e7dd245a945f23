/**
 * Pod network namespaces for a Node runtime (libcni/netns): created, pinned and removed in the
 * layout `ip netns` uses, checked, and entered to run a program, by the library's spawner
 * helper (the Node process never forks) or the commands of iproute2 and util-linux
 * (docs/netns.md). Everything here needs CAP_SYS_ADMIN but {@link isNetns}.
 * @module
 */
export { NetnsError, type NetnsFailure } from "../errors/netns.js";
export { isNetns } from "./check.js";
export { type ExecInNetnsOptions, type ExecInNetnsResult, execInNetns } from "./exec.js";
export type { NetnsMechanism } from "./mechanism.js";
export { defaultNetnsDir } from "./path.js";
export { createNetns, type NetnsOptions, removeNetns } from "./pin.js";
