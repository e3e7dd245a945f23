/**
 * CNIRuntime: the networks of a conf dir and the pods on them (go-cni's `CNI` and ocicni's
 * `CNIPlugin` in one). Each call takes the network set current when it starts and keeps it to
 * the end, so a reload (which swaps the set as a whole) never changes the networks under a
 * pod's call.
 */

import { CNIConfig } from "../api/index.js";
import {
  newRunID,
  ownedElsewhere,
  podsWithIntents,
  RunMarkedExec,
  readIntent,
} from "../cache/intent.js";
import { assertPodID } from "../cache/names.js";
import { assertDuration, InvalidArgumentError } from "../errors/base.js";
import {
  type PodMessage,
  type PodOperation,
  podTraced,
  tracePod,
} from "../internal/diagnostics.js";
import {
  acquireNested,
  KeyedLocks,
  type Release,
  RWLock,
  withLock,
} from "../internal/keyed-lock.js";
import {
  assertTeardownOptions,
  type CacheCallContext,
  type CheckedAttachment,
  cacheDirOf,
  checkFromCache,
  type PodStatus,
  podStatusFromCache,
  type TornDownAttachment,
  teardownPodWith,
} from "./cached-pod.js";
import type { CapabilityStyle } from "./capabilities.js";
import { type CollectedAttachment, collectGarbage, type GCOptions, type GCReport } from "./gc.js";
import { findPlugin, type LoadOptions, loadNetworkSet, type NetworkSet, nextSet } from "./load.js";
import { planPod } from "./plan.js";
import { checkPluginsInstalled, checkPodNetns, setupAttachments } from "./setup.js";
import { networkStatus, PluginVersions, type StatusReport } from "./status.js";
import type { PodSetupResult } from "./summary.js";
import type {
  LoadProblem,
  Network,
  Pod,
  PodCallOptions,
  PodRef,
  SetupOptions,
  TeardownOptions,
} from "./types.js";
import { NetworkWatcher, type WatchOptions } from "./watch.js";

/** How to build a runtime. */
export interface RuntimeOptions extends LoadOptions {
  /** The result cache directory; default `/var/lib/cni`, shared with Go runtimes. */
  cacheDir?: string;
  /** Interface names `<prefix>0`, `<prefix>1`, ... (go-cni); default `eth0`, `net1`, `net2`, ... */
  interfacePrefix?: string;
  /**
   * Per-network time limit of every verb, in ms; default 0 (none). At most 2147483647 (about
   * 24.8 days, the longest a Node timer waits): a longer limit is refused, never a timeout that
   * fires at once.
   */
  timeout?: number;
  /** Bytes of the structured capability args: go-cni's (default) or ocicni's keys. */
  capabilityStyle?: CapabilityStyle;
  /** fsync cache records (CNIConfig's `durableCache`); default true. */
  durableCache?: boolean;
  /**
   * Check before a setup runs anything that the pod's netns exists and is a network namespace,
   * else PodNetnsError (upstream checks nothing: the first plugin that enters it fails, after
   * the plugins before it ran). Default: true when the runtime runs the plugins itself, false
   * with your own `exec` (its plugins may run elsewhere: a VM, a fake). `false` for plugins that
   * create the namespace themselves; `setupPod`'s option wins.
   */
  checkNetns?: boolean;
  /**
   * With `loopback: true`, `checkPod` also looks at `lo` in the pod's netns: it must be up
   * (go-cni#124), else the check fails with LoopbackDownError (the loopback's configuration,
   * 0.3.1, has no CHECK). Without `ip` here, or the right to enter the namespace, `lo` is not
   * looked at. Default: true when the runtime runs its plugins itself, false with your own
   * `exec` (its plugins, and the `lo` they brought up, may be elsewhere).
   */
  checkLoopback?: boolean;
}

