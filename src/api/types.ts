/**
 * The runtime-facing records of the api (upstream's `RuntimeConf`, `NetworkAttachment`,
 * `GCArgs`), with Go's field names in camelCase.
 */
import type { CNIArgPair, NetworkAttachment } from "../cache/results.js";
import type { GCAttachment } from "../types/gc.js";

export type { CNIArgPair, NetworkAttachment };

/**
 * The arguments to one invocation of a network (upstream `RuntimeConf`), apart from the
 * network configuration itself.
 */
export interface RuntimeConf {
  /** The container ID (`CNI_CONTAINERID`); must match `^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$`. */
  containerID: string;
  /** Path of the container's network namespace (`CNI_NETNS`). */
  netNS: string;
  /** Interface name inside the container (`CNI_IFNAME`), at most 15 bytes. */
  ifName: string;
  /** Extra `CNI_ARGS` pairs, joined as `K=V;K2=V2` without escaping. */
  args?: CNIArgPair[];
  /**
   * Capability arguments. Each plugin receives, under `runtimeConfig`, only the keys its
   * configuration declares in `capabilities` with `true`.
   */
  capabilityArgs?: Record<string, unknown>;
  /**
   * Cache directory for this call, used when the `CNIConfig` has none.
   * @deprecated as upstream: set `cacheDir` on the `CNIConfig` instead.
   */
  cacheDir?: string;
}

/** Arguments of a garbage collection (upstream `GCArgs`). */
export interface GCArgs {
  /**
   * The attachments still in use. Every cached attachment of the network not listed here is
   * deleted. Undefined (Go nil) is sent to plugins as `null`, an empty array as `[]`.
   */
  validAttachments?: GCAttachment[];
}
