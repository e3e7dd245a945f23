/**
 * Configuration loading (upstream `libcni/conf.go`): parsing conflists and single plugin
 * configs, discovering them in a directory, and injecting keys.
 * @module
 */
export type { ConfInput } from "./bytes.js";
export {
  confFiles,
  confFromFile,
  confListFromFile,
  networkConfFromFile,
  networkPluginConfsFromFiles,
} from "./files.js";
export { confListFromConf, injectConf } from "./inject.js";
export { type LintFinding, type LintResult, type LintSeverity, lintNetworkList } from "./lint.js";
export { confListFromBytes, networkConfFromBytes } from "./list.js";
export { loadConf, loadConfList, loadNetworkConf } from "./load.js";
export { confFromBytes, networkPluginConfFromBytes } from "./plugin.js";
export type { NetworkConfig, NetworkConfigList, PluginConfig } from "./types.js";
