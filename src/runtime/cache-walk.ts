/**
 * The walk teardown and check share: every cached attachment of a pod, one after another, each
 * call under the runtime's per-network deadline, every attachment tried and the failures kept
 * (the attachments whose records cannot be used are failures from the start).
 */

import { unlink } from "node:fs/promises";
import type { CNIConfig } from "../api/index.js";
import { removeIntent, setAsideIntent } from "../cache/intent.js";
import { endOrphanedRuns } from "../cache/owner.js";
import { cacheFilePath } from "../cache/results.js";
import { CheckNotSupportedError } from "../errors/api.js";
import { WrappedError } from "../errors/base.js";
import { CacheRecordRemoveError } from "../errors/cache.js";
import type { NetworkFailure } from "../errors/runtime.js";
import { errnoCode } from "../internal/errno.js";
import type { TraceContext } from "../internal/trace-context.js";
import { greaterThanOrEqualTo } from "../version/index.js";
import {
  type CachedAttachment,
  type CachedConfig,
  cacheDirOf,
  cachedAttachments,
  cachedConfigVersion,
  type PodAttachments,
} from "./cached.js";
import { withDeadline } from "./deadline.js";
import type { NetworkSet } from "./load.js";

/** What teardown and check need from the runtime. */
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
 * `DelNetwork` would run them. Resolves to the skip reason of a CHECK that runs nothing.
 */
export async function runCached(
  ctx: CacheCallContext,
  a: CachedAttachment,
  verb: "CHECK" | "DEL",
): Promise<string | undefined> {
  const skipped = verb === "CHECK" ? checkSkipped(a.config) : undefined;
  if (skipped !== undefined) return skipped;
  const { config, rt } = a;
  await withDeadline(a.network, verb, ctx.timeout, ctx.signal, (signal) => {
    const options = { signal, traceContext: ctx.traceContext };
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

/** The record of a DELed attachment must be gone: upstream ignores a failed removal. */
async function recordGone(ctx: CacheCallContext, a: CachedAttachment): Promise<void> {
  const path = cacheFilePath(cacheDirOf(ctx.cni), a.network, a.rt.containerID, a.ifName);
  try {
    await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw new CacheRecordRemoveError(path, error);
  }
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
  // or it could finish its ADD after it (owner.ts).
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
      await recordGone(ctx, a);
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

/** True when the cache holds nothing at all for the pod. */
export function nothingCached(pod: PodAttachments): boolean {
  return (
    pod.usable.length === 0 &&
    pod.unusable.length === 0 &&
    pod.interrupted.length === 0 &&
    pod.intent === "none"
  );
}

/**
 * Runs `verb` on the pod's attachments with their cached configuration, under the deadline:
 * CHECK on each recorded one in attach order; DEL on everything (see {@link deleteAll}).
 * Undefined when the cache holds nothing for the pod.
 */
export async function walkCachedAttachments(
  ctx: CacheCallContext,
  podID: string,
  verb: "CHECK" | "DEL",
): Promise<WalkOutcome | undefined> {
  const pod = await cachedAttachments(ctx.cni, podID, ctx.set, ctx.netns);
  if (nothingCached(pod)) return undefined;
  if (verb === "DEL") return deleteAll(ctx, pod);
  if (pod.usable.length === 0 && pod.unusable.length === 0) return undefined;
  const failures: NetworkFailure[] = [...pod.unusable];
  const done: CheckedAttachment[] = [];
  for (const a of pod.usable) {
    try {
      const skipped = await runCached(ctx, a, verb);
      done.push({ network: a.network, ifName: a.ifName, ...(skipped && { skipped }) });
    } catch (error) {
      failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  return { done, failures };
}
