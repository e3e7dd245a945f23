/**
 * Finding and running one plugin for one verb, as upstream's private `addNetwork`,
 * `checkNetwork`, `delNetwork`, `gcNetwork`, `getStatusNetwork` and `validatePlugin`.
 */
import type { PluginConfig } from "../conf/index.js";
import { PluginVersionError } from "../errors/api.js";
import { type CNIArgs, OnceArgs } from "../invoke/args.js";
import { execPluginForResult } from "../invoke/exec.js";
import { type FoundPlugin, pluginLookups } from "../invoke/find-cache.js";
import {
  Args,
  defaultExec,
  type Exec,
  type ExecOptions,
  execPluginWithoutResult,
  getVersionInfo,
  RawExec,
} from "../invoke/index.js";
import type { Result } from "../types/index.js";
import type { PluginInfo } from "../version/index.js";
import type { Attachment } from "./attachment.js";
import { StdinTemplate } from "./build-config.js";
import type { RuntimeConf } from "./types.js";
import { pluginStdin } from "./verb-documents.js";

/** Runs single plugins with a path list (read on each call: it may change) and an Exec. */
export class PluginRunner {
  /** Each plugin configuration prepared once for its stdin (per network, not per call). */
  private readonly templates = new WeakMap<PluginConfig, StdinTemplate>();

  constructor(
    private readonly paths: () => string[],
    private exec: Exec | undefined,
  ) {}

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

  /** The plugin's path: remembered for the library's own RawExec lookup (invoke/find-cache.ts). */
  private async lookup(pluginType: string): Promise<FoundPlugin> {
    const exec = this.ensureExec();
    if (exec instanceof RawExec && exec.findInPath === RawExec.prototype.findInPath) {
      return pluginLookups.find(pluginType, this.paths());
    }
    return { path: await exec.findInPath(pluginType, this.paths()), cached: false };
  }

  /** Runs the plugin found; a remembered path that fails to start is looked up again, once. */
  private runFound<T>(
    pluginType: string,
    found: FoundPlugin,
    run: (path: string) => Promise<T>,
  ): Promise<T> {
    if (!found.cached) return run(found.path);
    return pluginLookups.run(pluginType, this.paths(), found, run);
  }

  /**
   * The `CNI_*` environment of one call (a whole chain): built on its first plugin run and
   * shared by the rest, copied for an Exec other than the library's own.
   */
  callArgs(action: "ADD" | "CHECK" | "DEL", rt: RuntimeConf): CNIArgs {
    return new OnceArgs(this.args(action, rt), this.ensureExec() instanceof RawExec);
  }

  /**
   * One plugin of a chain, upstream's steps: found first, then (ADD) the container ID, network
   * name and interface name validated (CHECK and DEL validated them before their lock), then
   * its stdin built and the plugin run; ADD's result (CHECK and DEL have none).
   */
  async run(
    command: "ADD" | "CHECK" | "DEL",
    at: Attachment,
    cniVersion: string,
    net: PluginConfig,
    prevResult: Result | undefined,
    options: ExecOptions,
    args: CNIArgs,
  ): Promise<Result | undefined> {
    const pluginType = net.network.type;
    const found = await this.lookup(pluginType);
    const invalid = command === "ADD" ? at.invalid() : undefined;
    if (invalid) {
      // Upstream looks up before it validates: a remembered lookup is checked again first.
      if (found.cached) await pluginLookups.again(pluginType, this.paths());
      throw invalid;
    }
    // Each configuration prepared on its first call, again when its bytes were replaced or changed.
    let template = this.templates.get(net);
    if (template === undefined || !template.preparedFrom(net.bytes)) {
      template = new StdinTemplate(net);
      this.templates.set(net, template);
    }
    const stdin = await pluginStdin(at.network, cniVersion, template, prevResult, at.rt);
    return this.runFound(pluginType, found, async (pluginPath) => {
      const exec = this.ensureExec();
      if (command === "ADD") {
        const version = template.versionOfStdin(cniVersion);
        return execPluginForResult(pluginPath, stdin, version, args, exec, options);
      }
      await execPluginWithoutResult(pluginPath, stdin, args, exec, options);
      return undefined;
    });
  }

  /** GC or STATUS of one plugin, with its already injected configuration and no attachment. */
  async runWithoutAttachment(
    command: "GC" | "STATUS",
    conf: PluginConfig,
    options: ExecOptions,
  ): Promise<void> {
    const found = await this.lookup(conf.network.type);
    const args = this.args(command, {});
    await this.runFound(conf.network.type, found, (pluginPath) =>
      execPluginWithoutResult(pluginPath, conf.bytes, args, this.ensureExec(), options),
    );
  }

  /** Upstream `GetVersionInfo`: the plugin's VERSION answer (the call's trace context too). */
  async versionInfo(pluginType: string, options: ExecOptions): Promise<PluginInfo> {
    const found = await this.lookup(pluginType);
    const { signal, traceContext } = options;
    return this.runFound(pluginType, found, (pluginPath) =>
      getVersionInfo(pluginPath, this.ensureExec(), { signal, traceContext }),
    );
  }

  /**
   * Upstream `validatePlugin`: the plugin exists and lists `expectedVersion` ("" means 0.1.0)
   * among its supported versions, compared as strings.
   */
  async validatePlugin(
    pluginType: string,
    expectedVersion: string,
    options: ExecOptions,
  ): Promise<void> {
    const wanted = expectedVersion === "" ? "0.1.0" : expectedVersion;
    const info = await this.versionInfo(pluginType, options);
    if (!info.supportedVersions().includes(wanted)) {
      throw new PluginVersionError(pluginType, wanted);
    }
  }
}
