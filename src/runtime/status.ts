/**
 * Readiness, as a kubelet reads it (docs/runtime.md, "Ready for pods"): STATUS of every network
 * at once (ocicni asks the default network only, go-cni stops at the first failure), after each
 * plugin (and IPAM plugin, which gets the same version by delegation) is looked up and asked
 * VERSION: STATUS run into a missing or unsupporting plugin would hide the cause behind its own
 * error (`missing containerID`). The default and loopback networks must be ready (go-cni#133).
 */

import { stat } from "node:fs/promises";
import type { CallOptions, CNIConfig } from "../api/index.js";
import { PluginVersionError } from "../errors/api.js";
import { messageOf } from "../internal/error-message.js";
import type { PluginInfo } from "../version/index.js";
import { type CacheCallContext, withDeadline } from "./cached-pod.js";
import type { Network } from "./types.js";

/** One network's readiness. */
export interface NetworkStatus {
  network: string;
  ready: boolean;
  /**
   * Why it is not ready: a plugin not installed (`PluginNotFoundError`), one not supporting the
   * network's version (`PluginVersionError`) or whose VERSION failed, or what STATUS threw.
   */
  error?: unknown;
}

/** The runtime's readiness. */
export interface StatusReport {
  /**
   * The runtime has its networks, the default network (and the loopback) is ready, its plugins
   * usable and its STATUS answered, and at least `minReady` networks are ready.
   */
  ready: boolean;
  /** Why the runtime is not ready, whenever it is not (docs/runtime.md, "Ready for pods"). */
  reason?: string;
  /** The default network is ready (false when there is none). */
  defaultReady: boolean;
  networks: NetworkStatus[];
}

/** What a status call needs beyond the pod calls' context. */
export interface StatusContext extends CacheCallContext {
  /** The plugin dirs, for the reason's text. */
  readonly binDirs: readonly string[];
  /** Looks a plugin up in the plugin dirs (through the runtime's Exec when it has one). */
  find(pluginType: string): Promise<string>;
  /** The VERSION answers, remembered. */
  readonly versions: PluginVersions;
}

