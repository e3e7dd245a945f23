/**
 * Pod network namespaces for a Node runtime (libcni/netns): created, pinned and removed in the
 * layout `ip netns` uses, checked, and entered to run a program, by the library's spawner
 * helper, so the Node process never forks (containerd's `pkg/netns` and CRI-O's `pinns` do
 * the same in Go and C). Where the helper cannot run, the commands of iproute2 and util-linux
 * do it. The `mechanism` option picks one as libcni/invoke's `launcher` picks how plugins start:
 * "spawner", "direct" or "auto". Everything here needs CAP_SYS_ADMIN but {@link isNetns}.
 * @module
 */
export { NetnsError, type NetnsFailure } from "../errors/netns.js";
export { isNetns } from "./check.js";
export { type ExecInNetnsOptions, type ExecInNetnsResult, execInNetns } from "./exec.js";
export type { NetnsMechanism } from "./mechanism.js";
export { defaultNetnsDir } from "./path.js";
export { createNetns, type NetnsOptions, removeNetns } from "./pin.js";
