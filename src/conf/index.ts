/**
 * Configuration loading (upstream `libcni/conf.go`): parsing conflists and single plugin
 * configs, discovering them in a directory, and injecting keys.
 *
 * The functions that read the disk are defined here and load their body (files.ts, load.ts and
 * the file-read engine under them) on their first call, so that importing the parsers and the
 * linter, which are synchronous, does not load it.
 * @module
 */
import type { NetworkConfigList, PluginConfig } from "./types.js";

export type { ConfInput } from "./bytes.js";
export { confListFromConf, injectConf } from "./inject.js";
export { type LintFinding, type LintResult, type LintSeverity, lintNetworkList } from "./lint.js";
export { confListFromBytes, networkConfFromBytes } from "./list.js";
export { confFromBytes, networkPluginConfFromBytes } from "./plugin.js";
export type { NetworkConfig, NetworkConfigList, PluginConfig } from "./types.js";

/** `load`, called once: import() of a module already loaded still costs a loader round trip. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
}

const files = once(() => import("./files.js"));
const load = once(() => import("./load.js"));

/**
 * Lists the files of `dir` whose extension (from the last dot, case-sensitive) is one of
 * `extensions`, as full paths sorted by name. Directories are skipped (a symlink is not a
 * directory here, as in Go); subdirectories are not searched. A missing directory gives an
 * empty list, not an error.
 *
 * @throws ConfError with Go's OS error text (`open <dir>: permission denied`) for any other
 *   failure to read the directory.
 */
export async function confFiles(dir: string, extensions: readonly string[]): Promise<string[]> {
  return (await files()).confFiles(dir, extensions);
}

/**
 * Loads a network's drop-in plugins: every `<networkConfPath>/<networkName>/*.conf`, sorted,
 * each parsed as a single plugin with its bytes as read. A missing directory gives none.
 *
 * @throws ConfError when `networkName` is not a single path component (upstream would read
 *   outside the directory, or every `.conf` in it); `failed to read plugin config files in
 *   <dir>: <Go path error>` when the directory cannot be listed; a ConfFileError naming the
 *   file when one cannot be read or parsed.
 */
export async function networkPluginConfsFromFiles(
  networkConfPath: string,
  networkName: string,
): Promise<PluginConfig[]> {
  return (await files()).networkPluginConfsFromFiles(networkConfPath, networkName);
}

/**
 * Loads a network configuration list from a file: the list's own plugins, then (unless
 * `loadOnlyInlinedPlugins`) those of the drop-in directory `<dir of file>/<name>/*.conf`. A
 * network whose name is not a single path component has no drop-in directory. `bytes` is the
 * file's content only.
 *
 * @throws ConfError: `error reading <file>: ...`, the parse errors of `networkConfFromBytes`,
 *   the drop-in directory's errors, or `no plugin configs found` when the network ends up with
 *   no plugin at all.
 */
export async function networkConfFromFile(filename: string): Promise<NetworkConfigList> {
  return (await files()).networkConfFromFileIn(filename, undefined);
}

/** Upstream's older name of {@link networkConfFromFile} (`ConfListFromFile`), kept as is. */
export function confListFromFile(filename: string): Promise<NetworkConfigList> {
  return networkConfFromFile(filename);
}

/**
 * Loads a single plugin's configuration file (upstream `ConfFromFile`).
 * @deprecated single-plugin files are a legacy format; use networkConfFromFile
 * @throws ConfError `error reading <file>: ...` or the errors of networkPluginConfFromBytes.
 */
export async function confFromFile(filename: string): Promise<PluginConfig> {
  return (await files()).confFromFile(filename);
}

/**
 * Finds the single-plugin file (`.conf` or `.json`) of network `name` in `dir`: files in name
 * order, the first whose `name` matches wins.
 *
 * Files are read ahead concurrently but examined in order. Like upstream, a file that fails
 * to load before the match aborts the search, even when it is another network's; unlike
 * upstream, the error names that file (a ConfFileError).
 *
 * @deprecated single-plugin files are a legacy format; use loadNetworkConf
 * @throws NoConfigsFoundError when `dir` has no such file (or does not exist);
 *   NotFoundError when none is named `name`; ConfFileError for a broken file.
 */
export async function loadConf(dir: string, name: string): Promise<PluginConfig> {
  return (await load()).loadConf(dir, name);
}

/**
 * Finds network `name` in `dir`: first the `.conflist` files in name order (each with its
 * drop-in plugin directory), the first whose `name` matches winning; then, for older setups,
 * the single-plugin `.conf`/`.json` files, the match upconverted to a one-plugin list.
 *
 * Files are read ahead concurrently but examined in order. Like upstream, a file that fails
 * to load before the match aborts the search, even when it is another network's; unlike
 * upstream, the error names that file (a ConfFileError).
 *
 * @throws NoConfigsFoundError when `dir` holds no configuration at all (or does not exist);
 *   NotFoundError when no configuration is named `name`; ConfFileError for a broken file.
 */
export async function loadNetworkConf(dir: string, name: string): Promise<NetworkConfigList> {
  return (await load()).loadNetworkConf(dir, name);
}

/** Upstream's other name of {@link loadNetworkConf} (`LoadConfList`). */
export function loadConfList(dir: string, name: string): Promise<NetworkConfigList> {
  return loadNetworkConf(dir, name);
}
