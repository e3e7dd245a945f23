/**
 * An isolated host side for integration tests: what a Go test gets by wrapping itself in `ip
 * netns exec`, without wrapping the process (DefaultExec's `netns` starts the plugins there).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CNIConfig } from "../api/index.js";
import { assertOptions, InvalidArgumentError } from "../errors/base.js";
import { DefaultExec, findInPath, type RawExecOptions } from "../invoke/index.js";
import type { NetnsMechanism } from "../netns/index.js";
import { type Failpoint, type FailpointOptions, failpointPlugin } from "./failpoint.js";
import { uniqueTestName } from "./names.js";
import { findPluginDirs } from "./plugin-dirs.js";
import { enableForwarding } from "./run.js";
import { sweepLeftoversOnce } from "./sweep.js";
import { type TempNetns, type TempNetnsOptions, tempNetns } from "./temp-netns.js";

/** Options of {@link testHost}. */
export interface TestHostOptions {
  /** Where the real plugins are. Default {@link findPluginDirs} (CNI_PATH, then the distributions' dirs). */
  pluginDirs?: string[];
  /**
   * Turn on IPv4 and IPv6 forwarding in the host namespace (a fresh namespace has it off), as
   * on a container host: routed setups (ptp, a pod reaching another subnet through the
   * gateway) need it; bridge turns it on itself when `isGateway` is set. Default true.
   */
  ipForward?: boolean;
  /** Where the namespaces are pinned. Default `/run/netns`. */
  netnsDir?: string;
  /** How namespaces are pinned and entered (libcni/netns): "spawner", "direct" or "auto" (the default). */
  mechanism?: NetnsMechanism;
  /** Options of the plugins' DefaultExec (`launcher`, `graceMs`...); `netns` is the host's. */
  execOptions?: Omit<RawExecOptions, "netns">;
}

/** What `loadNetworks` of libcni/runtime needs to run a runtime on a {@link TestHost}. */
export interface TestHostRuntimeOptions {
  binDirs: string[];
  cacheDir: string;
  exec: DefaultExec;
}

/** An isolated host made by {@link testHost}. */
export interface TestHost {
  /** The host namespace (loopback up): bridges, host veth ends and NAT rules land here. */
  readonly netns: TempNetns;
  /** Runs plugins inside {@link TestHost.netns}; their stderr on success is discarded. */
  readonly exec: DefaultExec;
  /** A CNIConfig with {@link TestHost.binDirs}, {@link TestHost.cacheDir} and {@link TestHost.exec}. */
  readonly cni: CNIConfig;
  /** The temp dir holding the dirs below; removed with the host. */
  readonly root: string;
  /** An empty dir searched first for plugins: put `failpointPlugin` wrappers here. */
  readonly binDir: string;
  /** The plugin path: {@link TestHost.binDir}, then the real plugin dirs. */
  readonly binDirs: string[];
  /** The result cache (CNIConfig's `cacheDir`). */
  readonly cacheDir: string;
  /** A dir for host-local's `dataDir` (its default, /var/lib/cni/networks, is the machine's). */
  readonly dataDir: string;
  /** An empty conf dir, for `loadNetworks({ confDir })`. */
  readonly confDir: string;
  /** The options to spread into libcni/runtime's `loadNetworks` for this host. */
  readonly runtimeOptions: TestHostRuntimeOptions;
  /**
   * A failpoint wrapper in {@link TestHost.binDir} (so this host's CNIConfig and runtime run
   * it in place of the plugin); `plugin` may be a name, looked up in the real plugin dirs.
   */
  failpoint(options: Omit<FailpointOptions, "dir">): Promise<Failpoint>;
  /** A new pod namespace (its `lo` down, as a new container's), removed with the host. */
  pod(label?: string): Promise<TempNetns>;
  /** Removes the pods, the host namespace and the temp dirs; again is a no-op. */
  remove(): Promise<void>;
  /** {@link TestHost.remove}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** Runs the cleanups in reverse order, every one of them; throws the first failure after. */
async function undo(cleanups: (() => Promise<void>)[]): Promise<void> {
  let first: unknown;
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      first ??= error;
    }
  }
  if (first !== undefined) throw first;
}

/**
 * Creates an isolated host: a namespace for the host side (loopback up, forwarding on), a
 * DefaultExec and a CNIConfig whose plugins run there, temp dirs for the cache, host-local's
 * data, a conf dir and failpoint wrappers, all removed (with every `host.pod()`) by `await
 * using`. The first call of a process first sweeps what gone ones left (`sweepTestLeftovers`).
 * @throws NetnsError without CAP_SYS_ADMIN; nothing is left behind on any failure.
 */
export async function testHost(options: TestHostOptions = {}): Promise<TestHost> {
  assertOptions(options);
  const cleanups: (() => Promise<void>)[] = [];
  const nsOptions: TempNetnsOptions = { dir: options.netnsDir, mechanism: options.mechanism };
  await sweepLeftoversOnce({ netnsDir: options.netnsDir, mechanism: options.mechanism });
  try {
    const root = await mkdtemp(join(tmpdir(), `${await uniqueTestName("host")}-`));
    cleanups.push(() => rm(root, { recursive: true, force: true }));
    const [binDir, cacheDir, dataDir, confDir] = ["bin", "cache", "ipam", "net.d"].map((d) =>
      join(root, d),
    );
    for (const dir of [binDir, cacheDir, dataDir, confDir]) await mkdir(dir);
    const netns = await tempNetns({ ...nsOptions, label: "host", loopbackUp: true });
    cleanups.push(() => netns.remove());
    if (options.ipForward !== false) {
      await enableForwarding(netns.path, { mechanism: options.mechanism });
    }
    const binDirs = [binDir, ...(options.pluginDirs ?? (await findPluginDirs()))];
    const exec = new DefaultExec({ stderr: null, ...options.execOptions, netns: netns.path });
    const cni = new CNIConfig({ path: binDirs, cacheDir, exec });
    let removal: Promise<void> | undefined;
    const host: TestHost = {
      netns,
      exec,
      cni,
      root,
      binDir,
      binDirs,
      cacheDir,
      dataDir,
      confDir,
      runtimeOptions: { binDirs, cacheDir, exec },
      failpoint: async (fp) => {
        const plugin = fp.plugin.includes("/")
          ? fp.plugin
          : await findInPath(fp.plugin, binDirs.slice(1));
        return failpointPlugin({ ...fp, plugin, dir: binDir });
      },
      pod: async (label = "pod") => {
        const gone = () => new InvalidArgumentError("host", "host.pod() after host.remove()");
        if (removal !== undefined) throw gone();
        const pod = await tempNetns({ ...nsOptions, label });
        // Removed before the host (the cleanups run in reverse order of creation); made while
        // the host's removal ran, at once: the cleanups were taken already.
        if (removal !== undefined) {
          await pod.remove();
          throw gone();
        }
        cleanups.push(() => pod.remove());
        return pod;
      },
      remove: () => {
        removal ??= undo(cleanups);
        return removal;
      },
      [Symbol.asyncDispose]: () => host.remove(),
    };
    return host;
  } catch (error) {
    await undo(cleanups).catch(() => undefined);
    throw error;
  }
}
