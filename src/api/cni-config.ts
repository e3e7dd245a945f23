/**
 * `CNIConfig`: runs a network's plugins for ADD, CHECK, DEL, GC and STATUS and keeps the result
 * cache, as upstream libcni's `CNIConfig` (api.go), method for method.
 *
 * What it does beyond upstream, each listed in docs/deviations/api.md:
 * - every verb validates the names that build a cache path before touching a file;
 * - cache records are replaced atomically and durably; a corrupt record is no cache for DEL
 *   and CHECK (with a warning on `NODE_DEBUG=libcni`);
 * - calls on one attachment are serialised in-process, GC of a network excludes ADD, CHECK and
 *   DEL on it;
 * - GC and STATUS report errors upstream swallows (a listing failure, a bad version);
 * - capability lists come back sorted.
 */
import type { NetworkConfigList, PluginConfig } from "../conf/index.js";
import { injectConf } from "../conf/index.js";
import { compareUTF8, RawJSON } from "../encoding/json.js";
import {
  Args,
  defaultExec,
  type Exec,
  execPluginWithoutResult,
  execPluginWithResult,
  getVersionInfo,
} from "../invoke/index.js";
import { type GCAttachment, gcAttachmentToGo, type Result } from "../types/index.js";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "../utils/index.js";
import { greaterThanOrEqualTo, type PluginInfo } from "../version/index.js";
import { buildOneConfig } from "./build-config.js";
import {
  CacheDir,
  cacheFilePath,
  listCachedAttachments,
  removeCacheRecord,
  writeCacheRecord,
} from "./cache.js";
import { encodeCacheRecord } from "./cache-record.js";
import { type CachedConfig, debug, getCachedConfig, getCachedResult } from "./cached-result.js";
import { CheckNotSupportedError, LibcniError, MultiError, PluginChainError } from "./errors.js";
import { lockAttachment, lockNetwork, withLock } from "./lock.js";
import { goQuote } from "./quote.js";
import type { GCArgs, NetworkAttachment, RuntimeConf } from "./types.js";

/** The trailing options of every call (upstream's `context.Context`). */
export interface CallOptions {
  /** Aborting stops the plugin running (its process group) and rejects the call. */
  signal?: AbortSignal;
}

/** How a {@link CNIConfig} finds plugins and where it keeps its cache. */
export interface CNIConfigOptions {
  /** Directories searched for plugin executables, in order (upstream `Path`). */
  path?: string[];
  /**
   * The cache directory (`<cacheDir>/results/...`). Default: the deprecated `cacheDir` of each
   * call's RuntimeConf, else `/var/lib/cni`, as upstream.
   */
  cacheDir?: string;
  /** How plugins are found and run. Default: the shared {@link defaultExec}. */
  exec?: Exec;
  /**
   * fsync each cache record and its directory (default true). Turning it off keeps records
   * atomic (never torn by a crash of this process) but not durable across a power loss.
   */
  durableCache?: boolean;
}

/** The `CNI_*` args of a call (upstream `CNIConfig.args`); GC and STATUS pass an empty rt. */
function argsFor(action: string, rt: Partial<RuntimeConf>, path: readonly string[]): Args {
  return new Args({
    command: action,
    containerID: rt.containerID ?? "",
    netNS: rt.netNS ?? "",
    pluginArgs: rt.args ?? [],
    ifName: rt.ifName ?? "",
    path: path.join(":"),
  });
}

/**
 * Refuses a network name, container ID or interface name that could not have been added
 * (upstream validates them on ADD only). Empty values are left to the cache path's own error,
 * as upstream reports them.
 */
function validateNames(netName: string, rt: RuntimeConf): void {
  const invalid =
    (rt.containerID === "" ? undefined : validateContainerID(rt.containerID)) ??
    (netName === "" ? undefined : validateNetworkName(netName)) ??
    (rt.ifName === "" ? undefined : validateInterfaceName(rt.ifName));
  if (invalid) throw invalid;
}

/**
 * Runs network configurations against plugins (upstream `libcni.CNIConfig`, the `CNI`
 * interface). Every method takes a trailing `{ signal }`.
 */
