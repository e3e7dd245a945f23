/**
 * A pod from its records: teardown, CHECK and status work from what the result cache holds
 * (pod-records.ts reads each record once), not from today's conf dir, so an edited or deleted
 * network, a gone netns or shifted interface-name indexes change nothing. Every attachment is
 * tried, each call under the runtime's per-network deadline, and the failures are thrown
 * together (the attachments whose records cannot be used are failures from the start).
 *
 * - Teardown DELs every attachment in reverse attach order with its cached configuration,
 *   netns, CNI_ARGS and capability args, passing on the record as it was read (the DEL reads
 *   nothing again) and requiring its removal (upstream ignores a record that stays; the next
 *   teardown or GC would then DEL it again). A pod with nothing cached is torn down already,
 *   unless the caller opts into the current configuration (`ifNoRecords: "current-config"`,
 *   as go-cni's `Remove` always DELs with its loaded networks and ocicni's `TearDownPod` falls
 *   back to them when the cache has no record).
 * - CHECK runs every recorded attachment in attach order, from its record as read (CHECK
 *   compares the plugin's state with the cached result, so today's edited configuration would
 *   report a false failure); with the runtime's loopback network, `lo` must also be up in the
 *   pod's netns (go-cni#124), since the loopback's configuration (0.3.1) has no CHECK.
 * - Status (ocicni's `GetPodNetworkStatus`) serves each cached result, from the record as read;
 *   no plugin runs.
 */

import type { CNIConfig, DelOptions } from "../api/index.js";
import { removeIntent, setAsideIntent } from "../cache/intent.js";
import { endOrphanedRuns } from "../cache/owner.js";
import { CheckNotSupportedError } from "../errors/api.js";
import { InvalidArgumentError, WrappedError } from "../errors/base.js";
import {
  type NetworkFailure,
  PodCheckError,
  PodNotFoundError,
  PodTeardownError,
} from "../errors/runtime.js";
import type { TraceContext } from "../internal/trace-context.js";
import type { Result, Result100 } from "../types/index.js";
import { greaterThanOrEqualTo } from "../version/index.js";
import type { CapabilityStyle } from "./capabilities.js";
import { withDeadline } from "./deadline.js";
import type { NetworkSet } from "./load.js";
import { checkLoopbackUp } from "./loopback-check.js";
import { planPod } from "./plan.js";
import {
  type CachedAttachment,
  type CachedConfig,
  cacheDirOf,
  cachedAttachments,
  cachedConfigVersion,
  type PodAttachments,
} from "./pod-records.js";
import { type AttachmentOutcome, type PodSetupResult, summarize } from "./summary.js";
import type { Pod, PodRef, TeardownOptions } from "./types.js";

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
   * Why no plugin was run: the cached configuration's version is below 0.4.0, which has no
   * CHECK (upstream's "does not support the CHECK command"; ocicni skips these too), or the
   * list sets `disableCheck`. Absent when the attachment was CHECKed.
   */
  skipped?: string;
  /**
   * checkPod only, on the runtime's loopback network (`loopback: true`): true when `lo` was
   * found up in the pod's netns (go-cni#124). Absent when it could not be looked at (no `ip`
   * here, no right to enter the namespace); `lo` down is a failure (LoopbackDownError).
   */
  loopbackUp?: true;
}

/** What a walk did: the attachments whose call succeeded, in call order, and the failures. */
export interface WalkOutcome {
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
 * What `podStatus` returns: `setupPod`'s summary rebuilt from the cache (interfaces, IPs, DNS,
 * routes), each attachment with its netns and cached result, and the records that could not be
 * read (`problems`), never dropped silently.
 */
export interface PodStatus extends PodSetupResult {
  attachments: PodAttachmentStatus[];
  problems: NetworkFailure[];
}

/** How the runtime plans a pod (its options), for the interface names and capability bytes. */
export interface PlanStyle {
  readonly interfacePrefix: string | undefined;
  readonly capabilityStyle: CapabilityStyle | undefined;
}

/** Why CHECK of this cached configuration runs no plugin, or undefined when it runs them. */
function checkSkipped(config: CachedConfig): string | undefined {
  const version = cachedConfigVersion(config);
  if (!greaterThanOrEqualTo(version, "0.4.0")) return new CheckNotSupportedError(version).message;
  if (config.kind === "list" && config.list.disableCheck) return "disableCheck is set";
  return undefined;
}

