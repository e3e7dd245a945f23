/**
 * The body of `CNIConfig` (cni-config.ts), loaded on the first call of a verb so that
 * `import "libcni"` does not load the invoke, cache and result layers before a call needs them:
 * upstream libcni's `CNIConfig` (api.go), method for method, with what it does beyond upstream
 * (names validated before any file, atomic durable records, in-process locks, errors upstream
 * swallows, sorted capabilities) listed in docs/deviations/api.md.
 */

import { validateNames } from "../cache/names.js";
import {
  CacheDir,
  listCachedAttachments,
  removeCacheRecord,
  writeCacheRecord,
} from "../cache/results.js";
import { injectConf, type NetworkConfigList, type PluginConfig } from "../conf/index.js";
import { compareUTF8 } from "../encoding/json.js";
import { CheckNotSupportedError, MultiError } from "../errors/api.js";
import { WrappedError, wrongTypeError } from "../errors/base.js";
import { CacheWriteError } from "../errors/cache.js";
import { debug } from "../internal/diagnostics.js";
import { attempt } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { DefaultExec } from "../invoke/index.js";
import type { Result } from "../types/index.js";
import { validateNetworkName } from "../utils/index.js";
import { assertString } from "../utils/validate.js";
import { greaterThanOrEqualTo, type PluginInfo } from "../version/index.js";
import { assertGCArgs, assertNetworkList, type Chain, chainOf } from "./assert-args.js";
import { Attachment } from "./attachment.js";
import { getCachedConfig, getCachedResult } from "./cached-result.js";
import type { CallOptions, CNIConfigOptions, DelOptions, RecordOptions } from "./call-options.js";
import { pluginChainError } from "./errors.js";
import { collectGarbage } from "./gc.js";
import { lockNetwork, withLock } from "./lock.js";
import { PluginRunner } from "./runner.js";
import { collectedList } from "./trace-verbs.js";
import type { GCArgs, NetworkAttachment, RuntimeConf } from "./types.js";
import { cacheRecordBytes } from "./verb-documents.js";

/**
 * The verbs of one `CNIConfig`, made on its first call: each method is the body of the class's
 * method of that name, or of its list and single-plugin pair (`add`: `addNetworkList` and
 * `addNetwork`) on the {@link Chain} made of the argument. `paths` reads the config's `path`.
 */
export class CNIConfigEngine {
  private readonly runner: PluginRunner;

  constructor(
    paths: () => string[],
    /** The configured cache directory; "" when calls fall back to the RuntimeConf's or the default. */
    private readonly cacheDir: string,
    /** The config's options, `pluginNetns` resolved: plugins run in it through a `DefaultExec`. */
    private readonly settings: CNIConfigOptions,
  ) {
    const { exec, pluginNetns } = settings;
    this.runner = new PluginRunner(
      paths,
      pluginNetns === undefined ? exec : new DefaultExec({ netns: pluginNetns }),
    );
  }

  /** Upstream `getCacheDir` of a call without a RuntimeConf (GC, the attachment listing). */
  private cacheDirWithoutRt(): string {
    return this.cacheDir !== "" ? this.cacheDir : CacheDir;
  }

  private async cacheAdd(at: Attachment, result: Result | undefined, config: Uint8Array) {
    const { rt } = at;
    const record = await cacheRecordBytes(
      {
        containerId: rt.containerID,
        config,
        ifName: rt.ifName,
        networkName: at.network,
        netns: rt.netNS,
        cniArgs: rt.args,
        capabilityArgs: rt.capabilityArgs,
      },
      result,
    );
    await writeCacheRecord(at.recordPath(), record, { durable: this.settings.durableCache });
  }

  private async cacheDel(at: Attachment, strict = false): Promise<void> {
    const path = attempt(() => at.recordPath());
    if (path === undefined) return; // Upstream ignores a path error here.
    await removeCacheRecord(path, { strict });
  }

  /** The cached result DEL passes on: from 0.4.0; a bad record is removed and ignored. */
  private async prevResultForDel(
    at: Attachment,
    cniVersion: string,
    { signal, cachedRecord }: DelOptions,
  ): Promise<Result | undefined> {
    if (!greaterThanOrEqualTo(cniVersion, "0.4.0")) return undefined;
    // Read as a bad record, another type would have the record removed and DEL run without it.
    if (cachedRecord !== undefined && !(cachedRecord instanceof Uint8Array))
      throw wrongTypeError("options.cachedRecord", "a Uint8Array", cachedRecord);
    return getCachedResult(at, cniVersion, {
      tolerateCorrupt: true,
      // Upstream removes a record it cannot use before running the plugins.
      onCorrupt: () => this.cacheDel(at),
      signal,
      bytes: cachedRecord,
    }).catch(async (error: unknown) => {
      if (signal?.aborted && error === signal.reason) throw error;
      debug(
        "DEL of %s: ignoring and removing the cached result: %s",
        at.network,
        (error as Error).message,
      );
      await this.cacheDel(at);
      return undefined;
    });
  }

  add(chain: Chain, rt: RuntimeConf, options: CallOptions): Promise<Result | undefined> {
    const at = new Attachment(this.cacheDir, chain.name, rt);
    return withLock(at.lock(options.signal), async () => {
      let result: Result | undefined;
      // The CNI_* environment built once for the whole chain (OnceArgs).
      const args = this.runner.callArgs("ADD", rt);
      for (const [index, net] of chain.plugins.entries()) {
        try {
          result = await this.runner.run("ADD", at, chain.cniVersion, net, result, options, args);
        } catch (error) {
          throw chain.list ? pluginChainError("add", net.network, error, index) : error;
        }
      }
      await this.cacheAdd(at, result, chain.bytes).catch((error: unknown) => {
        // The plugins configured the attachment: say so, or a caller retrying ADD leaks it.
        throw new CacheWriteError(
          { network: chain.name, containerID: rt.containerID, ifName: rt.ifName },
          result,
          error,
        );
      });
      return result;
    });
  }