export class CNIConfig {
  /** Directories searched for plugins, in order (upstream `Path`). */
  path: string[];
  /** The configured cache directory; "" when calls fall back to the RuntimeConf's or the default. */
  readonly cacheDir: string;
  private exec: Exec | undefined;
  private readonly durableCache: boolean;

  constructor(options: CNIConfigOptions = {}) {
    this.path = options.path ?? [];
    this.cacheDir = options.cacheDir ?? "";
    this.exec = options.exec;
    this.durableCache = options.durableCache ?? true;
  }

  private ensureExec(): Exec {
    this.exec ??= defaultExec();
    return this.exec;
  }

  /** Upstream `getCacheDir`: this config's, else the RuntimeConf's (deprecated), else `/var/lib/cni`. */
  private getCacheDir(rt: Partial<RuntimeConf>): string {
    if (this.cacheDir !== "") return this.cacheDir;
    if (rt.cacheDir) return rt.cacheDir;
    return CacheDir;
  }

  private args(action: string, rt: Partial<RuntimeConf>): Args {
    return argsFor(action, rt, this.path);
  }

  private async cacheAdd(
    result: Result | undefined,
    config: Uint8Array,
    netName: string,
    rt: RuntimeConf,
  ): Promise<void> {
    const record = encodeCacheRecord({
      containerId: rt.containerID,
      config,
      ifName: rt.ifName,
      networkName: netName,
      netns: rt.netNS,
      cniArgs: rt.args,
      capabilityArgs: rt.capabilityArgs,
      result,
    });
    const path = cacheFilePath(this.getCacheDir(rt), netName, rt.containerID, rt.ifName);
    await writeCacheRecord(path, record, { durable: this.durableCache });
  }

  private async cacheDel(netName: string, rt: RuntimeConf): Promise<void> {
    let path: string;
    try {
      path = cacheFilePath(this.getCacheDir(rt), netName, rt.containerID, rt.ifName);
    } catch {
      return; // Upstream ignores a path error here.
    }
    await removeCacheRecord(path);
  }

  private async addOne(
    name: string,
    cniVersion: string,
    net: PluginConfig,
    prevResult: Result | undefined,
    rt: RuntimeConf,
    signal: AbortSignal | undefined,
  ): Promise<Result> {
    const exec = this.ensureExec();
    const pluginPath = await exec.findInPath(net.network.type, this.path);
    const invalid =
      validateContainerID(rt.containerID) ??
      validateNetworkName(name) ??
      validateInterfaceName(rt.ifName);
    if (invalid) throw invalid;
    const newConf = buildOneConfig(name, cniVersion, net, prevResult, rt);
    return execPluginWithResult(pluginPath, newConf.bytes, this.args("ADD", rt), exec, { signal });
  }

  private async runOne(
    command: "CHECK" | "DEL",
    name: string,
    cniVersion: string,
    net: PluginConfig,
    prevResult: Result | undefined,
    rt: RuntimeConf,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const exec = this.ensureExec();
    const pluginPath = await exec.findInPath(net.network.type, this.path);
    const newConf = buildOneConfig(name, cniVersion, net, prevResult, rt);
    await execPluginWithoutResult(pluginPath, newConf.bytes, this.args(command, rt), exec, {
      signal,
    });
  }

  /** The cached result DEL passes on: from 0.4.0; a bad record is removed and ignored. */
  private async prevResultForDel(
    netName: string,
    cniVersion: string,
    rt: RuntimeConf,
  ): Promise<Result | undefined> {
    if (!greaterThanOrEqualTo(cniVersion, "0.4.0")) return undefined;
    try {
      return await getCachedResult(this.getCacheDir(rt), netName, cniVersion, rt, {
        tolerateCorrupt: true,
      });
    } catch (error) {
      debug(
        "DEL of %s: ignoring and removing the cached result: %s",
        netName,
        (error as Error).message,
      );
      await this.cacheDel(netName, rt);
      return undefined;
    }
  }

