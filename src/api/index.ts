/**
 * The runtime side of CNI (upstream package `libcni`, api.go): {@link CNIConfig} runs a
 * network's plugins for ADD, CHECK, DEL, GC and STATUS and keeps the result cache that Go
 * runtimes on the same host share.
 *
 * Go names map to camelCase (`AddNetworkList` → `addNetworkList`); a `context.Context` is a
 * trailing `{ signal }`; errors are thrown. Where this module departs from upstream is listed
 * in docs/deviations/api.md.
 * @module
 */

export type { NetworkConfig, NetworkConfigList, PluginConfig } from "../conf/index.js";
export {
  CacheDir,
  cacheFilePath,
  type ListOptions,
  listCachedAttachments,
  resultsDir,
} from "./cache.js";
export {
  type CacheRecord,
  type CacheRecordInput,
  CNICacheV1,
  decodeCacheRecord,
  encodeCacheRecord,
} from "./cache-record.js";
export type { CachedConfig } from "./cached-result.js";
export {
  type CallOptions,
  CNIConfig,
  type CNIConfigOptions,
  newCNIConfig,
  newCNIConfigWithCacheDir,
} from "./cni-config.js";
export {
  type ChainVerb,
  CheckNotSupportedError,
  ErrorCheckNotSupp,
  LibcniError,
  MultiError,
  PluginChainError,
  pluginDescription,
} from "./errors.js";
export type { CNIArgPair, GCArgs, NetworkAttachment, RuntimeConf } from "./types.js";