/**
 * DEL or CHECK of one cached attachment with its cached configuration: a list's verbs for a
 * list, a single plugin's for a plugin configuration, as upstream's `DelNetworkList` and
 * `DelNetwork` would run them, from the record as it was read (a recorded attachment's DEL must
 * remove it). Resolves to the skip reason of a CHECK that runs nothing.
 */
async function runCached(
  ctx: CacheCallContext,
  a: CachedAttachment,
  verb: "CHECK" | "DEL",
): Promise<string | undefined> {
  const skipped = verb === "CHECK" ? checkSkipped(a.config) : undefined;
  if (skipped !== undefined) return skipped;
  const { config, rt } = a;
  await withDeadline(a.network, verb, ctx.timeout, ctx.signal, (signal) => {
    // The record as read: neither verb reads it again; a DEL must remove it.
    const options: DelOptions = {
      signal,
      traceContext: ctx.traceContext,
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

/** True when the cache holds nothing at all for the pod. */
function nothingCached(pod: PodAttachments): boolean {
  return (
    pod.usable.length === 0 &&
    pod.unusable.length === 0 &&
    pod.interrupted.length === 0 &&
    pod.intent === "none"
  );
}

/**
 * DELs everything of a pod: first the attachments of an interrupted setup that have no record
 * (in reverse planned order), then the recorded ones in reverse attach order, each with what
 * it was started with; a record still there after its DEL is a failure (the next teardown or
 * GC retries it). The setup intent goes once every interrupted attachment is DELeted. A
 * damaged intent (nothing in it can be DELeted) is set aside and reported once, as a failure.
 */
export async function deleteAll(ctx: CacheCallContext, pod: PodAttachments): Promise<WalkOutcome> {
  // A setup whose owner died may have left a plugin running: it must be gone before its DEL,
  // or it could finish its ADD after it (cache/owner.ts).
  if (pod.run !== undefined) await endOrphanedRuns(pod.run);
  const failures: NetworkFailure[] = [];
  for (const u of pod.unusable) {
    if (pod.damagedIntent !== undefined && u.error === pod.damagedIntent) {
      // Reported here, once: the next teardown or GC no longer finds it under the pod's name.
      failures.push({ ...u, error: await setAsideIntent(cacheDirOf(ctx.cni), pod.damagedIntent) });
    } else {
      failures.push(u);
    }
  }
  const done: CheckedAttachment[] = [];
  let interruptedLeft = false;
  for (const a of [...pod.interrupted].reverse()) {
    try {
      await runCached(ctx, a, "DEL");
      done.push({ network: a.network, ifName: a.ifName });
    } catch (error) {
      interruptedLeft = true;
      failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  for (const a of [...pod.usable].reverse()) {
    try {
      await runCached(ctx, a, "DEL");
      done.push({ network: a.network, ifName: a.ifName });
    } catch (error) {
      failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  if (pod.intent === "read" && !interruptedLeft) {
    try {
      await removeIntent(cacheDirOf(ctx.cni), pod.podID);
    } catch (error) {
      failures.push({
        network: "",
        ifName: "",
        error: new WrappedError("remove setup intent", error),
      });
    }
  }
  return { done, failures };
}

const ifNoRecordsValues = ["nothing", "current-config"] as const;

/** @throws InvalidArgumentError for an `ifNoRecords` that is not one of its values. */
export function assertTeardownOptions(options: TeardownOptions): void {
  const value = options.ifNoRecords;
  if (value !== undefined && !(ifNoRecordsValues as readonly unknown[]).includes(value)) {
    throw new InvalidArgumentError(
      "ifNoRecords",
      `ifNoRecords must be "nothing" or "current-config", got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * teardownPod under the pod's lock: every cached attachment DELeted (see {@link deleteAll});
 * for a pod the cache holds nothing for, nothing, or with `ifNoRecords: "current-config"` the
 * current configuration's DELs. The pod's records are read once, whichever way it goes.
 * @throws PodTeardownError with every DEL that failed; with `"current-config"` and no record,
 *   NoNetworksError when the runtime is not ready and the pod names no networks, and
 *   setupPod's argument errors before anything runs.
 */
export async function teardownPodWith(
  ctx: CacheCallContext & { readonly set: NetworkSet },
  pod: PodRef | Pod,
  id: string,
  options: TeardownOptions,
  style: PlanStyle,
): Promise<TornDownAttachment[]> {
  const cached = await cachedAttachments(ctx.cni, id, ctx.set, ctx.netns);
  if (!nothingCached(cached)) {
    const { done, failures } = await deleteAll(ctx, cached);
    if (failures.length > 0) throw new PodTeardownError(id, failures);
    return done;
  }
  if ((options.ifNoRecords ?? "nothing") === "nothing") return [];
  return teardownWithCurrentConfig(ctx, pod, id, style);
}

/**
 * DELs the pod's networks with the current configuration, in reverse attach order, on the
 * interfaces setupPod's plan gives for the same pod (its `networks`, else every network of the
 * set, the default network first); every network is tried, the failures thrown together.
 * @throws NoNetworksError when the set cannot say which networks (not ready and the pod names
 *   none, or no network at all), as go-cni's `Status` check and ocicni's `networksAvailable`;
 *   InvalidArgumentError, InterfaceNameError, CapabilityArgError, NetworkNotFoundError before
 *   anything runs; PodTeardownError with every DEL that failed.
 */
async function teardownWithCurrentConfig(
  ctx: CacheCallContext & { readonly set: NetworkSet },
  pod: PodRef | Pod,
  id: string,
  style: PlanStyle,
): Promise<TornDownAttachment[]> {
  const { set } = ctx;
  const given = typeof pod === "string" ? {} : (pod as Partial<Pod>);
  if (set.notReady !== undefined && (given.networks === undefined || set.networks.length === 0)) {
    // Every network of a set without its default would be planned on other interface names
    // than the pod got (the default network's eth0 going to the next one): not guessed.
    throw set.notReady;
  }
  const plan = planPod(
    set,
    {
      id,
      netns: ctx.netns ?? "",
      networks: given.networks,
      capabilities: given.capabilities,
      args: given.args,
    },
    style.interfacePrefix,
    style.capabilityStyle,
  );
  const done: TornDownAttachment[] = [];
  const failures: NetworkFailure[] = [];
  for (const a of [...plan].reverse()) {
    try {
      await withDeadline(a.network.name, "DEL", ctx.timeout, ctx.signal, (signal) =>
        ctx.cni.delNetworkList(a.network.config, a.rt, {
          signal,
          traceContext: ctx.traceContext,
        }),
      );
      done.push({ network: a.network.name, ifName: a.ifName, fromCurrentConfig: true });
    } catch (error) {
      failures.push({ network: a.network.name, ifName: a.ifName, error });
    }
  }
  if (failures.length > 0) throw new PodTeardownError(id, failures);
  return done;
}

/**
 * CHECKs every cached attachment of the pod, in attach order; returns each one, those whose
 * configuration has no CHECK (below 0.4.0, or `disableCheck`) marked `skipped` with the
 * reason, never silently; with `lookAtLoopback`, the runtime's loopback attachment with
 * `loopbackUp` when `lo` was found up, and a failure when it was found down.
 * @throws PodNotFoundError when nothing is recorded; PodCheckError with every failure.
 */
export async function checkFromCache(
  ctx: CacheCallContext,
  podID: string,
  lookAtLoopback = false,
): Promise<CheckedAttachment[]> {
  const { usable, unusable } = await cachedAttachments(ctx.cni, podID, ctx.set, ctx.netns);
  if (usable.length === 0 && unusable.length === 0) throw new PodNotFoundError(podID);
  const outcome: WalkOutcome = { done: [], failures: [...unusable] };
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

/**
 * The runtime's loopback attachment, when the pod has one and its CHECK (none: skipped) did not
 * fail: `lo` looked at in the netns its record names (else the one the caller gave). Up: the
 * attachment says `loopbackUp`; down, or the netns gone: it becomes a failure, first, as it is
 * first in attach order.
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

function cachedResult(ctx: CacheCallContext, a: CachedAttachment): Promise<Result | undefined> {
  const options = { signal: ctx.signal, cachedRecord: a.record };
  return a.config.kind === "list"
    ? ctx.cni.getNetworkListCachedResult(a.config.list, a.rt, options)
    : ctx.cni.getNetworkCachedResult(a.config.plugin, a.rt, options);
}

/** The pod's status from its records, in attach order. @throws PodNotFoundError */
export async function podStatusFromCache(ctx: CacheCallContext, podID: string): Promise<PodStatus> {
  const { usable, unusable } = await cachedAttachments(ctx.cni, podID, ctx.set, ctx.netns);
  if (usable.length === 0 && unusable.length === 0) throw new PodNotFoundError(podID);
  const problems: NetworkFailure[] = [...unusable];
  const outcomes: AttachmentOutcome[] = [];
  for (const a of usable) {
    try {
      const result = await cachedResult(ctx, a);
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