  private async prevResultForCheck(
    netName: string,
    cniVersion: string,
    rt: RuntimeConf,
  ): Promise<Result | undefined> {
    try {
      return await getCachedResult(this.getCacheDir(rt), netName, cniVersion, rt, {
        tolerateCorrupt: true,
      });
    } catch (error) {
      throw new LibcniError(`failed to get network ${goQuote(netName)} cached result`, error);
    }
  }

  private lock(netName: string, rt: RuntimeConf, signal: AbortSignal | undefined) {
    return lockAttachment(this.getCacheDir(rt), netName, rt.containerID, rt.ifName, signal);
  }

  /**
   * ADD: runs the list's plugins in order, each result the next one's `prevResult`, then caches
   * the final result (upstream `AddNetworkList`). Undefined only for a list without plugins.
   * @throws PluginChainError `plugin type="<t>" name="<n>" failed (add): ...` (the cause holds
   *   the plugin's or the validation's error); LibcniError `failed to set network "<n>" cached
   *   result: ...`. Nothing is cached unless every plugin succeeded.
   */
  async addNetworkList(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: CallOptions = {},
  ): Promise<Result | undefined> {
    const { signal } = options;
    return withLock(this.lock(list.name, rt, signal), async () => {
      let result: Result | undefined;
      for (const net of list.plugins) {
        try {
          result = await this.addOne(list.name, list.cniVersion, net, result, rt, signal);
        } catch (error) {
          throw new PluginChainError("add", net.network, error);
        }
      }
      try {
        await this.cacheAdd(result, list.bytes, list.name, rt);
      } catch (error) {
        throw new LibcniError(`failed to set network ${goQuote(list.name)} cached result`, error);
      }
      return result;
    });
  }

  /**
   * CHECK: runs the list's plugins in order with the cached result as `prevResult`, converted
   * to the list's version (upstream `CheckNetworkList`). Does nothing with `disableCheck`.
   * @throws CheckNotSupportedError below 0.4.0 (even with disableCheck, as upstream); a
   *   validation CNIError for a hostile name; LibcniError `failed to get network "<n>" cached
   *   result: ...`; the first plugin error, unwrapped.
   */
  async checkNetworkList(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: CallOptions = {},
  ): Promise<void> {
    const { signal } = options;
    validateNames(list.name, rt);
    if (!greaterThanOrEqualTo(list.cniVersion, "0.4.0"))
      throw new CheckNotSupportedError(list.cniVersion);
    if (list.disableCheck) return;
    await withLock(this.lock(list.name, rt, signal), async () => {
      const cachedResult = await this.prevResultForCheck(list.name, list.cniVersion, rt);
      for (const net of list.plugins) {
        await this.runOne("CHECK", list.name, list.cniVersion, net, cachedResult, rt, signal);
      }
    });
  }

  /** DEL of a list, without taking the attachment lock (GC already holds the network). */
  private async delListUnlocked(
    list: NetworkConfigList,
    rt: RuntimeConf,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const cachedResult = await this.prevResultForDel(list.name, list.cniVersion, rt);
    for (let i = list.plugins.length - 1; i >= 0; i--) {
      const net = list.plugins[i];
      try {
        await this.runOne("DEL", list.name, list.cniVersion, net, cachedResult, rt, signal);
      } catch (error) {
        throw new PluginChainError("delete", net.network, error);
      }
    }
    await this.cacheDel(list.name, rt);
  }

  /**
   * DEL: runs the list's plugins in reverse order with the cached result as `prevResult` (from
   * 0.4.0), then removes the cache record (upstream `DelNetworkList`). A record that cannot be
   * read is removed and the DEL goes on without it. On a plugin error the record is kept, so
   * the DEL can be retried.
   * @throws a validation CNIError for a hostile name; a version parse error;
   *   PluginChainError `plugin type="<t>" name="<n>" failed (delete): ...`.
   */
  async delNetworkList(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: CallOptions = {},
  ): Promise<void> {
    const { signal } = options;
    validateNames(list.name, rt);
    await withLock(this.lock(list.name, rt, signal), () => this.delListUnlocked(list, rt, signal));
  }