/**
 * The ID of a pod reference (an ID, or `{ id, netns }`), checked as `setupPod` checks a pod's:
 * it names the pod's setup intent (`<cacheDir>/libcni/setup-intents/<id>`) and is part of its
 * records' names, so an ID such as `../../etc/passwd` must never reach a path. Every verb that
 * takes a pod checks it on entry, before any lock is taken, file read or plugin run.
 * @throws InvalidArgumentError naming `pod` (an ID) or `pod.id`.
 */
function podRefID(ref: unknown): string {
  if (typeof ref === "object" && ref !== null) {
    const { id } = ref as { id?: unknown };
    assertPodID(id, "pod.id");
    return id;
  }
  assertPodID(ref, "pod");
  return ref;
}

/**
 * A runtime's locks: the calls of one pod in call order (a FIFO mutex per pod ID), GC alone (a
 * FIFO readers-writer lock that pod calls share, so a waiting GC is not starved). The GC lock
 * is always taken first: no cycle, no deadlock.
 */
export class RuntimeLocks {
  readonly gc = new RWLock();
  readonly pods = new KeyedLocks();

  /** A pod call's: the GC lock shared, then the pod's mutex. */
  pod(id: string, signal?: AbortSignal): Promise<Release> {
    return acquireNested(
      () => this.gc.acquire(true, signal),
      () => this.pods.acquire(id, false, signal),
    );
  }
}

const podID = (ref: PodRef): string => (typeof ref === "string" ? ref : ref.id);
const podNetns = (ref: PodRef): string | undefined =>
  typeof ref === "string" ? undefined : ref.netns;

/** The pod-level runtime. Build it with {@link loadNetworks}. */
export class CNIRuntime {
  /** The CNIConfig every call goes through (plugin dirs, cache, exec). */
  readonly cni: CNIConfig;
  /**
   * The setups' CNIConfig: `cni`'s twin that writes records without fsync, the setup committing
   * a pod's records together (setup.ts); `cni` itself when the cache is not durable.
   */
  private readonly setupCNI: CNIConfig;
  private current: NetworkSet;
  private readonly options: RuntimeOptions;
  private readonly locks = new RuntimeLocks();
  /** Pods whose setup runs in this runtime now (their intent is no interrupted setup). */
  private readonly settingUp = new Set<string>();
  /** The plugins' VERSION answers, kept per binary for status(). */
  private readonly versions = new PluginVersions();

  /**
   * What every plugin this runtime runs carries, so that recovery in another process ends
   * only this runtime's orphans (cache/intent.ts); undefined when the caller gave its own Exec.
   */
  private readonly runID: string | undefined;

  constructor(set: NetworkSet, options: RuntimeOptions) {
    this.current = set;
    this.options = options;
    // The library's own Exec, marked; the caller's Exec is used as it is.
    const marked =
      options.exec === undefined
        ? new RunMarkedExec(
            newRunID(),
            options.pluginNetns === undefined ? undefined : { netns: options.pluginNetns },
          )
        : undefined;
    this.runID = marked?.runID;
    const cniOptions = {
      path: options.binDirs ?? ["/opt/cni/bin"],
      cacheDir: options.cacheDir,
      exec: options.exec ?? marked,
      // With the caller's Exec, CNIConfig refuses a pluginNetns beside it, as before.
      pluginNetns: marked === undefined ? options.pluginNetns : undefined,
    };
    this.cni = new CNIConfig({ ...cniOptions, durableCache: options.durableCache });
    this.setupCNI =
      options.durableCache === false
        ? this.cni
        : new CNIConfig({ ...cniOptions, durableCache: false });
  }

  /** The current set (a snapshot: a reload replaces it, never changes it). */
  get networkSet(): NetworkSet {
    return this.current;
  }

  /** The current networks, in attach order. */
  get networks(): readonly Network[] {
    return this.current.networks;
  }

  /** The default network. */
  get defaultNetwork(): Network | undefined {
    return this.current.defaultNetwork;
  }

