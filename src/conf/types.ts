/**
 * The parsed forms of a network configuration (upstream libcni `PluginConfig` and
 * `NetworkConfigList`).
 */
import type { PluginConf } from "../types/plugin-conf.js";

/**
 * One plugin of a network: its decoded well-known fields and the exact bytes it is run with
 * (upstream `PluginConfig`). `bytes` keeps every field, known or not: it is what goes to the
 * plugin's stdin after injection.
 */
export interface PluginConfig {
  /** The fields libcni reads, decoded with Go's struct rules. */
  network: PluginConf;
  /** The plugin's JSON, as read (a single-plugin file) or as Go re-marshals it (a list entry). */
  bytes: Uint8Array;
}

/** Deprecated upstream alias of {@link PluginConfig} (`NetworkConfig`). */
export type NetworkConfig = PluginConfig;

/** A network: its list-level settings and its plugins in order (upstream `NetworkConfigList`). */
export interface NetworkConfigList {
  /** The network name (`name`; may be empty at parse time, as upstream). */
  name: string;
  /** The CNI version: `cniVersion`, or the highest supported entry of `cniVersions`. */
  cniVersion: string;
  /** `disableCheck`: never run CHECK on this network. */
  disableCheck: boolean;
  /** `disableGC`: never run GC on this network. */
  disableGC: boolean;
  /** `loadOnlyInlinedPlugins`: ignore the drop-in plugin directory. */
  loadOnlyInlinedPlugins: boolean;
  /** The plugins: the inline ones, then (from a file) the drop-in directory's. */
  plugins: PluginConfig[];
  /** The list's own bytes, unchanged (drop-in plugins are not in them). */
  bytes: Uint8Array;
}
