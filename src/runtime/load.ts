/**
 * Loading the networks of a conf dir: every `.conf`, `.conflist` and `.json` file in name
 * order (as go-cni and ocicni), a broken file skipped and reported rather than fatal (go-cni
 * fails the whole load on one bad file), missing plugins reported, the default network first.
 */

import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  confFiles,
  confFromFile,
  confListFromBytes,
  confListFromConf,
  type NetworkConfigList,
  networkConfFromFile,
} from "../conf/index.js";
import { InvalidArgumentError } from "../errors/base.js";
import { ConfFileError } from "../errors/conf.js";
import {
  DefaultNetworkNotFoundError,
  DuplicateNetworkError,
  NoNetworksError,
} from "../errors/runtime.js";
import { utf8Encode } from "../internal/bytes.js";
import { errnoCode } from "../internal/errno.js";
import { messageOf } from "../internal/error-message.js";
import { isDirectory } from "../internal/fs.js";
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
  /** The network namespace plugins run in (CNIConfig's `pluginNetns`); not with `exec`. */
  pluginNetns?: string;
}

/** The loaded set: an immutable snapshot the runtime swaps as a whole. */
export interface NetworkSet {
  /** Every network, in attach order: loopback, the default network, then file order. */
  readonly networks: readonly Network[];
  /** The default network (undefined when it is not loaded, or the set holds loopback alone). */
  readonly defaultNetwork: Network | undefined;
  /** What was skipped or is incomplete. */
  readonly problems: readonly LoadProblem[];
  /**
   * Why the set is not ready for a pod that names no networks (the dir missing or unreadable,
   * without a usable network, or without the default one); undefined when ready.
   */
  readonly notReady: NoNetworksError | undefined;
  /** The network of that name. */
  get(name: string): Network | undefined;
}

export const defaultConfDir = "/etc/cni/net.d";
export const defaultBinDirs: readonly string[] = ["/opt/cni/bin"];
/** The conf files the runtime loads, by extension (`.conflist` as a list, the others single). */
const extensions: readonly string[] = [".conf", ".conflist", ".json"];

/** go-cni's WithLoNetwork list, byte for byte, and its name. */
export const loopbackName = "cni-loopback";
const loopbackBytes = `{
"cniVersion": "0.3.1",
"name": "${loopbackName}",
"plugins": [{
  "type": "loopback"
}]
}`;

/** One conf file as the list it reads as: a `.conflist` as a list, the others as one plugin. */
export async function listOfFile(file: string): Promise<NetworkConfigList> {
  return file.endsWith(".conflist")
    ? networkConfFromFile(file)
    : confListFromConf(await confFromFile(file));
}

/** {@link listOfFile} as the runtime loads it: a plugin's file with no plugin is refused. */
export async function loadFile(file: string): Promise<NetworkConfigList> {
  const list = await listOfFile(file);
  if (!file.endsWith(".conflist") && list.plugins.length === 0) throw new NoNetworksError(file, []);
  return list;
}

/** The executables a network runs: each plugin's type, then its IPAM plugin's when it names one. */
export const pluginTypes = (list: NetworkConfigList): string[] =>
  list.plugins.flatMap(({ network: { type, ipam } }) => (ipam?.type ? [type, ipam.type] : [type]));

/** Finds a plugin in `binDirs`, through `exec` when one is given. */
export function findPlugin(
  pluginType: string,
  binDirs: readonly string[],
  exec: Exec | undefined,
): Promise<string> {
  return exec ? exec.findInPath(pluginType, binDirs) : findInPath(pluginType, binDirs);
}

function makeSet(
  networks: Network[],
  problems: LoadProblem[],
  notReady: NoNetworksError | undefined,
  defaultName?: string,
): NetworkSet {
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
  return { networks: ordered, defaultNetwork, problems, notReady, get: (name) => byName.get(name) };
}

/** The reasons that say the conf dir could not be listed (not its absence): see {@link nextSet}. */
const couldNotLook = new WeakSet<NoNetworksError>();

/** The conf dir's files, or why they cannot be listed (a missing dir said as such). */
export async function listConfDir(confDir: string): Promise<string[] | NoNetworksError> {
  try {
    const files = await confFiles(confDir, extensions);
    // confFiles answers a missing dir with no files, as upstream's ConfFiles does.
    if (files.length === 0 && !(await isDirectory(confDir))) {
      return new NoNetworksError(confDir, [], `conf dir ${confDir} does not exist`);
    }
    return files;
  } catch (error) {
    const why = `conf dir ${confDir} cannot be read: ${messageOf(error)}`;
    const reason = new NoNetworksError(confDir, [], why, { cause: error });
    // A path that is not a directory (ENOTDIR) is a dir that is not there; anything else is a
    // failure to look.
    const code = errnoCode((error as { cause?: unknown }).cause) ?? errnoCode(error);
    if (code !== "ENOTDIR") couldNotLook.add(reason);
    return reason;
  }
}

