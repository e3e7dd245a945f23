/**
 * A pod from its records: teardown, CHECK and status work from what the result cache holds,
 * each record read once (its bytes passed on to its verb), not from today's conf dir, so an
 * edited or deleted network, a gone netns or shifted interface names change nothing. Every
 * attachment is tried, each under the per-network deadline, and the failures thrown together
 * (a record that cannot be used is one from the start). Teardown requires each record's removal
 * (upstream ignores a record that stays; the next teardown or GC would DEL it again).
 *
 * Attach order: Go's record format has no sequence number, so it is the records' modification
 * times as each read's fstat saw them (a record is written when its ADD succeeds), ties (one
 * kernel tick) broken by the interface names' allocation order (`lo`, `eth0`, `net1`, ...).
 */

import { join } from "node:path";
import {
  CacheDir,
  type CallOptions,
  type CNIConfig,
  type NetworkAttachment,
  type RuntimeConf,
} from "../api/index.js";
import {
  type IntentRead,
  readIntent,
  removeIntent,
  settleIntent,
  setupRunning,
} from "../cache/intent.js";
import { readRecord } from "../cache/read.js";
import { CNICacheV1, decodeCacheRecord, restoreCapabilityStructs } from "../cache/record.js";
import { cacheFilePath, readPodRecords, removeCacheRecord, resultsDir } from "../cache/results.js";
import {
  type NetworkConfigList,
  networkConfFromBytes,
  networkPluginConfFromBytes,
  type PluginConfig,
} from "../conf/index.js";
import { isTempName } from "../engines/file-write.js";
import { CheckNotSupportedError } from "../errors/api.js";
import { InvalidArgumentError, LibcniError, WrappedError } from "../errors/base.js";
import { CorruptCacheRecordError } from "../errors/cache.js";
import { NetnsError } from "../errors/netns.js";
import {
  InterruptedSetupError,
  LoopbackDownError,
  type NetworkFailure,
  NetworkTimeoutError,
  PodCheckError,
  PodNotFoundError,
  PodTeardownError,
} from "../errors/runtime.js";
import { debug } from "../internal/diagnostics.js";
import { attempt, messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { limitedSignal } from "../internal/timer-limit.js";
import type { TraceContext } from "../internal/trace-context.js";
import { isNetns } from "../netns/check.js";
import type { Result100 } from "../types/index.js";
import { validateContainerID } from "../utils/index.js";
import { greaterThanOrEqualTo } from "../version/index.js";
import type { NetworkSet } from "./load.js";
import { type PlannedAttachment, planPod } from "./plan.js";
import { type AttachmentOutcome, type PodSetupResult, summarize } from "./summary.js";
import type { CapabilityStyle, IfNoRecords, Pod, PodRef, TeardownOptions } from "./types.js";

/** What teardown, check, status and GC need from the runtime. */
export interface CacheCallContext {
  readonly cni: CNIConfig;
  readonly set: NetworkSet | undefined;
  readonly timeout: number;
  readonly signal: AbortSignal | undefined;
  /** Passed to every plugin of the call (`TRACEPARENT`, ...). */
  readonly traceContext: TraceContext | undefined;
  /** The netns for records that hold none (the caller's PodRef), else undefined. */
  readonly netns?: string | undefined;
}

/** One attachment a teardown removed (or a check checked). */
export interface RemovedAttachment {
  network: string;
  ifName: string;
}

/** One attachment teardownPod removed. */
export interface TornDownAttachment extends RemovedAttachment {
  /**
   * True when the pod had no record and the attachment was DELeted with the current
   * configuration (`ifNoRecords: "current-config"`); absent when DELeted from its record.
   */
  fromCurrentConfig?: true;
}

/** One attachment a check looked at: checked, or skipped with the reason. */
export interface CheckedAttachment extends RemovedAttachment {
  /**
   * Why no plugin ran: the cached configuration is below 0.4.0, which has no CHECK (ocicni
   * skips these too), or sets `disableCheck`. Absent when the attachment was CHECKed.
   */
  skipped?: string;
  /**
   * checkPod, on the loopback network: true when `lo` was found up in the pod's netns; absent
   * when it could not be looked at (`lo` down is a LoopbackDownError).
   */
  loopbackUp?: true;
}

/** The attachments whose call succeeded, in call order, and the failures. */
interface WalkOutcome {
  done: CheckedAttachment[];
  failures: NetworkFailure[];
}

/** One cached attachment of a pod, with what it was set up with and its result. */
export interface PodAttachmentStatus {
  network: string;
  ifName: string;
  /** The netns path it was ADDed with. */
  netns: string;
  /** The cached result, converted to 1.1.0 (undefined when the record holds none). */
  result: Result100 | undefined;
}

/**
 * What `podStatus` returns: `setupPod`'s summary rebuilt from the cache, each attachment with its
 * netns and cached result, and the records that could not be read (`problems`).
 */
export interface PodStatus extends PodSetupResult {
  attachments: PodAttachmentStatus[];
  problems: NetworkFailure[];
}

/** How the runtime plans a pod (its options), for the interface names and capability bytes. */
export interface PlanStyle {
  readonly interfacePrefix?: string | undefined;
  readonly capabilityStyle?: CapabilityStyle | undefined;
}

/**
 * Runs `fn` with the call's options: its trace context, and a signal that aborts on the call's
 * or after `ctx.timeout` ms (0: no limit), which stops the network's plugin; the call then
 * rejects with a NetworkTimeoutError whose `cause` is what the plugin run ended with.
 */
export async function withDeadline<T>(
  ctx: CacheCallContext,
  network: string,
  verb: string,
  fn: (options: CallOptions) => Promise<T>,
): Promise<T> {
  const { timeout, signal, traceContext } = ctx;
  if (!(timeout > 0)) return fn({ signal, traceContext });
  const limit = limitedSignal(
    signal,
    timeout,
    () => new NetworkTimeoutError(network, verb, timeout),
  );
  try {
    return await fn({ signal: limit.signal, traceContext });
  } catch (error) {
    if (limit.signal.aborted && !signal?.aborted) {
      if (error instanceof NetworkTimeoutError) throw error;
      throw new NetworkTimeoutError(network, verb, timeout, error);
    }
    throw error;
  } finally {
    limit.end();
  }
}

/** A record's configuration (upstream's `GetNetworkCachedConfig`): a list, or one plugin's. */
type CachedConfig =
  | { readonly kind: "list"; readonly list: NetworkConfigList }
  | { readonly kind: "plugin"; readonly plugin: PluginConfig };

/** One cached attachment, ready for a verb. */
interface CachedAttachment {
  readonly network: string;
  readonly ifName: string;
  /** The cached configuration (or the loaded list when it has the same bytes). */
  readonly config: CachedConfig;
  readonly rt: RuntimeConf;
  /** The record's bytes as read (its DEL passes them on); undefined for an intent's. */
  readonly record?: Uint8Array | undefined;
}

/**
 * A record's configuration by its kind: a list when it has plugins (or an explicit, empty
 * `plugins`), else a plugin's when it has a `type`. The list parser alone would take a plugin's
 * for a list without plugins, whose DEL would run nothing and drop the record: a leak.
 */
function decodeCachedConfig(att: NetworkAttachment, bytes: Uint8Array): CachedConfig {
  const list = networkConfFromBytes(bytes);
  if (list.plugins.length > 0) return { kind: "list", list };
  try {
    return { kind: "plugin", plugin: networkPluginConfFromBytes(bytes) };
  } catch (error) {
    const value: unknown = attempt(() => JSON.parse(new TextDecoder().decode(bytes)));
    if (isJSONObject(value) && Object.hasOwn(value, "plugins")) return { kind: "list", list };
    throw new LibcniError(
      `cached configuration of ${att.network}/${att.ifName} is neither a network list nor a plugin configuration: ${messageOf(error)}`,
      { cause: error },
    );
  }
}

function configOf(att: NetworkAttachment, set: NetworkSet | undefined): CachedConfig {
  const loaded = set?.get(att.network)?.config;
  if (att.config === undefined) {
    if (loaded !== undefined) return { kind: "list", list: loaded };
    throw new LibcniError(
      `cached attachment ${att.network}/${att.ifName} has no configuration and network ${att.network} is not loaded`,
    );
  }
  // The loaded list has the drop-in plugins (<confDir>/<name>/*.conf) that the bytes lack.
  if (loaded !== undefined && Buffer.compare(loaded.bytes, att.config) === 0) {
    return { kind: "list", list: loaded };
  }
  const config = decodeCachedConfig(att, att.config);
  const name = config.kind === "list" ? config.list.name : config.plugin.network.name;
  if (name !== att.network) {
    // Upstream's lookups key the record by the network's name; a mismatch would miss the result.
    throw new LibcniError(
      `cached configuration of ${att.network}/${att.ifName} names network ${name}`,
    );
  }
  return config;
}

/** Interface-name order: `lo`, then by the trailing number (eth0, net1, net2), then by name. */
export function compareIfNames(a: string, b: string): number {
  const key = (s: string): [number, number] => {
    if (s === "lo") return [0, 0];
    const m = /(\d+)$/.exec(s);
    return [1, m ? Number(m[1]) : Number.POSITIVE_INFINITY];
  };
  const [ra, na] = key(a);
  const [rb, nb] = key(b);
  if (ra !== rb) return ra - rb;
  if (na !== nb) return na < nb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The cache directory a CNIConfig uses. */
export function cacheDirOf(cni: CNIConfig): string {
  return cni.cacheDir === "" ? CacheDir : cni.cacheDir;
}

function toCached(
  att: NetworkAttachment,
  set: NetworkSet | undefined,
  netns: string | undefined,
  record?: Uint8Array,
): CachedAttachment {
  const rt: RuntimeConf = {
    containerID: att.containerID,
    netNS: att.netNS === "" ? (netns ?? "") : att.netNS,
    ifName: att.ifName,
  };
  if (att.cniArgs !== undefined) rt.args = att.cniArgs;
  if (att.capabilityArgs !== undefined) {
    rt.capabilityArgs = restoreCapabilityStructs(att.capabilityArgs);
  }
  return { network: att.network, ifName: att.ifName, config: configOf(att, set), rt, record };
}

/** A pod's attachments as the cache and its setup intent hold them. */
interface PodAttachments {
  readonly podID: string;
  /** The recorded attachments, in attach order. */
  usable: CachedAttachment[];
  /** Records (or an intent) that cannot be used. */
  unusable: NetworkFailure[];
  /** An interrupted setup's attachments that have no record, in planned order. */
  interrupted: CachedAttachment[];
  /** An interrupted attachment cannot be readied for its DEL (see `unusable`): the intent stays. */
  interruptedUnusable?: boolean;
  /** The pod's setup intent as read (one that cannot be read is also in `unusable`). */
  intent: IntentRead;
}

/**
 * The pod's records that the listing skipped (upstream's `GetCachedAttachments` skips what it
 * cannot decode: nested past Go's 10,000 levels, a field of the wrong type) but whose top level
 * names the pod: nothing can DEL them as ADDed, and passing over them would report the pod
 * removed while they stay. A name alone is ambiguous (`n-a-b-eth0`: pod `a`'s or `a-b`'s).
 */
async function undecodableRecords(
  cacheDir: string,
  podID: string,
  names: readonly string[],
  listed: readonly NetworkAttachment[],
  signal: AbortSignal | undefined,
): Promise<NetworkFailure[]> {
  if (podID === "") return [];
  const dir = resultsDir(cacheDir);
  const seen = new Set(listed.map((a) => `${a.network}-${a.containerID}-${a.ifName}`));
  const part = `-${podID}-`;
  const out: NetworkFailure[] = [];
  for (const name of names) {
    if (seen.has(name) || isTempName(name) || name.indexOf(part) <= 0) continue;
    const path = join(dir, name);
    const found = await readRecord(path, signal);
    if (found.kind !== "bytes") continue;
    // V8's parser takes any depth, and only the top level is looked at.
    const top: unknown = attempt(() => JSON.parse(new TextDecoder().decode(found.bytes)));
    if (!isJSONObject(top) || top.kind !== CNICacheV1 || top.containerId !== podID) continue;
    try {
      decodeCacheRecord(found.bytes);
      // Decoded after all: written since the listing, or without a name (skipped as upstream).
    } catch (error) {
      out.push({
        network: typeof top.networkName === "string" ? top.networkName : "",
        ifName: typeof top.ifName === "string" ? top.ifName : "",
        error: new CorruptCacheRecordError(path, `cannot be decoded: ${messageOf(error)}`),
      });
    }
  }
  return out;
}

/**
 * The pod's attachments: its records in attach order, those that cannot be used, and the
 * attachments of an interrupted setup that have no record. A record without a netns (written
 * by Go libcni before 1.2) gets the caller's `netns`. No record is read once `signal` aborted.
 */
export async function cachedAttachments(
  ctx: CacheCallContext,
  podID: string,
): Promise<PodAttachments> {
  const { set, netns, signal } = ctx;
  const cacheDir = cacheDirOf(ctx.cni);
  // A pod ID that could not be a file name (a record's, read by GC) has no intent.
  const [{ records, names }, intent] = await Promise.all([
    readPodRecords(cacheDir, podID, signal),
    validateContainerID(podID) === undefined
      ? readIntent(cacheDir, podID)
      : ({ kind: "none" } as const),
  ]);
  // Oldest first (a nonzero bigint is a nonzero number), then by interface name.
  records.sort(
    (x, y) =>
      Number(x.mtimeNs - y.mtimeNs) || compareIfNames(x.attachment.ifName, y.attachment.ifName),
  );
  const found = records.map((r) => r.attachment);
  const out: PodAttachments = { podID, usable: [], unusable: [], interrupted: [], intent };
  for (const { attachment: att, bytes } of records) {
    try {
      out.usable.push(toCached(att, set, netns, bytes));
    } catch (error) {
      out.unusable.push({ network: att.network, ifName: att.ifName, error });
    }
  }
  out.unusable.push(...(await undecodableRecords(cacheDir, podID, names, found, signal)));
  if (intent.kind === "unusable") {
    out.unusable.push({ network: "", ifName: "", error: intent.error });
  } else if (intent.kind === "attachments") {
    const recorded = new Set(found.map((a) => `${a.network}\0${a.ifName}`));
    for (const att of intent.attachments) {
      if (recorded.has(`${att.network}\0${att.ifName}`)) continue;
      try {
        out.interrupted.push(toCached(att, set, netns));
      } catch (error) {
        out.unusable.push({ network: att.network, ifName: att.ifName, error });
        out.interruptedUnusable = true;
      }
    }
  }
  return out;
}

/** Why CHECK of this cached configuration runs no plugin, or undefined when it runs them. */
function checkSkipped(config: CachedConfig): string | undefined {
  const version =
    config.kind === "list" ? config.list.cniVersion : config.plugin.network.cniVersion;
  if (!greaterThanOrEqualTo(version, "0.4.0")) return new CheckNotSupportedError(version).message;
  if (config.kind === "list" && config.list.disableCheck) return "disableCheck is set";
  return undefined;
}

/**
 * DEL or CHECK of one cached attachment with its configuration's verbs (a list's or a single
 * plugin's, as upstream's `DelNetworkList` and `DelNetwork`), from the record as it was read;
 * a recorded attachment's DEL must remove it. Resolves to the skip reason of a CHECK that runs
 * nothing.
 */
async function runCached(
  ctx: CacheCallContext,
  a: CachedAttachment,
  verb: "CHECK" | "DEL",
): Promise<string | undefined> {
  const skipped = verb === "CHECK" ? checkSkipped(a.config) : undefined;
  if (skipped !== undefined) return skipped;
  const { config, rt } = a;
  await withDeadline(ctx, a.network, verb, (callOptions) => {
    const options = {
      ...callOptions,
      cachedRecord: a.record,
      requireRecordRemoved: verb === "DEL" && a.record !== undefined,
    };
    if (config.kind === "plugin") {
      return verb === "DEL"
        ? ctx.cni.delNetwork(config.plugin, rt, options)
        : ctx.cni.checkNetwork(config.plugin, rt, options);
    }
    return verb === "DEL"
      ? ctx.cni.delNetworkList(config.list, rt, options)
      : ctx.cni.checkNetworkList(config.list, rt, options);
  });
  return undefined;
}

/** DELs `list` in reverse order: the DELs that succeeded and those that failed, in DEL order. */
export async function delReversed(
  ctx: CacheCallContext,
  list: readonly CachedAttachment[],
): Promise<WalkOutcome> {
  const outcome: WalkOutcome = { done: [], failures: [] };
  for (const a of [...list].reverse()) {
    try {
      await runCached(ctx, a, "DEL").catch(async (error) => {
        if (!alreadyGone(error, a.rt.netNS)) throw error;
        debug("teardown %s/%s: DEL said %s: taken as gone", a.network, a.ifName, messageOf(error));
        // Its record goes too: one read, or one its setup wrote (a rollback's, read by nobody);
        // a record that cannot go is this attachment's failure, and the walk goes on.
        const path = cacheFilePath(cacheDirOf(ctx.cni), a.network, a.rt.containerID, a.ifName);
        await removeCacheRecord(path, { strict: true });
      });
      outcome.done.push({ network: a.network, ifName: a.ifName });
    } catch (error) {
      outcome.failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  return outcome;
}

/**
 * go-cni's `Remove` rule: a plugin whose DEL fails saying "not found" (or, without a netns, "no
 * such file or directory") has nothing left to remove, so teardown goes on and its record goes:
 * a retry would fail the same way for ever (a kubelet's StopPodSandbox loop never ending).
 */
const alreadyGone = (error: unknown, netns: string): boolean =>
  messageOf(error).includes("not found") ||
  (netns === "" && messageOf(error).includes("no such file or directory"));

/** Planned attachments, ready for a verb with their network's loaded list. */
export function plannedAttachments(plan: readonly PlannedAttachment[]): CachedAttachment[] {
  return plan.map(({ network, ifName, rt }) => ({
    network: network.name,
    ifName,
    config: { kind: "list", list: network.config } as const,
    rt,
  }));
}

/**
 * DELs everything of a pod: first the attachments of an interrupted setup that have no record
 * (in reverse planned order), then the recorded ones in reverse attach order. The intent is
 * settled first (`settleIntent`: a damaged one is reported once, as a failure), and goes once
 * every interrupted attachment is DELeted (one that could not be readied keeps it).
 */
export async function deleteAll(ctx: CacheCallContext, pod: PodAttachments): Promise<WalkOutcome> {
  const { intent } = pod;
  const damaged = await settleIntent(cacheDirOf(ctx.cni), pod.podID, intent);
  const failures: NetworkFailure[] = pod.unusable.map((u) =>
    intent.kind === "unusable" && u.error === intent.error ? { ...u, error: damaged } : u,
  );
  const interrupted = await delReversed(ctx, pod.interrupted);
  const recorded = await delReversed(ctx, pod.usable);
  failures.push(...interrupted.failures, ...recorded.failures);
  if (
    intent.kind === "attachments" &&
    interrupted.failures.length === 0 &&
    !pod.interruptedUnusable
  ) {
    await removeIntent(intent.path).catch((cause: unknown) => {
      const error = new WrappedError("remove setup intent", cause);
      failures.push({ network: "", ifName: "", error });
    });
  }
  return { done: [...interrupted.done, ...recorded.done], failures };
}

/** @throws InvalidArgumentError for an `ifNoRecords` that is not one of its values. */
export function assertTeardownOptions(options: TeardownOptions): void {
  const value: unknown = options.ifNoRecords;
  if (value !== undefined && value !== "nothing" && value !== "current-config") {
    const message = `ifNoRecords must be "nothing" or "current-config", got ${JSON.stringify(value)}`;
    throw new InvalidArgumentError("ifNoRecords", message);
  }
}

/**
 * The attachments setupPod's plan gives the pod now (its `networks`, else every network of the
 * set), to tear down a pod with no record (go-cni's `Remove`, ocicni's `TearDownPod` fallback).
 * @throws NoNetworksError when the set cannot say which networks (not ready and the pod names
 *   none, or no network at all), as go-cni's `Status` check and ocicni's `networksAvailable`;
 *   setupPod's argument errors (the ID is valid: the verb's entry checked it).
 */
function currentAttachments(
  set: NetworkSet,
  netns: string | undefined,
  pod: PodRef | Pod,
  id: string,
  style: PlanStyle,
): PodAttachments {
  const given = typeof pod === "string" ? {} : (pod as Partial<Pod>);
  if (set.notReady !== undefined && (given.networks === undefined || set.networks.length === 0)) {
    // Every network of a set without its default would be planned on other interface names
    // than the pod got (the default network's eth0 going to the next one): not guessed.
    throw set.notReady;
  }
  const { networks, capabilities, args } = given;
  const plan = planPod(
    set,
    { id, netns: netns ?? "", networks, capabilities, args },
    style.interfacePrefix,
    style.capabilityStyle,
  );
  const usable = plannedAttachments(plan);
  return { podID: id, usable, unusable: [], interrupted: [], intent: { kind: "none" } };
}

/**
 * teardownPod, under the pod's lock.
 * @throws PodTeardownError with every DEL that failed; see {@link currentAttachments}.
 */
export async function teardownPodWith(
  ctx: CacheCallContext & { readonly set: NetworkSet },
  pod: PodRef | Pod,
  id: string,
  ifNoRecords: IfNoRecords | undefined,
  style: PlanStyle,
): Promise<TornDownAttachment[]> {
  let attachments = await cachedAttachments(ctx, id);
  const { usable, unusable, interrupted, intent } = attachments;
  const nothingCached =
    usable.length + unusable.length + interrupted.length === 0 && intent.kind === "none";
  if (nothingCached) {
    if (ifNoRecords !== "current-config") return [];
    attachments = currentAttachments(ctx.set, ctx.netns, pod, id, style);
  }
  const { done, failures } = await deleteAll(ctx, attachments);
  if (failures.length > 0) throw new PodTeardownError(id, failures);
  return nothingCached ? done.map((a) => ({ ...a, fromCurrentConfig: true })) : done;
}

/**
 * The pod's records for CHECK and status, and its problems: what cannot be used, and a setup
 * intent (the pod is not whole: its setup was interrupted, or runs in another thread or process).
 * @throws PodNotFoundError when the cache holds nothing of the pod.
 */
async function recordedAndProblems(ctx: CacheCallContext, podID: string) {
  const { usable, unusable, intent } = await cachedAttachments(ctx, podID);
  const problems = [...unusable];
  if (intent.kind === "attachments") {
    const running = await setupRunning(cacheDirOf(ctx.cni), podID, intent.owner);
    const error = new InterruptedSetupError(podID, intent.path, running);
    problems.push({ network: "", ifName: "", error });
  }
  if (usable.length === 0 && problems.length === 0) throw new PodNotFoundError(podID);
  return { usable, problems };
}

/**
 * CHECKs every cached attachment of the pod, in attach order (see checkPod); with
 * `lookAtLoopback`, `lo` in the runtime's loopback attachment too.
 * @throws PodNotFoundError when nothing is recorded; PodCheckError with every failure.
 */
export async function checkFromCache(
  ctx: CacheCallContext,
  podID: string,
  lookAtLoopback = false,
): Promise<CheckedAttachment[]> {
  const { usable, problems } = await recordedAndProblems(ctx, podID);
  const outcome: WalkOutcome = { done: [], failures: problems };
  const checked: CachedAttachment[] = [];
  for (const a of usable) {
    try {
      const skipped = await runCached(ctx, a, "CHECK");
      outcome.done.push({ network: a.network, ifName: a.ifName, ...(skipped && { skipped }) });
      checked.push(a);
    } catch (error) {
      outcome.failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  if (lookAtLoopback) await checkLoopback(ctx, podID, outcome, checked);
  if (outcome.failures.length > 0) throw new PodCheckError(podID, outcome.failures);
  return outcome.done;
}

/** How long the look may take when the call has no per-network time limit. */
const defaultProbeMs = 10_000;

/**
 * lo's flags from `ip -o link show dev lo` (`1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 ...`), or
 * undefined when the line is not that.
 */
export function loopbackFlags(output: string): string[] | undefined {
  const match = /^\d+:\s+lo(?:@\S+)?:\s+<([^>]*)>/m.exec(output);
  if (match === null) return undefined;
  return (match[1] ?? "").split(",").filter((f) => f !== "");
}

/**
 * Looks at `lo` in `netns` with `ip -o link show dev lo`, run there through libcni/netns's
 * execInNetns (nothing blocks the event loop, nothing forks here): true when it is up,
 * undefined when it could not be looked at (no `ip`, no right to enter the namespace: said on
 * the debug log, not the pod's failure).
 * @throws LoopbackDownError when it is down or the netns is gone.
 */
async function checkLoopbackUp(
  podID: string,
  netns: string,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<true | undefined> {
  // The namespace itself first: a pod whose netns is gone cannot have lo up (and execInNetns
  // would refuse it for reasons of its own).
  if (!(await isNetns(netns))) throw new LoopbackDownError(podID, netns, "no-netns");
  // Loaded on first use: a runtime without the loopback network never loads the exec part.
  const { execInNetns } = await import("../netns/exec.js");
  let result: Awaited<ReturnType<typeof execInNetns>>;
  try {
    result = await execInNetns(netns, ["ip", "-o", "link", "show", "dev", "lo"], {
      signal,
      timeoutMs: timeout > 0 ? timeout : defaultProbeMs,
      maxOutputBytes: 64 * 1024,
      env: { PATH: process.env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin", LC_ALL: "C" },
    });
  } catch (error) {
    // Gone since it was looked at: as above.
    if (error instanceof NetnsError && error.reason === "not-a-netns") {
      throw new LoopbackDownError(podID, netns, "no-netns", [], { cause: error });
    }
    debug("check pod %s: lo not looked at in %s: %s", podID, netns, messageOf(error));
    return undefined;
  }
  const flags = result.exitCode === 0 ? loopbackFlags(result.stdout) : undefined;
  if (flags === undefined) {
    const why = `ip exited ${result.exitCode ?? result.signal}: ${result.stderr.trim()}`;
    debug("check pod %s: lo not looked at in %s: %s", podID, netns, why);
    return undefined;
  }
  if (!flags.includes("UP")) throw new LoopbackDownError(podID, netns, "down", flags);
  return true;
}

/**
 * `lo` looked at in the netns of the pod's loopback attachment, when it has one whose CHECK (a
 * skip) did not fail (go-cni#124: the loopback's 0.3.1 has no CHECK). Up: the attachment says
 * `loopbackUp`; down, or the netns gone: it becomes a failure, first, as in attach order.
 */
async function checkLoopback(
  ctx: CacheCallContext,
  podID: string,
  outcome: WalkOutcome,
  checked: readonly CachedAttachment[],
): Promise<void> {
  const loopback = ctx.set?.networks.find((n) => n.loopback);
  if (loopback === undefined) return;
  const at = checked.findIndex((a) => a.network === loopback.name && a.ifName === "lo");
  const attachment = outcome.done[at];
  const netns = checked[at]?.rt.netNS;
  if (attachment === undefined || netns === undefined || netns === "") return;
  try {
    if (await checkLoopbackUp(podID, netns, ctx.timeout, ctx.signal)) {
      outcome.done[at] = { ...attachment, loopbackUp: true };
    }
  } catch (error) {
    outcome.done.splice(at, 1);
    outcome.failures.unshift({ network: attachment.network, ifName: attachment.ifName, error });
  }
}

/** The pod's status from its records, in attach order. @throws PodNotFoundError */
export async function podStatusFromCache(ctx: CacheCallContext, podID: string): Promise<PodStatus> {
  const { usable, problems } = await recordedAndProblems(ctx, podID);
  const outcomes: AttachmentOutcome[] = [];
  for (const a of usable) {
    const options = { signal: ctx.signal, cachedRecord: a.record };
    try {
      const result = await (a.config.kind === "list"
        ? ctx.cni.getNetworkListCachedResult(a.config.list, a.rt, options)
        : ctx.cni.getNetworkCachedResult(a.config.plugin, a.rt, options));
      outcomes.push({ network: a.network, ifName: a.ifName, netns: a.rt.netNS, result });
    } catch (error) {
      problems.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  const summary = summarize(podID, outcomes);
  const attachments = summary.raw.map((r, i) => ({
    network: r.network,
    ifName: r.ifName,
    netns: outcomes[i].netns,
    result: outcomes[i].result === undefined ? undefined : r.result,
  }));
  return Object.defineProperties(
    { ...summary, attachments, problems },
    { raw: { value: summary.raw, enumerable: false } },
  );
}
