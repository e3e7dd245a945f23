/**
 * `CNIConfig`: runs a network's plugins for ADD, CHECK, DEL, GC and STATUS and keeps the result
 * cache, as upstream libcni's `CNIConfig` (api.go), method for method.
 *
 * The class holds the options, checked when the config is made; the verbs' body (cni-engine.ts,
 * with the invoke, cache and result layers under it) is loaded on the first call of a verb, so
 * that `import "libcni"` stays light.
 */
import type { NetworkConfigList, PluginConfig } from "../conf/types.js";
import { InvalidArgumentError } from "../errors/base.js";
import type { Exec } from "../invoke/exec.js";
import { netnsOption } from "../invoke/netns-option.js";
import type { Result } from "../types/result.js";
import type { PluginInfo } from "../version/plugin-info.js";
import { assertConfigOptions, listChain, singleChain } from "./assert-args.js";
import type { CachedConfig } from "./cached-result.js";
import type { CallOptions, CNIConfigOptions, DelOptions, RecordOptions } from "./call-options.js";
import type { CNIConfigEngine } from "./cni-engine.js";
import { traceVerbs } from "./trace-verbs.js";
import type { GCArgs, NetworkAttachment, RuntimeConf } from "./types.js";

export type { CallOptions, CNIConfigOptions, DelOptions, RecordOptions } from "./call-options.js";

/**
 * Runs network configurations against plugins (upstream `libcni.CNIConfig`, the `CNI`
 * interface). Every method takes a trailing `{ signal }`.
 */
export class CNIConfig {
  /** Directories searched for plugins, in order (upstream `Path`). */
  path: string[];
  /** The configured cache directory; "" when calls fall back to the RuntimeConf's or the default. */
  readonly cacheDir: string;
  /** The options, `pluginNetns` checked and made absolute here (against the cwd of now). */
  private readonly settings: CNIConfigOptions;
  /** The verbs' body, loaded and made on the first call (one per config), as a paced step. */
  private verbs: Promise<() => Promise<CNIConfigEngine>> | undefined;

  constructor(options: CNIConfigOptions = {}) {
    assertConfigOptions(options);
    this.path = options.path ?? [];
    this.cacheDir = options.cacheDir ?? "";
    if (options.pluginNetns !== undefined && options.exec !== undefined) {
      throw new InvalidArgumentError(
        "pluginNetns",
        "CNIConfig options exec and pluginNetns do not go together: give the Exec its netns",
      );
    }
    this.settings = {
      exec: options.exec,
      pluginNetns: netnsOption(options.pluginNetns),
      durableCache: options.durableCache ?? true,
    };
  }

  /**
   * The verbs' body and the pacer, loaded by the first call (dynamic imports, once per
   * process), the body then handed out as a paced step: a call's synchronous work (its checks,
   * its stdin, its plugin's start) runs while the turn's budget lasts, so a burst of calls
   * started in one turn is spread over turns instead of holding the caller's (internal/pacer.ts).
   */
  private async engine(): Promise<CNIConfigEngine> {
    this.verbs ??= Promise.all([import("./cni-engine.js"), import("../internal/pacer.js")]).then(
      ([{ CNIConfigEngine }, { paced }]) => {
        const engine = new CNIConfigEngine(() => this.path, this.cacheDir, this.settings);
        return () => paced(() => engine);
      },
    );
    return (await this.verbs)();
  }

  /**
   * ADD: runs the list's plugins in order, each result the next one's `prevResult`, then caches
   * the final result (upstream `AddNetworkList`). Undefined only for a list without plugins.
   * @throws PluginChainError `plugin type="<t>" name="<n>" failed (add): ...` (the cause holds
   *   the plugin's or the validation's error); CacheWriteError `failed to set network "<n>"
   *   cached result: ... (the plugins succeeded: ...)` when every plugin succeeded but the
   *   record could not be written (the attachment is up: DEL it). Nothing is cached unless
   *   every plugin succeeded.
   */
  async addNetworkList(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: CallOptions = {},
  ): Promise<Result | undefined> {
    return (await this.engine()).add(listChain(list), rt, options);
  }

  /**
   * ADD of a single plugin configuration (upstream `AddNetwork`); errors are not wrapped.
   * @throws the plugin's or the validation's error; CacheWriteError `failed to set network ...`.
   */
  async addNetwork(net: PluginConfig, rt: RuntimeConf, options: CallOptions = {}): Promise<Result> {
    return (await this.engine()).add(singleChain(net), rt, options) as Promise<Result>;
  }

  /**
   * CHECK: runs the list's plugins in order with the cached result as `prevResult`, converted
   * to the list's version (upstream `CheckNetworkList`). Does nothing with `disableCheck`.
   * @throws CheckNotSupportedError below 0.4.0 (even with disableCheck, as upstream); a
   *   validation CNIError for a hostile name; WrappedError `failed to get network "<n>" cached
   *   result: ...`; the first plugin error, unwrapped.
   */
  async checkNetworkList(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: RecordOptions = {},
  ): Promise<void> {
    return (await this.engine()).check(listChain(list), rt, options);
  }