/** A file's identity: a binary replaced (or rebuilt in place) gets a new one. */
async function identityOf(path: string): Promise<string | undefined> {
  const s = await stat(path, { bigint: true }).catch(() => undefined);
  if (!s?.isFile()) return undefined;
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

// Far more than any host's plugins: a bound, not a policy.
const maxVersions = 256;

/**
 * VERSION answers per plugin binary, kept while the binary is the same file (device, inode,
 * size, modification and change times): a kubelet asks for the runtime's status every few
 * seconds, and a plugin's VERSION answer only changes with its binary. A path that is not a
 * regular file on this host (a custom Exec's) is asked every time.
 */
export class PluginVersions {
  private readonly known = new Map<string, { identity: string; info: PluginInfo }>();

  async get(
    cni: CNIConfig,
    pluginType: string,
    path: string,
    options: CallOptions,
  ): Promise<PluginInfo> {
    const key = `${pluginType}\0${path}`;
    const identity = await identityOf(path);
    const known = this.known.get(key);
    if (identity !== undefined && known?.identity === identity) return known.info;
    const info = await cni.getVersionInfo(pluginType, options);
    if (identity !== undefined) {
      if (this.known.size >= maxVersions) this.known.clear();
      this.known.set(key, { identity, info });
    } else {
      this.known.delete(key);
    }
    return info;
  }
}

/** Why a plugin cannot serve its network: the network's error, and the runtime's `reason`. */
interface PluginProblem {
  readonly error: unknown;
  /** What the reason says after the network (`plugin "bridge" is not installed ...`). */
  readonly text: string;
}

const quoted = (s: string): string => JSON.stringify(s);

/**
 * Looks one plugin (or, `role` `IPAM plugin`, a plugin's `ipam.type`, which gets the same
 * version) up and asks its VERSION; undefined when it serves.
 */
async function checkPlugin(
  ctx: StatusContext,
  role: string,
  plugin: string,
  version: string,
  options: CallOptions,
): Promise<PluginProblem | undefined> {
  const what = `${role} ${quoted(plugin)}`;
  let path: string;
  try {
    path = await ctx.find(plugin);
  } catch (error) {
    const { binDirs } = ctx;
    const dirs = binDirs.length === 0 ? "no plugin dirs" : `plugin dirs ${binDirs.join(", ")}`;
    return { error, text: `${what} is not installed (${dirs}): ${messageOf(error)}` };
  }
  let info: PluginInfo;
  try {
    info = await ctx.versions.get(ctx.cni, plugin, path, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { error, text: `${what} (${path}) did not answer VERSION: ${messageOf(error)}` };
  }
  const supported = info.supportedVersions();
  if (supported.includes(version)) return undefined;
  return {
    error: new PluginVersionError(plugin, version),
    text: `${what} (${path}) does not support the network's cniVersion ${version} (it supports ${supported.join(", ") || "none"})`,
  };
}

/**
 * The first plugin of the network (in list order, each before its IPAM plugin) that cannot
 * serve its version (none is 0.1.0, as plugins read it), or undefined.
 */
async function pluginProblem(
  ctx: StatusContext,
  n: Network,
  options: CallOptions,
): Promise<PluginProblem | undefined> {
  const version = n.config.cniVersion || "0.1.0";
  const checks = n.config.plugins.flatMap((p) => {
    const ipam = p.network.ipam?.type ?? "";
    return [
      checkPlugin(ctx, "plugin", p.network.type, version, options),
      ...(ipam === "" ? [] : [checkPlugin(ctx, "IPAM plugin", ipam, version, options)]),
    ];
  });
  const problems = await Promise.all(checks);
  return problems.find((p) => p !== undefined);
}

/** The default network (with its file) or the loopback, as the reason names it. */
function networkLabel(n: Network): string {
  return n.loopback
    ? `loopback network ${quoted(n.name)}`
    : `default network ${quoted(n.name)} (${n.file})`;
}

/** Readiness of the set; see the module comment. */
export async function networkStatus(ctx: StatusContext, minReady: number): Promise<StatusReport> {
  const set = ctx.set;
  const networks = set?.networks ?? [];
  const problems = new Map<Network, PluginProblem>();
  const statuses = await Promise.all(
    networks.map(async (n): Promise<NetworkStatus> => {
      try {
        const problem = await withDeadline(ctx, n.name, "VERSION", (options) =>
          pluginProblem(ctx, n, options),
        );
        if (problem !== undefined) {
          problems.set(n, problem);
          return { network: n.name, ready: false, error: problem.error };
        }
        // Below 1.1.0 this runs no plugin and succeeds, as upstream's (the verb is still traced).
        await withDeadline(ctx, n.name, "STATUS", (options) =>
          ctx.cni.getStatusNetworkList(n.config, options),
        );
        return { network: n.name, ready: true };
      } catch (error) {
        return { network: n.name, ready: false, error };
      }
    }),
  );
  const readyCount = statuses.filter((s) => s.ready).length;
  const defaultNetwork = set?.defaultNetwork;
  const report: StatusReport = {
    ready: false,
    defaultReady: statuses.some((s) => s.network === defaultNetwork?.name && s.ready),
    networks: statuses,
  };
  // The default and loopback networks must be ready, STATUS too: counted among minReady alone,
  // the loopback (no STATUS below 1.1.0) made a runtime whose one network says 50 ready.
  const unusable = networks.flatMap((n, i) => {
    const { ready, error } = statuses[i];
    if (ready || !(n.loopback || n === defaultNetwork)) return [];
    return [`${networkLabel(n)}: ${problems.get(n)?.text ?? `not ready: ${messageOf(error)}`}`];
  });
  if (set?.notReady !== undefined) {
    report.reason = set.notReady.message;
  } else if (networks.length === 0) {
    report.reason = "no networks loaded";
  } else if (unusable.length > 0) {
    report.reason = unusable.join("; ");
  } else if (readyCount < minReady) {
    const notReady = statuses
      .filter((s) => !s.ready)
      .map((s) => `${s.network}: ${messageOf(s.error)}`);
    report.reason = `${readyCount} of ${networks.length} networks ready, ${minReady} needed (minReady)${notReady.length > 0 ? `: ${notReady.join("; ")}` : ""}`;
  } else {
    report.ready = true;
  }
  return report;
}