/** Directories of the conf dir whose names end like conf files. */
export async function confNamedDirs(confDir: string): Promise<string[]> {
  const entries = await readdir(confDir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isDirectory() && extensions.some((x) => e.name.endsWith(x)))
    .map((e) => join(confDir, e.name))
    .sort();
}

function assertOptions(options: LoadOptions): void {
  const max = options.maxNetworks;
  if (max !== undefined && (!Number.isSafeInteger(max) || max < 0)) {
    const message = `maxNetworks must be a non-negative integer, got ${max}`;
    throw new InvalidArgumentError("maxNetworks", message);
  }
  for (const key of ["confDir", "defaultNetwork"] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new InvalidArgumentError(key, `${key} must be a non-empty string`);
    }
  }
}

/**
 * Loads the set: a file that fails to parse, or names an earlier file's network, is skipped; a
 * network with a plugin missing is kept (it may be installed later); both are reported. A dir
 * without a usable network gives a set that is not ready, not an error (docs/runtime.md).
 * @throws InvalidArgumentError for bad options only.
 */
export async function loadNetworkSet(options: LoadOptions): Promise<NetworkSet> {
  assertOptions(options);
  const confDir = options.confDir ?? defaultConfDir;
  const binDirs = options.binDirs ?? [...defaultBinDirs];
  const problems: LoadProblem[] = [];
  const networks: Network[] = [];
  const seen = new Set<string>();
  // go-cni's WithLoNetwork: its name is the runtime's, so a file's network of that name is not.
  const loopback = options.loopback ? confListFromBytes(utf8Encode(loopbackBytes)) : undefined;
  const max = options.maxNetworks ?? 0;
  const files = await listConfDir(confDir);
  // Upstream's listing skips directories silently; one named like a conf file is reported.
  for (const dir of files instanceof NoNetworksError ? [] : await confNamedDirs(confDir)) {
    const error = new ConfFileError(dir, `${dir} is a directory, not a conf file`);
    problems.push({ file: dir, kind: "invalid", error });
  }
  for (const file of files instanceof NoNetworksError ? [] : files) {
    if (max > 0 && networks.length >= max) break;
    const config = await loadFile(file).catch((error: unknown) => {
      problems.push({ file, kind: "invalid", error });
    });
    if (config === undefined) continue;
    if (seen.has(config.name) || config.name === loopback?.name) {
      const by = seen.has(config.name) ? undefined : "the runtime's loopback network (loopback)";
      const error = new DuplicateNetworkError(config.name, by);
      problems.push({ file, network: config.name, kind: "invalid", error });
      continue;
    }
    seen.add(config.name);
    for (const type of pluginTypes(config)) {
      try {
        await findPlugin(type, binDirs, options.exec);
      } catch (error) {
        problems.push({ file, network: config.name, kind: "missing-plugin", error });
      }
    }
    networks.push({ name: config.name, config, file, loopback: false });
  }
  let notReady: NoNetworksError | undefined;
  if (files instanceof NoNetworksError) notReady = files;
  else if (networks.length === 0) notReady = new NoNetworksError(confDir, problems);
  else if (options.defaultNetwork !== undefined && !seen.has(options.defaultNetwork)) {
    // The skipped files are named: the default network's may be among them (a broken edit).
    const skipped = problems.filter((p) => p.kind === "invalid");
    notReady = new DefaultNetworkNotFoundError(confDir, options.defaultNetwork, skipped);
  }
  if (loopback) {
    networks.unshift({ name: loopback.name, config: loopback, file: undefined, loopback: true });
  }
  return makeSet(networks, problems, notReady, options.defaultNetwork);
}

/**
 * The set a reload leaves in place: the new one, ready or not, as go-cni's `Load` and ocicni's
 * `syncNetworkConfig` follow their conf dir. One exception, ocicni's: when the dir could not be
 * listed at all (an I/O error, not its absence), nothing was learnt about the networks, so a
 * ready set stays and that reason is thrown.
 * @throws NoNetworksError when a ready set is kept because the dir could not be read.
 */
export function nextSet(current: NetworkSet, loaded: NetworkSet): NetworkSet {
  const reason = loaded.notReady;
  if (reason !== undefined && current.notReady === undefined && couldNotLook.has(reason)) {
    throw reason;
  }
  return loaded;
}
