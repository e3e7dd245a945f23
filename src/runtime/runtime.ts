/**
 * CNIRuntime: the networks of a conf dir and the pods on them (go-cni's `CNI` and ocicni's
 * `CNIPlugin` in one). Each call takes the network set current when it starts and keeps it to
 * the end, so a reload (which swaps the set as a whole) never changes the networks under a
 * pod's call.
 */

import { CNIConfig } from "../api/index.js";
import {
  asSetupHere,
  intentPath,
  newRunID,
  podsWithIntents,
  RunMarkedExec,
  readIntent,
  setupRunning,
} from "../cache/intent.js";
import { assertPodID } from "../cache/names.js";
import {
  assertIterable,
  assertOptions,
  assertSpelled,
  InvalidArgumentError,
  wrongTypeError,
} from "../errors/base.js";
import { InterruptedSetupError } from "../errors/runtime.js";
import {
  type PodMessage,
  type PodOperation,
  podTraced,
  tracePod,
} from "../internal/diagnostics.js";
import { isJSONObject } from "../internal/json-kind.js";
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
import { type CollectedAttachment, collectGarbage, type GCOptions, type GCReport } from "./gc.js";
import { findPlugin, type LoadOptions, loadNetworkSet, type NetworkSet, nextSet } from "./load.js";
import { planPod } from "./plan.js";
import { checkPluginsInstalled, checkPodNetns, setupAttachments } from "./setup.js";
import { networkStatus, PluginVersions, type StatusReport } from "./status.js";
import type { PodSetupResult } from "./summary.js";
import type {
  CapabilityStyle,
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
   * Per-network time limit of every verb, in ms; default 0 (none), but 10 s for `status()`'s
   * VERSION and STATUS; at most 2147483647.
   */
  timeout?: number;
  /** Bytes of the structured capability args: go-cni's (default) or ocicni's keys. */
  capabilityStyle?: CapabilityStyle;
  /** fsync cache records (CNIConfig's `durableCache`); default true. */
  durableCache?: boolean;
  /**
   * Check before a setup runs anything that the pod's netns is a network namespace, else
   * PodNetnsError. Default: true when the runtime runs the plugins itself, false with your own
   * `exec` (its plugins may run elsewhere); `setupPod`'s option wins.
   */
  checkNetns?: boolean;
  /**
   * With `loopback: true`, `checkPod` also requires `lo` up in the pod's netns (go-cni#124),
   * else LoopbackDownError. Default: as `checkNetns`'s (docs/runtime.md, "What it does for you").
   */
  checkLoopback?: boolean;
}

/**
 * The ID of a pod reference, checked as `setupPod` checks a pod's on every verb's entry: it
 * names the pod's intent and records, so `../../etc/passwd` must never reach a path.
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

/**
 * A valid pod's ID for GC, checked as setupPod checks one: an ID no record can have (`"pod1\r"`
 * from a CRLF file, `""` from a trailing newline) would match none, and GC would tear down the
 * pod it meant.
 */
function podID(ref: PodRef, i: number): string {
  const id = typeof ref === "string" ? ref : (ref as { id?: unknown } | null)?.id;
  if (typeof id !== "string") {
    throw new InvalidArgumentError("validPods", "validPods must hold pod IDs or { id } objects");
  }
  assertPodID(id, `validPods[${i}]`);
  return id;
}

/** RuntimeOptions' keys, each checked for a look-alike (`cachedir`) that would be ignored. */
const runtimeOptionKeys = [
  ...["confDir", "binDirs", "maxNetworks", "defaultNetwork", "loopback", "exec", "pluginNetns"],
  ...["cacheDir", "interfacePrefix", "timeout", "capabilityStyle", "durableCache", "checkNetns"],
  "checkLoopback",
];

/** GC's options: a `dryRun` misspelled, or a `true` in their place, would collect for real. */
const gcOptionKeys = new Set(["signal", "traceContext", "timeout", "dryRun"]);
const podNetns = (ref: PodRef): string | undefined =>
  typeof ref === "string" ? undefined : ref.netns;

/** The pod-level runtime. Build it with {@link loadNetworks}. */
export class CNIRuntime {
  /** The CNIConfig every call goes through (plugin dirs, cache, exec). */
  readonly cni: CNIConfig;
  /** `cni`'s twin writing records without fsync, which setups commit together (setup.ts). */
  private readonly setupCNI: CNIConfig;
  private current: NetworkSet;
  /** The number of the last load begun, and of the last whose set was swapped in. */
  private loadsBegun = 0;
  private loadSwapped = 0;
  private readonly options: RuntimeOptions;
  private readonly locks = new RuntimeLocks();
  /** The plugins' VERSION answers, kept per binary for status(). */
  private readonly versions = new PluginVersions();
  /** What this runtime's plugins carry, for another process's recovery (cache/intent.ts). */
  private readonly runID: string | undefined;