  /**
   * ADD of a single plugin configuration (upstream `AddNetwork`); errors are not wrapped.
   * @throws the plugin's or the validation's error; LibcniError `failed to set network ...`.
   */
  async addNetwork(net: PluginConfig, rt: RuntimeConf, options: CallOptions = {}): Promise<Result> {
    const { signal } = options;
    const { name, cniVersion } = net.network;
    return withLock(this.lock(name, rt, signal), async () => {
      const result = await this.addOne(name, cniVersion, net, undefined, rt, signal);
      try {
        await this.cacheAdd(result, net.bytes, name, rt);
      } catch (error) {
        throw new LibcniError(`failed to set network ${goQuote(name)} cached result`, error);
      }
      return result;
    });
  }

  /**
   * CHECK of a single plugin configuration (upstream `CheckNetwork`; it has no disableCheck).
   * @throws as {@link CNIConfig.checkNetworkList}.
   */
  async checkNetwork(net: PluginConfig, rt: RuntimeConf, options: CallOptions = {}): Promise<void> {
    const { signal } = options;
    const { name, cniVersion } = net.network;
    validateNames(name, rt);
    if (!greaterThanOrEqualTo(cniVersion, "0.4.0")) throw new CheckNotSupportedError(cniVersion);
    await withLock(this.lock(name, rt, signal), async () => {
      const cachedResult = await this.prevResultForCheck(name, cniVersion, rt);
      await this.runOne("CHECK", name, cniVersion, net, cachedResult, rt, signal);
    });
  }

  /**
   * DEL of a single plugin configuration (upstream `DelNetwork`); the plugin's error is not
   * wrapped. Cache handling as {@link CNIConfig.delNetworkList}.
   */
  async delNetwork(net: PluginConfig, rt: RuntimeConf, options: CallOptions = {}): Promise<void> {
    const { signal } = options;
    const { name, cniVersion } = net.network;
    validateNames(name, rt);
    await withLock(this.lock(name, rt, signal), async () => {
      const cachedResult = await this.prevResultForDel(name, cniVersion, rt);
      await this.runOne("DEL", name, cniVersion, net, cachedResult, rt, signal);
      await this.cacheDel(name, rt);
    });
  }

  /**
   * The result the last ADD of the list cached for the attachment, converted to the list's
   * version; undefined when there is none (upstream `GetNetworkListCachedResult`).
   */
  async getNetworkListCachedResult(
    list: NetworkConfigList,
    rt: RuntimeConf,
  ): Promise<Result | undefined> {
    return getCachedResult(this.getCacheDir(rt), list.name, list.cniVersion, rt);
  }

  /** As {@link CNIConfig.getNetworkListCachedResult}, for a single plugin configuration. */
  async getNetworkCachedResult(net: PluginConfig, rt: RuntimeConf): Promise<Result | undefined> {
    return getCachedResult(this.getCacheDir(rt), net.network.name, net.network.cniVersion, rt);
  }

  /**
   * The configuration bytes the last ADD cached for the attachment, and a copy of `rt` with
   * the cached `args` and `capabilityArgs`; undefined when there is no record (upstream
   * `GetNetworkListCachedConfig`).
   */
  async getNetworkListCachedConfig(
    list: NetworkConfigList,
    rt: RuntimeConf,
  ): Promise<CachedConfig | undefined> {
    return getCachedConfig(this.getCacheDir(rt), list.name, rt);
  }

  /** As {@link CNIConfig.getNetworkListCachedConfig}, for a single plugin configuration. */
  async getNetworkCachedConfig(
    net: PluginConfig,
    rt: RuntimeConf,
  ): Promise<CachedConfig | undefined> {
    return getCachedConfig(this.getCacheDir(rt), net.network.name, rt);
  }

  /**
   * The attachments in the cache, all or those of one container, sorted by record name
   * (upstream `GetCachedAttachments`). The options are accepted for symmetry; reading is local.
   */
  async getCachedAttachments(
    containerID: string,
    _options: CallOptions = {},
  ): Promise<NetworkAttachment[]> {
    return listCachedAttachments(this.getCacheDir({}), containerID);
  }

