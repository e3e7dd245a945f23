/**
 * Running a plugin for a result, for no result, or for its VERSION (upstream pkg/invoke/exec.go).
 */
import type { Result } from "../types/result.js";
import { current, decodePluginInfo, type PluginInfo, pluginSupports } from "../version/index.js";
import { Args, type CNIArgs } from "./args.js";
import { decodePluginResult } from "./plugin-result.js";
import { type ExecOptions, RawExec, type RawExecOptions } from "./raw-exec.js";

/**
 * Everything libcni does to find and run plugins, replaceable as a whole (upstream `Exec`):
 * a runtime can run plugins its own way (in another namespace, through a sandbox), and tests
 * can answer without executables on disk ({@link FakeExec}).
 */
export interface Exec {
  /**
   * Runs the plugin at `pluginPath` with `stdinData` on stdin and `environ` as its environment
   * (`undefined`: this process's), resolving to its stdout. Rejects on failure, with a CNIError
   * when the plugin reported one.
   */
  execPlugin(
    pluginPath: string,
    stdinData: Uint8Array,
    environ: string[] | undefined,
    options?: ExecOptions,
  ): Promise<Uint8Array>;
  /** The full path of `plugin` in the first of `paths` holding it; see {@link findInPath}. */
  findInPath(plugin: string, paths: readonly string[]): Promise<string>;
  /** Decodes a plugin's VERSION output. */
  decode(jsonBytes: Uint8Array): PluginInfo;
}

/** The Exec that runs plugins from disk: a {@link RawExec} that also decodes VERSION output. */
export class DefaultExec extends RawExec implements Exec {
  /** Decodes VERSION output as upstream's PluginDecoder. */
  decode(jsonBytes: Uint8Array): PluginInfo {
    return decodePluginInfo(jsonBytes);
  }
}

let shared: DefaultExec | undefined;

/**
 * The shared Exec used when none is given (upstream's package-level defaultExec): plugins from
 * disk, their stderr on success copied to process.stderr. Pass options for a new instance.
 */
export function defaultExec(options?: RawExecOptions): DefaultExec {
  if (options !== undefined) return new DefaultExec(options);
  shared ??= new DefaultExec();
  return shared;
}

/**
 * Runs a plugin that answers with a result (ADD), and parses the result in the version the
 * plugin printed, or the config's when the result has none. The result is never converted.
 */
export function execPluginWithResult(
  pluginPath: string,
  netconf: Uint8Array,
  args: CNIArgs,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<Result> {
  return execPluginForResult(pluginPath, netconf, undefined, args, exec, options);
}

/**
 * {@link execPluginWithResult} of a stdin whose `cniVersion` (as Go decodes it from the stdin)
 * the caller knows, having just encoded it: the stdin is not parsed again for it. Undefined
 * reads it from the stdin, as upstream.
 */
export async function execPluginForResult(
  pluginPath: string,
  netconf: Uint8Array,
  confVersion: string | undefined,
  args: CNIArgs,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<Result> {
  const runner = exec ?? defaultExec();
  const stdout = await runner.execPlugin(pluginPath, netconf, args.asEnv(), options);
  return decodePluginResult(netconf, stdout, confVersion);
}

/** Runs a plugin whose stdout is not used (DEL, CHECK, GC, STATUS). */
export async function execPluginWithoutResult(
  pluginPath: string,
  netconf: Uint8Array,
  args: CNIArgs,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<void> {
  const runner = exec ?? defaultExec();
  await runner.execPlugin(pluginPath, netconf, args.asEnv(), options);
}

/** The text a plugin built before VERSION existed fails with; it means "0.1.0 only". */
const unknownVersionCommand = "unknown CNI_COMMAND: VERSION";

/**
 * The versions a plugin supports, from its VERSION command: stdin `{"cniVersion":"1.1.0"}`,
 * and the dummy CNI_NETNS, CNI_IFNAME and CNI_PATH that very old skels insist on. A plugin too
 * old to know VERSION (its error is exactly `unknown CNI_COMMAND: VERSION`) supports 0.1.0.
 */
export async function getVersionInfo(
  pluginPath: string,
  exec?: Exec,
  options: ExecOptions = {},
): Promise<PluginInfo> {
  const runner = exec ?? defaultExec();
  const args = new Args({ command: "VERSION", netNS: "dummy", ifName: "dummy", path: "dummy" });
  const stdin = new TextEncoder().encode(`{"cniVersion":${JSON.stringify(current())}}`);
  let stdout: Uint8Array;
  try {
    stdout = await runner.execPlugin(pluginPath, stdin, args.asEnv(), options);
  } catch (error) {
    if (error instanceof Error && error.message === unknownVersionCommand) {
      return pluginSupports("0.1.0");
    }
    throw error;
  }
  return runner.decode(stdout);
}
