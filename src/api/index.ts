/**
 * The runtime's API (upstream `libcni/api.go`): {@link CNIConfig} and its verbs, the result
 * cache's constants, and the runtime-side types.
 * @module
 */

export { CacheDir, CNICacheV1 } from "../cache/constants.js";
export type { NetworkConfig, NetworkConfigList, PluginConfig } from "../conf/types.js";
export type { CachedConfig } from "./cached-result.js";
export {
  type CallOptions,
  CNIConfig,
  type CNIConfigOptions,
  type DelOptions,
  newCNIConfig,
  newCNIConfigWithCacheDir,
  type RecordOptions,
} from "./cni-config.js";
export type { CNIArgPair, GCArgs, NetworkAttachment, RuntimeConf } from "./types.js";