  private async validatePlugin(
    pluginName: string,
    expectedVersion: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const exec = this.ensureExec();
    const pluginPath = await exec.findInPath(pluginName, this.path);
    const wanted = expectedVersion === "" ? "0.1.0" : expectedVersion;
    const info = await getVersionInfo(pluginPath, exec, { signal });
    if (!info.supportedVersions().includes(wanted)) {
      throw new Error(`plugin ${pluginName} does not support config version ${goQuote(wanted)}`);
    }
  }

  /**
   * Checks that every plugin of the list exists and supports the list's version, and returns
   * the capabilities the plugins declare, sorted (upstream `ValidateNetworkList`, whose order is
   * random).
   * @throws MultiError `[<error> <error> ...]` with every plugin's error.
   */
  async validateNetworkList(list: NetworkConfigList, options: CallOptions = {}): Promise<string[]> {
    const errors: unknown[] = [];
    const caps = new Set<string>();
    for (const net of list.plugins) {
      try {
        await this.validatePlugin(net.network.type, list.cniVersion, options.signal);
      } catch (error) {
        errors.push(error);
      }
      for (const [cap, enabled] of Object.entries(net.network.capabilities ?? {})) {
        if (enabled) caps.add(cap);
      }
    }
    if (errors.length > 0) throw new MultiError(errors, "list");
    return [...caps].sort(compareUTF8);
  }

  /**
   * As {@link CNIConfig.validateNetworkList} for one plugin configuration (upstream
   * `ValidateNetwork`); its error is thrown as is.
   */
  async validateNetwork(net: PluginConfig, options: CallOptions = {}): Promise<string[]> {
    const caps = Object.entries(net.network.capabilities ?? {})
      .filter(([, enabled]) => enabled)
      .map(([cap]) => cap)
      .sort(compareUTF8);
    await this.validatePlugin(net.network.type, net.network.cniVersion, options.signal);
    return caps;
  }

  /** The versions a plugin supports, from its VERSION command (upstream `GetVersionInfo`). */
  async getVersionInfo(pluginType: string, options: CallOptions = {}): Promise<PluginInfo> {
    const exec = this.ensureExec();
    const pluginPath = await exec.findInPath(pluginType, this.path);
    return getVersionInfo(pluginPath, exec, { signal: options.signal });
  }

  private async runWithoutAttachment(
    command: "GC" | "STATUS",
    conf: PluginConfig,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const exec = this.ensureExec();
    const pluginPath = await exec.findInPath(conf.network.type, this.path);
    await execPluginWithoutResult(pluginPath, conf.bytes, this.args(command, {}), exec, { signal });
  }

  /**
   * GC (upstream `GCNetworkList`): every cached attachment of the network not in
   * `args.validAttachments` (all of them without args) is deleted with its cached netns, args
   * and capability args; then, from 1.1.0, each plugin gets GC with the valid attachments
   * (`cni.dev/valid-attachments`, and `cni.dev/attachments` as upstream). Nothing with
   * `disableGC`. Runs exclusively of ADD, CHECK and DEL on the network.
   * @throws a validation CNIError for an invalid network name; MultiError of every failure,
   *   one per line, after trying everything.
   */
  async gcNetworkList(
    list: NetworkConfigList,
    args?: GCArgs,
    options: CallOptions = {},
  ): Promise<void> {
    const { signal } = options;
    if (list.disableGC) return;
    const invalid = validateNetworkName(list.name);
    if (invalid) throw invalid;
    const cacheDir = this.getCacheDir({});
    await withLock(lockNetwork(cacheDir, list.name, signal), async () => {
      const errors: unknown[] = [];
      await this.deleteStale(list, args, signal, errors);
      await this.gcPlugins(list, args, signal, errors);
      if (errors.length > 0) throw new MultiError(errors, "lines");
    });
  }

