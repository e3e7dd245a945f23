/**
 * Finding and running one plugin for one verb, as upstream's private `addNetwork`,
 * `checkNetwork`, `delNetwork`, `gcNetwork`, `getStatusNetwork` and `validatePlugin`: the
 * plugin looked up in the path first, then its request built and run with the verb's `CNI_*`
 * environment.
 */
import type { PluginConfig } from "../conf/index.js";
import { goQuote } from "../internal/go-quote.js";
import { yieldIfLarge } from "../internal/yield.js";
import {
  Args,
  defaultExec,
  type Exec,
  type ExecOptions,
  execPluginWithoutResult,
  execPluginWithResult,
  getVersionInfo,
} from "../invoke/index.js";
import { encodableInSlices } from "../types/encode-in-slices.js";
import type { Result } from "../types/index.js";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "../utils/index.js";
import type { PluginInfo } from "../version/index.js";
import { buildOneConfig } from "./build-config.js";
import type { RuntimeConf } from "./types.js";
import { validateCacheFileName } from "./validate-names.js";

/**
 * `buildOneConfig` for a verb: a large `prevResult` is written in slices that yield to the
 * event loop (same bytes), and the verb yields once more after a large stdin was built.
 */
async function buildStdin(
  name: string,
  cniVersion: string,
  net: PluginConfig,
  prevResult: Result | undefined,
  rt: RuntimeConf,
): Promise<PluginConfig> {
  const encodable = prevResult === undefined ? undefined : await encodableInSlices(prevResult);
  const conf = buildOneConfig(name, cniVersion, net, encodable, rt);
  await yieldIfLarge(conf.bytes.length);
  return conf;
}

/** Runs single plugins with a path list (read on each call: it may change) and an Exec. */
export class PluginRunner {
  private exec: Exec | undefined;
  private readonly paths: () => string[];

  constructor(paths: () => string[], exec: Exec | undefined) {
    this.paths = paths;
    this.exec = exec;
  }

  /** Upstream `ensureExec`: the given Exec, or the shared default one. */
  private ensureExec(): Exec {
    this.exec ??= defaultExec();
    return this.exec;
  }

  /** Upstream `CNIConfig.args`: the `CNI_*` values of a call; GC and STATUS pass an empty rt. */
  private args(action: string, rt: Partial<RuntimeConf>): Args {
    return new Args({
      command: action,
      containerID: rt.containerID ?? "",
      netNS: rt.netNS ?? "",
      pluginArgs: rt.args ?? [],
      ifName: rt.ifName ?? "",
      path: this.paths().join(":"),
    });
  }

  private find(pluginType: string): Promise<string> {
    return this.ensureExec().findInPath(pluginType, this.paths());
  }

  /**
   * ADD of one plugin: found first, then the container ID, network name and interface name
   * validated (upstream's order), then run for its result.
   */
  async add(
    name: string,
    cniVersion: string,
    net: PluginConfig,
    prevResult: Result | undefined,
    rt: RuntimeConf,
    options: ExecOptions,
  ): Promise<Result> {
    const pluginPath = await this.find(net.network.type);
    const invalid =
      validateContainerID(rt.containerID) ??
      validateNetworkName(name) ??
      validateInterfaceName(rt.ifName) ??
      validateCacheFileName(name, rt.containerID, rt.ifName);
    if (invalid) throw invalid;
    const newConf = await buildStdin(name, cniVersion, net, prevResult, rt);
    return execPluginWithResult(
      pluginPath,
      newConf.bytes,
      this.args("ADD", rt),
      this.ensureExec(),
      options,
    );
  }

  /** CHECK or DEL of one plugin. */
  async run(
    command: "CHECK" | "DEL",
    name: string,
    cniVersion: string,
    net: PluginConfig,
    prevResult: Result | undefined,
    rt: RuntimeConf,
    options: ExecOptions,
  ): Promise<void> {
    const pluginPath = await this.find(net.network.type);
    const newConf = await buildStdin(name, cniVersion, net, prevResult, rt);
    await execPluginWithoutResult(
      pluginPath,
      newConf.bytes,
      this.args(command, rt),
      this.ensureExec(),
      options,
    );
  }

  /** GC or STATUS of one plugin, with its already injected configuration and no attachment. */
  async runWithoutAttachment(
    command: "GC" | "STATUS",
    conf: PluginConfig,
    options: ExecOptions,
  ): Promise<void> {
    const pluginPath = await this.find(conf.network.type);
    await execPluginWithoutResult(
      pluginPath,
      conf.bytes,
      this.args(command, {}),
      this.ensureExec(),
      options,
    );
  }

  /** Upstream `GetVersionInfo`: the plugin's VERSION answer. */
  async versionInfo(pluginType: string, signal: AbortSignal | undefined): Promise<PluginInfo> {
    const pluginPath = await this.find(pluginType);
    return getVersionInfo(pluginPath, this.ensureExec(), { signal });
  }

  /**
   * Upstream `validatePlugin`: the plugin exists and lists `expectedVersion` ("" means 0.1.0)
   * among its supported versions, compared as strings.
   */
  async validatePlugin(
    pluginType: string,
    expectedVersion: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const wanted = expectedVersion === "" ? "0.1.0" : expectedVersion;
    const info = await this.versionInfo(pluginType, signal);
    if (!info.supportedVersions().includes(wanted)) {
      throw new Error(`plugin ${pluginType} does not support config version ${goQuote(wanted)}`);
    }
  }
}