  /**
   * CHECK of a single plugin configuration (upstream `CheckNetwork`; it has no disableCheck).
   * @throws as {@link CNIConfig.checkNetworkList}.
   */
  async checkNetwork(
    net: PluginConfig,
    rt: RuntimeConf,
    options: RecordOptions = {},
  ): Promise<void> {
    return (await this.engine()).check(singleChain(net), rt, options);
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
    options: DelOptions = {},
  ): Promise<void> {
    return (await this.engine()).del(listChain(list), rt, options);
  }

  /**
   * DEL of a single plugin configuration (upstream `DelNetwork`); the plugin's error is not
   * wrapped. Cache handling as {@link CNIConfig.delNetworkList}.
   */
  async delNetwork(net: PluginConfig, rt: RuntimeConf, options: DelOptions = {}): Promise<void> {
    return (await this.engine()).del(singleChain(net), rt, options);
  }

  /**
   * The result the last ADD of the list cached for the attachment, converted to the list's
   * version; undefined when there is none (upstream `GetNetworkListCachedResult`).
   */
  async getNetworkListCachedResult(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: RecordOptions = {},
  ): Promise<Result | undefined> {
    return (await this.engine()).cachedResult(listChain(list), rt, options);
  }

  /** As {@link CNIConfig.getNetworkListCachedResult}, for a single plugin configuration. */
  async getNetworkCachedResult(
    net: PluginConfig,
    rt: RuntimeConf,
    options: RecordOptions = {},
  ): Promise<Result | undefined> {
    return (await this.engine()).cachedResult(singleChain(net), rt, options);
  }

  /**
   * The configuration bytes the last ADD cached for the attachment, and a copy of `rt` with
   * the cached `args` and `capabilityArgs`; undefined when there is no record (upstream
   * `GetNetworkListCachedConfig`).
   */
  async getNetworkListCachedConfig(
    list: NetworkConfigList,
    rt: RuntimeConf,
    options: CallOptions = {},
  ): Promise<CachedConfig | undefined> {
    return (await this.engine()).cachedConfig(listChain(list), rt, options);
  }

  /** As {@link CNIConfig.getNetworkListCachedConfig}, for a single plugin configuration. */
  async getNetworkCachedConfig(
    net: PluginConfig,
    rt: RuntimeConf,
    options: CallOptions = {},
  ): Promise<CachedConfig | undefined> {
    return (await this.engine()).cachedConfig(singleChain(net), rt, options);
  }

  /**
   * The attachments in the cache, sorted by record name (upstream `GetCachedAttachments`):
   * those of `containerID`, or with `""` every container's, of every network (what a GC
   * lists). Records that cannot be decoded are skipped, as upstream's. The options are accepted
   * for symmetry; reading is local.
   */
  async getCachedAttachments(
    containerID: string,
    _options: CallOptions = {},
  ): Promise<NetworkAttachment[]> {
    return (await this.engine()).getCachedAttachments(containerID);
  }

  /**
   * Checks that every plugin of the list exists and supports the list's version, and returns
   * the capabilities the plugins declare, sorted (upstream `ValidateNetworkList`, whose order is
   * random).
   * @throws MultiError `[<error> <error> ...]` with every plugin's error.
   */
  async validateNetworkList(list: NetworkConfigList, options: CallOptions = {}): Promise<string[]> {
    return (await this.engine()).validate(listChain(list), options);
  }

  /**
   * As {@link CNIConfig.validateNetworkList} for one plugin configuration (upstream
   * `ValidateNetwork`); its error is thrown as is.
   */
  async validateNetwork(net: PluginConfig, options: CallOptions = {}): Promise<string[]> {
    return (await this.engine()).validate(singleChain(net), options);
  }

  /** The versions a plugin supports, from its VERSION command (upstream `GetVersionInfo`). */
  async getVersionInfo(pluginType: string, options: CallOptions = {}): Promise<PluginInfo> {
    return (await this.engine()).getVersionInfo(pluginType, options);
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
    return (await this.engine()).gcNetworkList(list, args, options);
  }

  /**
   * STATUS (upstream `GetStatusNetworkList`): from 1.1.0, each plugin in order; the first error
   * is thrown as the plugin reported it (a CNIError with its code, e.g. 50). Below 1.1.0 it
   * succeeds without running anything, as upstream.
   * @throws the version's parse error (upstream ignores it and reports success).
   */
  async getStatusNetworkList(list: NetworkConfigList, options: CallOptions = {}): Promise<void> {
    return (await this.engine()).getStatusNetworkList(list, options);
  }
}

// libcni:verb and the NODE_DEBUG verb lines, kept out of the verbs' bodies (trace-verbs.ts).
traceVerbs(CNIConfig.prototype);

/** Upstream `NewCNIConfig`: a CNIConfig over `path` with `exec` (default: plugins from disk). */
export function newCNIConfig(path: string[], exec?: Exec): CNIConfig {
  return new CNIConfig({ path, exec });
}

/** Upstream `NewCNIConfigWithCacheDir`: as {@link newCNIConfig}, with a cache directory. */
export function newCNIConfigWithCacheDir(path: string[], cacheDir: string, exec?: Exec): CNIConfig {
  return new CNIConfig({ path, cacheDir, exec });
}