  private async deleteStale(
    list: NetworkConfigList,
    args: GCArgs | undefined,
    signal: AbortSignal | undefined,
    errors: unknown[],
  ): Promise<void> {
    let attachments: NetworkAttachment[];
    try {
      attachments = await listCachedAttachments(this.getCacheDir({}), "", { sweep: true });
    } catch (error) {
      // Upstream returns success here without GC-ing anything; the plugins' GC still runs.
      errors.push(new LibcniError("failed to list cached attachments", error));
      return;
    }
    const valid =
      args === undefined
        ? undefined
        : new Set((args.validAttachments ?? []).map((a) => `${a.containerID}\0${a.ifname}`));
    for (const attachment of attachments) {
      if (attachment.network !== list.name) continue;
      if (valid?.has(`${attachment.containerID}\0${attachment.ifName}`)) continue;
      const rt: RuntimeConf = {
        containerID: attachment.containerID,
        netNS: attachment.netNS,
        ifName: attachment.ifName,
        args: attachment.cniArgs,
        capabilityArgs: attachment.capabilityArgs,
      };
      try {
        validateNames(list.name, rt);
        await this.delListUnlocked(list, rt, signal);
      } catch (error) {
        errors.push(
          new LibcniError(
            `failed to delete stale attachment ${rt.containerID} ${rt.ifName}`,
            error,
          ),
        );
      }
    }
  }

  private async gcPlugins(
    list: NetworkConfigList,
    args: GCArgs | undefined,
    signal: AbortSignal | undefined,
    errors: unknown[],
  ): Promise<void> {
    let supported: boolean;
    try {
      supported = greaterThanOrEqualTo(list.cniVersion, "1.1.0");
    } catch (error) {
      // Upstream skips the plugins' GC silently on a bad version.
      errors.push(error);
      return;
    }
    if (!supported) return;
    const inject: Record<string, unknown> = { name: list.name, cniVersion: list.cniVersion };
    if (args !== undefined) {
      // Go injects the slice even when nil: it is written as null (injectConf refuses a bare null).
      const valid: unknown =
        args.validAttachments === undefined
          ? new RawJSON("null")
          : args.validAttachments.map((a: GCAttachment) => gcAttachmentToGo(a));
      inject["cni.dev/valid-attachments"] = valid;
      // #1101: the spec named the key wrongly; upstream sends both.
      inject["cni.dev/attachments"] = valid;
    }
    for (const plugin of list.plugins) {
      let conf: PluginConfig;
      try {
        conf = injectConf(plugin, inject);
      } catch (error) {
        errors.push(
          new LibcniError(
            `failed to generate configuration to GC plugin ${plugin.network.type}`,
            error,
          ),
        );
        continue;
      }
      try {
        await this.runWithoutAttachment("GC", conf, signal);
      } catch (error) {
        errors.push(new LibcniError(`failed to GC plugin ${plugin.network.type}`, error));
      }
    }
  }

  /**
   * STATUS (upstream `GetStatusNetworkList`): from 1.1.0, each plugin in order; the first error
   * is thrown as the plugin reported it (a CNIError with its code, e.g. 50). Below 1.1.0 it
   * succeeds without running anything, as upstream.
   * @throws the version's parse error (upstream ignores it and reports success).
   */
  async getStatusNetworkList(list: NetworkConfigList, options: CallOptions = {}): Promise<void> {
    if (!greaterThanOrEqualTo(list.cniVersion, "1.1.0")) return;
    const inject = { name: list.name, cniVersion: list.cniVersion };
    for (const plugin of list.plugins) {
      let conf: PluginConfig;
      try {
        conf = injectConf(plugin, inject);
      } catch (error) {
        throw new LibcniError(
          `failed to generate configuration to get plugin STATUS ${plugin.network.type}`,
          error,
        );
      }
      await this.runWithoutAttachment("STATUS", conf, options.signal);
    }
  }
}

/** Upstream `NewCNIConfig`: a CNIConfig over `path` with `exec` (default: plugins from disk). */
export function newCNIConfig(path: string[], exec?: Exec): CNIConfig {
  return new CNIConfig({ path, exec });
}

/** Upstream `NewCNIConfigWithCacheDir`: as {@link newCNIConfig}, with a cache directory. */
export function newCNIConfigWithCacheDir(path: string[], cacheDir: string, exec?: Exec): CNIConfig {
  return new CNIConfig({ path, cacheDir, exec });
}