  constructor(set: NetworkSet, options: RuntimeOptions) {
    this.current = set;
    this.options = options;
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
      // Beside the caller's Exec, CNIConfig refuses a pluginNetns.
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
   * Loads the conf dir again and swaps the set in at once; calls in flight keep theirs. A dir
   * without its networks makes the runtime not ready until they are back.
   * @throws NoNetworksError when a ready set is kept because the dir could not be listed at all
   *   (an I/O error, not its absence).
   */
  async reload(): Promise<NetworkSet> {
    const swap = this.beginLoad();
    swap(nextSet(this.current, await loadNetworkSet(this.options)));
    return this.current;
  }

  /** Replaces the set now (a load that ends now: a load begun before it swaps nothing). */
  swap(set: NetworkSet): void {
    this.beginLoad()(set);
  }

  /** Numbers a load: its swap is refused once a later load has swapped. @internal */
  beginLoad(): (set: NetworkSet) => boolean {
    const n = ++this.loadsBegun;
    return (set) => {
      if (n < this.loadSwapped) return false;
      this.loadSwapped = n;
      this.current = set;
      return true;
    };
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
   * Attaches the pod to its networks (default: all of them, the default network first), or to
   * none: on a failure what started is rolled back. What the pod brings is checked, and every
   * plugin looked up, before any lock is taken or plugin runs.
   * @throws NoNetworksError while not ready; InvalidArgumentError, InterfaceNameError,
   *   CapabilityArgError, NetworkNotFoundError or PodNetnsError before anything runs;
   *   InterruptedSetupError (the pod's earlier setup left its intent: teardownPod); PodSetupError.
   */
  async setupPod(pod: Pod, options: SetupOptions = {}): Promise<PodSetupResult> {
    if (typeof pod !== "object" || pod === null) {
      throw new InvalidArgumentError("pod", "pod must be a Pod object");
    }
    assertOptions(options, "timeout");
    return this.traced("setup", pod.id, options, (o) => this.setup(pod, o), {
      netns: pod.netns,
      parallel: options.parallel ?? false,
    });
  }

  private async setup(pod: Pod, options: SetupOptions): Promise<PodSetupResult> {
    const set = this.current;
    // Not ready for this pod: the runtime's state, said before the pod is looked at.
    if (set.notReady !== undefined && (pod.networks === undefined || set.networks.length === 0)) {
      throw set.notReady;
    }
    const plan = planPod(set, pod, this.options.interfacePrefix, this.options.capabilityStyle);
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
      // Another runtime of this thread may be setting the same pod up over the same cache dir.
      const done = await asSetupHere(ctx.cacheDir, pod.id, () =>
        setupAttachments(ctx, pod.id, plan),
      );
      if (done !== undefined) return done;
      throw new InterruptedSetupError(pod.id, intentPath(ctx.cacheDir, pod.id), true);
    });
  }

  /**
   * The pods whose setup was interrupted (the runtime died, or a rollback DEL failed): their
   * intent is on disk and no setup of theirs runs in this thread (any runtime), nor in another
   * thread of this process or a live process that wrote it.
   */
  async interruptedSetups(): Promise<string[]> {
    const cacheDir = cacheDirOf(this.cni);
    const pods = await podsWithIntents(cacheDir);
    const elsewhere = await Promise.all(
      pods.map(async (id) => {
        const intent = await readIntent(cacheDir, id);
        const owner = intent.kind === "attachments" ? intent.owner : undefined;
        return setupRunning(cacheDir, id, owner);
      }),
    );
    return pods.filter((_, i) => !elsewhere[i]).sort();
  }

  /**
   * Removes every attachment of the pod the cache holds (records, and an interrupted setup's
   * intent) in reverse attach order, each with its cached configuration; succeeds when nothing
   * is left. A pod with no record: see `ifNoRecords` (pass the Pod given to setupPod).
   * @throws PodTeardownError with every DEL that failed; with `"current-config"` and no record,
   *   setupPod's NoNetworksError and argument errors before anything runs; the signal's reason
   *   when aborted before any DEL ran (docs/runtime.md, "An aborted call").
   */
  async teardownPod(
    pod: PodRef | Pod,
    options: TeardownOptions = {},
  ): Promise<TornDownAttachment[]> {
    const id = podRefID(pod);
    assertOptions(options, "timeout");
    assertTeardownOptions(options);
    return this.traced(
      "teardown",
      id,
      options,
      (o) =>
        withLock(this.locks.pod(id, o.signal), () => {
          const set = this.current;
          const ctx = { ...this.context(set, o, pod), set };
          return teardownPodWith(ctx, pod, id, o.ifNoRecords, this.options);
        }),
      { netns: podNetns(pod) },
    );
  }

  /**
   * CHECKs every cached attachment of the pod with the configuration it was ADDed with; one
   * whose configuration has no CHECK (below 0.4.0, `disableCheck`) comes back `skipped`. With
   * `checkLoopback`, the loopback attachment's `lo` must be up (`loopbackUp: true`); a setup
   * intent on disk fails it too (an InterruptedSetupError: the pod is not whole).
   * @throws PodCheckError with every failure (`lo` down: a LoopbackDownError); PodNotFoundError
   *   when nothing is cached.
   */
  async checkPod(pod: PodRef, options: PodCallOptions = {}): Promise<CheckedAttachment[]> {
    const id = podRefID(pod);
    assertOptions(options, "timeout");
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
   * The pod's networks as the result cache holds them, in setupPod's shape (ocicni
   * `GetPodNetworkStatus`): runs no plugin, so it works after a restart and without the netns.
   * A setup intent on disk is in `problems` (an InterruptedSetupError).
   * @throws PodNotFoundError when nothing is cached for the pod.
   */
  async podStatus(pod: PodRef, options: PodCallOptions = {}): Promise<PodStatus> {
    const id = podRefID(pod);
    assertOptions(options, "timeout");
    return withLock(this.locks.pod(id, options.signal), () =>
      podStatusFromCache(this.context(this.current, options, pod), id),
    );
  }

  /**
   * Readiness, for a kubelet's NetworkReady: the default network's (and the loopback's) plugins
   * usable and `minReady` (default 1) networks ready; `reason` says why not (docs/runtime.md).
   */
  async status(options: PodCallOptions & { minReady?: number } = {}): Promise<StatusReport> {
    assertOptions(options, "timeout");
    const { minReady } = options;
    if (minReady !== undefined && !(Number.isSafeInteger(minReady) && minReady >= 0)) {
      throw new InvalidArgumentError("minReady", "minReady must be a non-negative integer");
    }
    // A plugin whose VERSION hangs must not hang readiness: 10 s unless a limit is given.
    const timeout = options.timeout ?? this.options.timeout ?? 10_000;
    return this.traced("status", "", { ...options, timeout }, (o) =>
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
   * DELs the cached attachments of the pods not in `validPods` (cached config), then gives each
   * network's plugins GC with their valid attachments; exclusive with pod calls. `dryRun: true`
   * runs and touches nothing (docs/runtime.md, "Previewing a GC").
   * @throws RuntimeGCError with every failure, after trying everything; InvalidArgumentError,
   *   before anything, for options with another key (a misspelled `dryRun`) or a `dryRun` that
   *   is not a boolean, and for `validPods` that is no list of valid pod IDs.
   */
  async gc(validPods: Iterable<PodRef>, options: GCOptions = {}): Promise<GCReport> {
    const odd = isJSONObject(options) ? Object.keys(options).find((k) => !gcOptionKeys.has(k)) : "";
    if (odd !== undefined) {
      const hint = odd && ` (it has ${JSON.stringify(odd)})`;
      const expected = "GCOptions { signal, traceContext, timeout, dryRun }";
      throw wrongTypeError("options", expected, options, hint);
    }
    assertOptions(options, "timeout");
    const dryRun = options.dryRun === undefined ? false : options.dryRun;
    if (typeof dryRun !== "boolean") {
      throw new InvalidArgumentError("dryRun", `dryRun must be a boolean, got ${typeof dryRun}`);
    }
    // One pod ID's characters would be the valid pods: the pod meant to be kept torn down.
    assertIterable(validPods, "validPods", "an iterable of pods, not one pod ID");
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
    assertOptions(options, "timeout");
    return new NetworkWatcher(this, this.options, options);
  }
}

/**
 * Loads the networks of a conf dir and returns the runtime over them (go-cni `New` + `Load`,
 * ocicni `InitCNI`). Broken files are in `runtime.problems`; a dir without a usable network
 * gives a runtime that is not ready until `watch()` or `reload()` brings one in (docs/runtime.md).
 * @throws InvalidArgumentError for bad options only.
 */
export async function loadNetworks(options: RuntimeOptions = {}): Promise<CNIRuntime> {
  assertOptions(options, "timeout");
  assertSpelled(options, runtimeOptionKeys, "options");
  return new CNIRuntime(await loadNetworkSet(options), options);
}