  async check(chain: Chain, rt: RuntimeConf, options: RecordOptions): Promise<void> {
    const at = new Attachment(this.cacheDir, chain.name, rt);
    validateNames(chain.name, rt);
    if (!greaterThanOrEqualTo(chain.cniVersion, "0.4.0")) {
      throw new CheckNotSupportedError(chain.cniVersion);
    }
    if (chain.disableCheck) return;
    await withLock(at.lock(options.signal), async () => {
      const { signal, cachedRecord: bytes } = options;
      let cachedResult: Result | undefined;
      // Upstream: a record that cannot be read fails the CHECK (DEL alone tolerates it).
      try {
        cachedResult = await getCachedResult(at, chain.cniVersion, { signal, bytes });
      } catch (error) {
        if (signal?.aborted && error === signal.reason) throw error;
        throw new WrappedError(`failed to get network ${goQuote(chain.name)} cached result`, error);
      }
      const args = this.runner.callArgs("CHECK", rt);
      for (const net of chain.plugins) {
        await this.runner.run("CHECK", at, chain.cniVersion, net, cachedResult, options, args);
      }
    });
  }

  async del(chain: Chain, rt: RuntimeConf, options: DelOptions): Promise<void> {
    const at = new Attachment(this.cacheDir, chain.name, rt);
    validateNames(chain.name, rt);
    await withLock(at.lock(options.signal), () => this.delUnlocked(chain, at, options));
  }

  /** DEL of a chain, without taking the attachment lock (GC already holds the network). */
  private async delUnlocked(chain: Chain, at: Attachment, options: DelOptions): Promise<void> {
    const cachedResult = await this.prevResultForDel(at, chain.cniVersion, options);
    const args = this.runner.callArgs("DEL", at.rt);
    for (let i = chain.plugins.length - 1; i >= 0; i--) {
      const net = chain.plugins[i];
      try {
        await this.runner.run("DEL", at, chain.cniVersion, net, cachedResult, options, args);
      } catch (error) {
        throw chain.list ? pluginChainError("delete", net.network, error, i) : error;
      }
    }
    await this.cacheDel(at, options.requireRecordRemoved);
  }

  cachedResult(chain: Chain, rt: RuntimeConf, options: RecordOptions) {
    const { signal, cachedRecord } = options;
    return getCachedResult(new Attachment(this.cacheDir, chain.name, rt), chain.cniVersion, {
      signal,
      bytes: cachedRecord,
    });
  }

  cachedConfig(chain: Chain, rt: RuntimeConf, options: CallOptions) {
    return getCachedConfig(new Attachment(this.cacheDir, chain.name, rt), options.signal);
  }

  async getCachedAttachments(containerID: string): Promise<NetworkAttachment[]> {
    assertString(containerID, "containerID");
    return listCachedAttachments(this.cacheDirWithoutRt(), containerID);
  }

  async validate(chain: Chain, options: CallOptions): Promise<string[]> {
    const errors: unknown[] = [];
    const caps = new Set<string>();
    for (const net of chain.plugins) {
      try {
        await this.runner.validatePlugin(net.network.type, chain.cniVersion, options);
      } catch (error) {
        if (!chain.list) throw error;
        errors.push(error);
      }
      for (const [cap, enabled] of Object.entries(net.network.capabilities ?? {})) {
        if (enabled) caps.add(cap);
      }
    }
    if (errors.length > 0) throw new MultiError(errors, "list");
    return [...caps].sort(compareUTF8);
  }

  async getVersionInfo(pluginType: string, options: CallOptions): Promise<PluginInfo> {
    assertString(pluginType, "pluginType");
    return this.runner.versionInfo(pluginType, options);
  }

  async gcNetworkList(list: NetworkConfigList, args: GCArgs | undefined, options: CallOptions) {
    assertNetworkList(list);
    assertGCArgs(args);
    if (list.disableGC) return;
    const invalid = validateNetworkName(list.name);
    if (invalid) throw invalid;
    const cacheDir = this.cacheDirWithoutRt();
    const ctx = {
      cacheDir,
      runner: this.runner,
      delList: (l: NetworkConfigList, rt: RuntimeConf, o: CallOptions) =>
        this.delUnlocked(chainOf(l), new Attachment(this.cacheDir, l.name, rt), o),
      collected: collectedList(options),
    };
    await withLock(lockNetwork(cacheDir, list.name, options.signal), async () => {
      const errors = await collectGarbage(ctx, list, args, options);
      if (errors.length > 0) throw new MultiError(errors, "lines");
    });
  }

  async getStatusNetworkList(list: NetworkConfigList, options: CallOptions): Promise<void> {
    assertNetworkList(list);
    if (!greaterThanOrEqualTo(list.cniVersion, "1.1.0")) return;
    const inject = { name: list.name, cniVersion: list.cniVersion };
    for (const plugin of list.plugins) {
      let conf: PluginConfig;
      try {
        conf = injectConf(plugin, inject);
      } catch (error) {
        throw new WrappedError(
          `failed to generate configuration to get plugin STATUS ${plugin.network.type}`,
          error,
        );
      }
      await this.runner.runWithoutAttachment("STATUS", conf, options);
    }
  }
}