  /** What the last load skipped or found incomplete. */
  get problems(): readonly LoadProblem[] {
    return this.current.problems;
  }

  /** The conf dir this runtime loads. */
  get confDir(): string {
    return this.options.confDir ?? "/etc/cni/net.d";
  }

  /**
   * Loads the conf dir again and swaps the set in at once; calls in flight keep the set they
   * started with. A default network gone, every file gone or the dir removed make the runtime
   * not ready until a usable config is back; pods already set up still tear down from their
   * records.
   * @throws NoNetworksError when a ready set is kept because the dir could not be listed at all
   *   (an I/O error, not its absence).
   */
  async reload(): Promise<NetworkSet> {
    const set = nextSet(this.current, await loadNetworkSet(this.options));
    this.current = set;
    return set;
  }

  /** Replaces the set (the watcher's swap). */
  swap(set: NetworkSet): void {
    this.current = set;
  }

  private context(set: NetworkSet, options: PodCallOptions, pod?: PodRef): CacheCallContext {
    return {
      netns: pod === undefined ? undefined : podNetns(pod),
      cni: this.cni,
      set,
      timeout: options.timeout ?? this.options.timeout ?? 0,
      signal: options.signal,
      traceContext: options.traceContext,
    };
  }

  /**
   * Attaches the pod to its networks (default: all of them, the default network first), or
   * to none: on a failure the networks whose plugins started are rolled back and a
   * PodSetupError thrown. The pod's ID, interface names, network names and capability values
   * are checked, and every plugin looked up, before any lock is taken or plugin runs.
   * @throws NoNetworksError while the runtime is not ready; InvalidArgumentError,
   *   InterfaceNameError, CapabilityArgError, NetworkNotFoundError or PodNetnsError (the netns
   *   is missing or no network namespace, unless `checkNetns: false`) before anything runs;
   *   PodSetupError (a plugin not installed: with nothing to undo).
   */
  async setupPod(pod: Pod, options: SetupOptions = {}): Promise<PodSetupResult> {
    return this.traced("setup", pod.id, options, (o) => this.setup(pod, o), {
      netns: pod.netns,
      parallel: options.parallel ?? false,
    });
  }

  private async setup(pod: Pod, options: SetupOptions): Promise<PodSetupResult> {
    assertDuration("timeout", options.timeout);
    const set = this.current;
    // No networks yet (or no default network for a pod that names none): the runtime's state,
    // said before anything else is looked at.
    if (set.notReady !== undefined && (pod.networks === undefined || set.networks.length === 0)) {
      throw set.notReady;
    }
    const plan = planPod(set, pod, this.options.interfacePrefix, this.options.capabilityStyle);
    // The pod's own values are checked before any plugin is looked up or run.
    const checkNetns =
      options.checkNetns ?? this.options.checkNetns ?? this.options.exec === undefined;
    if (checkNetns) await checkPodNetns(pod.id, pod.netns);
    const binDirs = this.cni.path;
    await checkPluginsInstalled(pod.id, plan, (type) =>
      findPlugin(type, binDirs, this.options.exec),
    );
    // The caller may have given `cni` other plugin dirs since.
    this.setupCNI.path = this.cni.path;
    const ctx = {
      ...this.context(set, options),
      cni: this.setupCNI,
      parallel: options.parallel ?? false,
      cacheDir: cacheDirOf(this.cni),
      durable: this.options.durableCache ?? true,
      runID: this.runID,
    };
    return withLock(this.locks.pod(pod.id, options.signal), async () => {
      this.settingUp.add(pod.id);
      try {
        return await setupAttachments(ctx, pod.id, plan);
      } finally {
        this.settingUp.delete(pod.id);
      }
    });
  }

