/**
 * Network configuration: parsing, discovery and injection, as upstream libcni's conf.go.
 *
 * - Parse: {@link networkConfFromBytes} (a list), {@link networkPluginConfFromBytes} (one plugin).
 * - Read: {@link networkConfFromFile} (a list plus its drop-in plugin directory),
 *   {@link networkPluginConfsFromFiles}, {@link confFiles}.
 * - Find by name: {@link loadNetworkConf} (lists first, then legacy single-plugin files).
 * - Build a plugin's stdin: {@link injectConf} (bytes identical to Go's).
 *
 * Everything thrown is a {@link ConfError} with upstream's message; {@link NotFoundError} and
 * {@link NoConfigsFoundError} are the two cases a caller usually distinguishes. Where this
 * module departs from upstream (path-safe drop-in lookup, errors naming the broken file) is
 * listed in docs/deviations/conf.md.
 * @module
 */
export type { ConfInput } from "./bytes.js";
export { selectCNIVersion } from "./cni-versions.js";
export {
  ConfError,
  type ConfErrorOptions,
  ConfFileError,
  NoConfigsFoundError,
  NotFoundError,
} from "./errors.js";
export {
  confFiles,
  confFromFile,
  confListFromFile,
  isPathSafeName,
  networkConfFromFile,
  networkPluginConfsFromFiles,
} from "./files.js";
export { confListFromConf, injectConf } from "./inject.js";
export { type LintFinding, type LintResult, type LintSeverity, lintNetworkList } from "./lint.js";
export { confListFromBytes, networkConfFromBytes } from "./list.js";
export { loadConf, loadConfList, loadNetworkConf } from "./load.js";
export { confFromBytes, networkPluginConfFromBytes } from "./plugin.js";
export type { NetworkConfig, NetworkConfigList, PluginConfig } from "./types.js";
