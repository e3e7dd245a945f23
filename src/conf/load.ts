/**
 * Finding a network by name in a configuration directory (upstream `LoadConf`,
 * `LoadNetworkConf`, `LoadConfList`).
 */
import { compareUTF8 } from "../encoding/json.js";
import { ConfFileError, NoConfigsFoundError, NotFoundError } from "./errors.js";
import { confFiles, confFromFile, networkConfFromFile } from "./files.js";
import { confListFromConf } from "./inject.js";
import type { NetworkConfigList, PluginConfig } from "./types.js";

// Go's sort.Strings: byte order.
const sorted = (files: string[]): string[] => files.sort(compareUTF8);

/**
 * Finds the single-plugin file (`.conf` or `.json`) of network `name` in `dir`: files in name
 * order, the first whose `name` matches wins.
 *
 * Like upstream, a file that fails to load aborts the search, even when it is another
 * network's; unlike upstream, the error names that file (a ConfFileError).
 *
 * @deprecated single-plugin files are a legacy format; use loadNetworkConf
 * @throws NoConfigsFoundError when `dir` has no such file (or does not exist);
 *   NotFoundError when none is named `name`; ConfFileError for a broken file.
 */
export async function loadConf(dir: string, name: string): Promise<PluginConfig> {
  const files = sorted(await confFiles(dir, [".conf", ".json"]));
  if (files.length === 0) throw new NoConfigsFoundError(dir);
  for (const file of files) {
    let conf: PluginConfig;
    try {
      conf = await confFromFile(file);
    } catch (error) {
      throw ConfFileError.wrap(file, error);
    }
    if (conf.network.name === name) return conf;
  }
  throw new NotFoundError(dir, name);
}

/**
 * Finds network `name` in `dir`: first the `.conflist` files in name order (each with its
 * drop-in plugin directory), the first whose `name` matches winning; then, for older setups,
 * the single-plugin `.conf`/`.json` files, the match upconverted to a one-plugin list.
 *
 * Like upstream, a file that fails to load aborts the search, even when it is another
 * network's; unlike upstream, the error names that file (a ConfFileError).
 *
 * @throws NoConfigsFoundError when `dir` holds no configuration at all (or does not exist);
 *   NotFoundError when no configuration is named `name`; ConfFileError for a broken file.
 */
export async function loadNetworkConf(dir: string, name: string): Promise<NetworkConfigList> {
  const files = sorted(await confFiles(dir, [".conflist"]));
  for (const file of files) {
    let conf: NetworkConfigList;
    try {
      conf = await networkConfFromFile(file);
    } catch (error) {
      throw ConfFileError.wrap(file, error);
    }
    if (conf.name === name) return conf;
  }
  let single: PluginConfig;
  try {
    single = await loadConf(dir, name);
  } catch (error) {
    // Lists were found, just none of them (and no single file) is this network.
    if (files.length !== 0 && error instanceof NoConfigsFoundError) {
      throw new NotFoundError(dir, name);
    }
    throw error;
  }
  return confListFromConf(single);
}

/** Upstream's other name of {@link loadNetworkConf} (`LoadConfList`). */
export function loadConfList(dir: string, name: string): Promise<NetworkConfigList> {
  return loadNetworkConf(dir, name);
}