  /**
   * The pods whose setup was interrupted (the runtime died, or a rollback DEL failed): a setup
   * intent is on disk and no setup of that pod runs here, nor in the live process that wrote it.
   * A runtime at restart tears these down (`teardownPod`), or lets `gc` collect those not valid.
   */
  async interruptedSetups(): Promise<string[]> {
    const cacheDir = cacheDirOf(this.cni);
    const pods = (await podsWithIntents(cacheDir)).filter((id) => !this.settingUp.has(id));
    // A setup in flight in another live process (its intent names it) is not interrupted.
    const elsewhere = await Promise.all(
      pods.map(async (id) => {
        const intent = await readIntent(cacheDir, id);
        return intent.kind === "attachments" && (await ownedElsewhere(intent.owner));
      }),
    );
    return pods.filter((_, i) => !elsewhere[i]).sort();
  }

  /**
   * Removes every attachment of the pod found in the cache (records, and an interrupted
   * setup's intent), in reverse attach order, each with its cached configuration; succeeds when
   * there is nothing left to remove. With `ifNoRecords: "current-config"`, a pod the cache holds
   * nothing for is DELeted with the current configuration instead (go-cni's `Remove`, ocicni's
   * fallback): on the `networks` of the pod given (pass the Pod given to setupPod), else every
   * current network, on the interface names setupPod would give; each such attachment says
   * `fromCurrentConfig: true`.
   * @throws PodTeardownError with every DEL that failed; with `"current-config"` and no record,
   *   NoNetworksError when the runtime is not ready and the pod names no networks, and
   *   setupPod's argument errors before anything runs.
   */
  async teardownPod(
    pod: PodRef | Pod,
    options: TeardownOptions = {},
  ): Promise<TornDownAttachment[]> {
    const id = podRefID(pod);
    assertDuration("timeout", options.timeout);
    assertTeardownOptions(options);
    return this.traced(
      "teardown",
      id,
      options,
      (o) =>
        withLock(this.locks.pod(id, o.signal), () => {
          const set = this.current;
          return teardownPodWith({ ...this.context(set, o, pod), set }, pod, id, o.ifNoRecords, {
            interfacePrefix: this.options.interfacePrefix,
            capabilityStyle: this.options.capabilityStyle,
          });
        }),
      { netns: podNetns(pod) },
    );
  }

  /**
   * CHECKs every cached attachment of the pod with the configuration it was ADDed with. An
   * attachment whose configuration has no CHECK (below 0.4.0, as the built-in loopback's
   * 0.3.1, or `disableCheck`) is not run and comes back marked `skipped`, with the reason.
   * With the loopback network (`loopback: true`, `checkLoopback`), `lo` must be up in the
   * pod's netns (go-cni#124): the loopback attachment says `loopbackUp: true`.
   * @throws PodCheckError with every failure (`lo` down: a LoopbackDownError); PodNotFoundError
   *   when nothing is cached.
   */
  async checkPod(pod: PodRef, options: PodCallOptions = {}): Promise<CheckedAttachment[]> {
    const id = podRefID(pod);
    assertDuration("timeout", options.timeout);
    return this.traced(
      "check",
      id,
      options,
      (o) =>
        withLock(this.locks.pod(id, o.signal), () =>
          checkFromCache(
            this.context(this.current, o, pod),
            id,
            this.options.checkLoopback ?? this.options.exec === undefined,
          ),
        ),
      { netns: podNetns(pod) },
    );
  }

  /**
   * The pod's networks as the result cache holds them (ocicni `GetPodNetworkStatus`): runs no
   * plugin, so it works after a restart, after the netns is gone and for networks removed
   * from the conf dir. The summary has setupPod's shape.
   * @throws PodNotFoundError when nothing is cached for the pod.
   */
  async podStatus(pod: PodRef, options: PodCallOptions = {}): Promise<PodStatus> {
    const id = podRefID(pod);
    assertDuration("timeout", options.timeout);
    return withLock(this.locks.pod(id, options.signal), () =>
      podStatusFromCache(this.context(this.current, options, pod), id),
    );
  }

