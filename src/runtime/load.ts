/**
 * Loading the networks of a conf dir: every `.conf`, `.conflist` and `.json` file in name
 * order (as go-cni and ocicni), a broken file skipped and reported rather than fatal (go-cni
 * fails the whole load on one bad file), missing plugins reported, the default network first.
 */

import { DuplicateNetworkError, NetworkNotFoundError, NoNetworksError } from "../errors.js";
import {
  confFiles,
  confFromFile,
  confListFromBytes,
  confListFromConf,
  type NetworkConfigList,
  networkConfFromFile,
} from "../index.js";
import { type Exec, findInPath } from "../invoke/index.js";
import type { LoadProblem, Network } from "./types.js";

/** Where the networks come from (the loading half of the runtime's options). */
export interface LoadOptions {
  /** The conf dir; default `/etc/cni/net.d`. */
  confDir?: string;
  /** Plugin directories; default `["/opt/cni/bin"]`. */
  binDirs?: string[];
  /** At most this many files' networks (go-cni `WithPluginMaxConfNum`); 0 or absent: all. */
  maxNetworks?: number;
  /** The default network's name; default: the first file's network. */
  defaultNetwork?: string;
  /** Add the built-in loopback network, attached first as `lo` (go-cni `WithLoNetwork`). */
  loopback?: boolean;
  /** How plugins are found (for the missing-plugin report) and run. */
  exec?: Exec;
}

/** The loaded set: an immutable snapshot the runtime swaps as a whole. */
export interface NetworkSet {
  /** Every network, in attach order: loopback, the default network, then file order. */
  readonly networks: readonly Network[];
  /** The default network (undefined only when the set holds loopback alone). */
  readonly defaultNetwork: Network | undefined;
  /** What was skipped or is incomplete. */
  readonly problems: readonly LoadProblem[];
  /** The network of that name. */
  get(name: string): Network | undefined;
}

export const defaultConfDir = "/etc/cni/net.d";
export const defaultBinDirs: readonly string[] = ["/opt/cni/bin"];
const extensions = [".conf", ".conflist", ".json"];

/** go-cni's WithLoNetwork list, byte for byte. */
const loopbackBytes = `{
"cniVersion": "0.3.1",
"name": "cni-loopback",
"plugins": [{
  "type": "loopback"
}]
}`;

async function loadFile(file: string): Promise<NetworkConfigList> {
  if (file.endsWith(".conflist")) return networkConfFromFile(file);
  const list = confListFromConf(await confFromFile(file));
  if (list.plugins.length === 0) throw new NoNetworksError(file, []);
  return list;
}

async function missingPlugins(
  list: NetworkConfigList,
  binDirs: readonly string[],
  exec: Exec | undefined,
): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const plugin of list.plugins) {
    try {
      await (exec
        ? exec.findInPath(plugin.network.type, binDirs)
        : findInPath(plugin.network.type, binDirs));
    } catch (error) {
      errors.push(error);
    }
  }
  return errors;
}

function makeSet(networks: Network[], problems: LoadProblem[], defaultName?: string): NetworkSet {
  const byName = new Map<string, Network>();
  for (const n of networks) if (!byName.has(n.name)) byName.set(n.name, n);
  const files = networks.filter((n) => !n.loopback);
  const defaultNetwork = defaultName === undefined ? files[0] : byName.get(defaultName);
  // Attach order: loopback, the default network, then the rest in file order.
  const ordered = [
    ...networks.filter((n) => n.loopback),
    ...(defaultNetwork ? [defaultNetwork] : []),
    ...files.filter((n) => n !== defaultNetwork),
  ];
  return {
    networks: ordered,
    defaultNetwork,
    problems,
    get: (name) => byName.get(name),
  };
}

/**
 * Loads the set. A file that fails to parse, or whose network name repeats an earlier file's,
 * is skipped and reported; a network with a plugin missing from `binDirs` is kept and
 * reported (the plugin may be installed later).
 * @throws NoNetworksError when no file gives a network (loopback does not count);
 *   NetworkNotFoundError when `defaultNetwork` names none of them; the conf dir's read error.
 */
export async function loadNetworkSet(options: LoadOptions): Promise<NetworkSet> {
  const confDir = options.confDir ?? defaultConfDir;
  const binDirs = options.binDirs ?? [...defaultBinDirs];
  const problems: LoadProblem[] = [];
  const networks: Network[] = [];
  const seen = new Set<string>();
  const max = options.maxNetworks ?? 0;
  for (const file of await confFiles(confDir, extensions)) {
    if (max > 0 && networks.length >= max) break;
    let config: NetworkConfigList;
    try {
      config = await loadFile(file);
    } catch (error) {
      problems.push({ file, kind: "invalid", error });
      continue;
    }
    if (seen.has(config.name)) {
      problems.push({
        file,
        network: config.name,
        kind: "invalid",
        error: new DuplicateNetworkError(config.name),
      });
      continue;
    }
    seen.add(config.name);
    for (const error of await missingPlugins(config, binDirs, options.exec)) {
      problems.push({ file, network: config.name, kind: "missing-plugin", error });
    }
    networks.push({ name: config.name, config, file, loopback: false });
  }
  if (networks.length === 0) throw new NoNetworksError(confDir, problems);
  if (options.defaultNetwork !== undefined && !seen.has(options.defaultNetwork)) {
    throw new NetworkNotFoundError(options.defaultNetwork);
  }
  if (options.loopback) {
    const config = confListFromBytes(new TextEncoder().encode(loopbackBytes));
    networks.unshift({ name: config.name, config, file: undefined, loopback: true });
  }
  return makeSet(networks, problems, options.defaultNetwork);
}