  /**
   * Readiness, for a kubelet's NetworkReady (status.ts): ready when the conf dir has its
   * networks, the default network (and the loopback) has its plugins installed and supporting
   * its version, and at least `minReady` (default 1) networks are ready; `reason` says why not.
   */
  async status(options: PodCallOptions & { minReady?: number } = {}): Promise<StatusReport> {
    assertDuration("timeout", options.timeout);
    return this.traced("status", "", options, (o) =>
      networkStatus(
        {
          ...this.context(this.current, o),
          binDirs: this.cni.path,
          find: (type) => findPlugin(type, this.cni.path, this.options.exec),
          versions: this.versions,
        },
        o.minReady ?? 1,
      ),
    );
  }

  /**
   * GC: the cached attachments of pods not in `validPods` are DELeted (cached config), then
   * each network's plugins get GC with their valid attachments. Exclusive with pod calls. A pod
   * whose setup is in flight in another live process is left to it (`inFlightElsewhere`).
   * With `dryRun: true` nothing runs and no file is touched: the report lists what a GC would
   * DEL now (`removed`) and what it could not (`unusable`).
   * @throws RuntimeGCError with every failure, after trying everything; InvalidArgumentError
   *   for a `dryRun` that is not a boolean, before anything.
   */
  async gc(validPods: Iterable<PodRef>, options: GCOptions = {}): Promise<GCReport> {
    assertDuration("timeout", options.timeout);
    const dryRun = options.dryRun === undefined ? false : options.dryRun;
    if (typeof dryRun !== "boolean") {
      throw new InvalidArgumentError("dryRun", `dryRun must be a boolean, got ${typeof dryRun}`);
    }
    const valid = new Set([...validPods].map(podID));
    // Filled as pods are collected: the diagnostics message says what a GC that fails collected.
    const collected: CollectedAttachment[] = [];
    return this.traced(
      "gc",
      "",
      options,
      (o) =>
        withLock(this.locks.gc.acquire(false, o.signal), () =>
          collectGarbage(this.context(this.current, o), valid, dryRun, collected),
        ),
      { collected, dryRun },
    );
  }

  /**
   * Runs a pod-level call on `libcni:pod` and the debug log when someone listens (else the
   * plain path); a `start` subscriber's trace context replaces the caller's.
   */
  private traced<O extends PodCallOptions, T>(
    operation: PodOperation,
    id: string,
    options: O,
    fn: (options: O) => Promise<T>,
    extra?: Pick<PodMessage, "collected" | "dryRun" | "netns" | "parallel">,
  ): Promise<T> {
    if (!podTraced()) return fn(options);
    const message: PodMessage = {
      operation,
      podID: id,
      traceContext: options.traceContext,
      durationMs: undefined,
      networks: this.current.networks.map((n) => n.name),
      ...extra,
    };
    return tracePod(message, (traceContext) =>
      fn(traceContext === options.traceContext ? options : { ...options, traceContext }),
    );
  }

  /**
   * Watches the conf dir and swaps in each new set; `close()` the watcher to stop.
   * @throws InvalidArgumentError for a `debounce` or `poll` that is not an integer from 0 to
   *   2147483647.
   */
  watch(options: WatchOptions = {}): NetworkWatcher {
    return new NetworkWatcher(this, this.options, options);
  }
}

/**
 * Loads the networks of a conf dir and returns the runtime over them (go-cni `New` + `Load`,
 * ocicni `InitCNI`). Broken files are in `runtime.problems`, not fatal. A conf dir that is
 * missing or holds no usable network (or not the default network) gives a runtime that is not
 * ready (`status()` says why, `setupPod` throws NoNetworksError) until `watch()` or `reload()`
 * brings the first network in, as containerd and CRI-O start before the network provider writes
 * its config.
 * @throws InvalidArgumentError for bad options only.
 */
export async function loadNetworks(options: RuntimeOptions = {}): Promise<CNIRuntime> {
  assertDuration("timeout", options.timeout);
  return new CNIRuntime(await loadNetworkSet(options), options);
}
