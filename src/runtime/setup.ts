/**
 * Setting a pod up on its networks, with rollback (go-cni and ocicni have none; docs/runtime.md,
 * "Rollback"). The netns and every plugin are checked first (upstream would run the plugins
 * before a missing one, leaving their state to a DEL that stops at it). On a failure every
 * network whose plugins started, the failed one too (a chain can fail half-way; the spec wants a
 * DEL after a failed ADD), is DELeted in reverse attach order with the same RuntimeConf, under
 * the per-network time limit but not the caller's signal (an aborted setup must still clean up).
 */

import { stat } from "node:fs/promises";
import {
  clearIntent,
  intentPath,
  ownedElsewhere,
  readIntent,
  writeIntent,
} from "../cache/intent.js";
import { cacheFilePath, ensureResultsDir, syncRecords } from "../cache/results.js";
import { PluginChainError } from "../errors/api.js";
import { WrappedError } from "../errors/base.js";
import { PluginAbortedError, PluginExecError, PluginLookupError } from "../errors/invoke.js";
import {
  InterruptedSetupError,
  type NetworkFailure,
  NetworkTimeoutError,
  PodNetnsError,
  PodSetupError,
} from "../errors/runtime.js";
import { SpawnerExitedError, SpawnerUnavailableError } from "../errors/spawner.js";
import { errnoCode } from "../internal/errno.js";
import { isNetns } from "../netns/check.js";
import type { Result } from "../types/index.js";
import {
  type CacheCallContext,
  delReversed,
  plannedAttachments,
  withDeadline,
} from "./cached-pod.js";
import { pluginTypes } from "./load.js";
import { intentOf, type PlannedAttachment } from "./plan.js";
import { type AttachmentOutcome, type PodSetupResult, summarize } from "./summary.js";

/** What setup needs from the runtime; its `cni` writes records without fsync when `durable`. */
export interface SetupContext extends CacheCallContext {
  readonly parallel: boolean;
  /** Where the setup intent is kept (the CNIConfig's cache dir). */
  readonly cacheDir: string;
  /** fsync the intent, and commit the records (the runtime's `durableCache`). */
  readonly durable: boolean;
  /** The run ID the runtime's plugins carry; undefined with the caller's Exec. */
  readonly runID: string | undefined;
}

function add(ctx: SetupContext, a: PlannedAttachment): Promise<Result | undefined> {
  return withDeadline(ctx, a.network.name, "ADD", (options) =>
    ctx.cni.addNetworkList(a.network.config, a.rt, options),
  );
}

/**
 * True when a network's failed ADD started none of its plugins, judged from how it failed:
 * the time limit or the caller's signal fired before the first plugin ran (while the call
 * waited for its attachment's lock or its turn to spawn), or the first plugin could not be
 * found or started. Anything else counts as started: a DEL is the safe answer to doubt.
 */
export function startedNothing(error: unknown, callerSignal: AbortSignal | undefined): boolean {
  let e = error;
  // The deadline's own reason, thrown as is: no plugin run was under way to wrap it.
  if (e instanceof NetworkTimeoutError) {
    if (e.cause === undefined) return true;
    e = e.cause;
  }
  if (callerSignal?.aborted && e === callerSignal.reason) return true;
  if (!(e instanceof PluginChainError) || e.index !== 0) return false;
  const cause = e.cause;
  if (cause instanceof PluginLookupError) return true;
  return (
    cause instanceof PluginExecError &&
    cause.exitCode === undefined &&
    cause.signal === undefined &&
    (cause instanceof PluginAbortedError || isStartFailure(cause.cause))
  );
}

/**
 * True for what a plugin's start failing leaves as the run's cause: an errno of the start (or
 * of entering its namespace), a helper that cannot run, or one that went before the plugin had
 * its configuration. A run lost after it started (its helper killed mid-run) is not one: it
 * may have done anything, so it counts as started.
 */
function isStartFailure(cause: unknown): boolean {
  if (cause instanceof SpawnerExitedError) return !cause.pluginStarted;
  if (cause instanceof SpawnerUnavailableError) return true;
  const code = (cause as { code?: unknown } | null | undefined)?.code;
  const netnsCode = (cause as { netnsCode?: unknown } | null | undefined)?.netnsCode;
  return typeof code === "string" || typeof netnsCode === "string";
}

/**
 * Throws PodNetnsError unless `netns` exists and is a network namespace, as upstream plugins'
 * `ns.GetNS` would find it (nsfs for a pinned namespace, a process's `/proc/<pid>/ns/net`).
 */
export async function checkPodNetns(podID: string, netns: string): Promise<void> {
  if (netns === "") throw new PodNetnsError(podID, netns, "missing");
  await stat(netns).catch((error: unknown) => {
    const code = errnoCode(error);
    const reason = code === "ENOENT" || code === "ENOTDIR" ? "missing" : "unreadable";
    throw new PodNetnsError(podID, netns, reason, { cause: error });
  });
  if (!(await isNetns(netns))) throw new PodNetnsError(podID, netns, "not-a-netns");
}

/**
 * Looks up every plugin of the plan, IPAM plugins too, before anything runs: the first one
 * missing fails the setup with nothing to undo (a missing IPAM plugin fails the ADD and the
 * rollback's DEL alike, leaving the pod stuck).
 * @throws PodSetupError whose failure's error is the lookup's (a PluginNotFoundError).
 */
export async function checkPluginsInstalled(
  podID: string,
  plan: readonly PlannedAttachment[],
  find: (pluginType: string) => Promise<unknown>,
): Promise<void> {
  for (const a of plan) {
    for (const type of pluginTypes(a.network.config)) {
      try {
        await find(type);
      } catch (error) {
        throw new PodSetupError(podID, failureOf(a, error), [], [], []);
      }
    }
  }
}

const outcomeOf = (a: PlannedAttachment, result: Result | undefined): AttachmentOutcome => ({
  network: a.network.name,
  ifName: a.ifName,
  netns: a.rt.netNS,
  result,
});

const failureOf = (a: PlannedAttachment, error: unknown): NetworkFailure => ({
  network: a.network.name,
  ifName: a.ifName,
  error,
});

/**
 * Group commit (docs/reliability.md): the setup's records, written without fsync under the
 * durable intent, flushed together before the intent goes. Undefined when done, else the
 * failure, which rolls the pod back as a record write's failure does.
 */
async function commitRecords(
  cacheDir: string,
  podID: string,
  plan: readonly PlannedAttachment[],
): Promise<NetworkFailure | undefined> {
  const first = plan[0];
  if (first === undefined) return undefined;
  try {
    await syncRecords(plan.map((a) => cacheFilePath(cacheDir, a.network.name, podID, a.ifName)));
    return undefined;
  } catch (error) {
    return failureOf(first, new WrappedError("commit the cache records", error));
  }
}

/**
 * Refuses a pod whose setup intent is on disk (see InterruptedSetupError): a new intent over it
 * would forget what the earlier setup attached, and the spec wants its DEL before an ADD again.
 */
async function assertNoIntent(cacheDir: string, podID: string): Promise<void> {
  const earlier = await readIntent(cacheDir, podID);
  if (earlier.kind === "none") return;
  const elsewhere = earlier.kind === "attachments" && (await ownedElsewhere(earlier.owner));
  const path = earlier.kind === "attachments" ? earlier.path : earlier.error.path;
  throw new InterruptedSetupError(podID, path, elsewhere);
}

/**
 * Attaches the pod to every planned network, or to none.
 * @throws InterruptedSetupError before anything runs; PodSetupError.
 */
export async function setupAttachments(
  ctx: SetupContext,
  podID: string,
  plan: readonly PlannedAttachment[],
): Promise<PodSetupResult> {
  await assertNoIntent(ctx.cacheDir, podID);
  // What is about to be attached, on disk before the first plugin runs (see intent.ts); and
  // the results dir, whose records are committed together at the end (see commitRecords). A
  // step that fails leaves no intent of this setup's.
  const before = async (what: string, step: () => Promise<void>, clear = true): Promise<void> => {
    try {
      await step();
    } catch (error) {
      if (error instanceof InterruptedSetupError) throw error;
      if (clear) await clearIntent(ctx.cacheDir, podID);
      const first = plan[0];
      if (first === undefined) throw error;
      throw new PodSetupError(podID, failureOf(first, new WrappedError(what, error)), [], [], []);
    }
  };
  // Made exclusively: a failed write leaves nothing of its own to clear, and an intent found
  // there (EEXIST) is another setup's, made since the check and running.
  const intent = () =>
    writeIntent(ctx.cacheDir, podID, intentOf(plan), ctx.durable, ctx.runID, "new").catch(
      (error: unknown) => {
        if (errnoCode(error) !== "EEXIST") throw error;
        throw new InterruptedSetupError(podID, intentPath(ctx.cacheDir, podID), true);
      },
    );
  await before("record the setup intent", intent, false);
  if (ctx.durable) await before("make the results directory", () => ensureResultsDir(ctx.cacheDir));
  const results: AttachmentOutcome[] = [];
  const failures: NetworkFailure[] = [];
  const started: PlannedAttachment[] = [];
  const failed = (a: PlannedAttachment, error: unknown): void => {
    failures.push(failureOf(a, error));
    if (!startedNothing(error, ctx.signal)) started.push(a);
  };
  if (ctx.parallel) {
    const settled = await Promise.allSettled(plan.map((a) => add(ctx, a)));
    settled.forEach((s, i) => {
      const a = plan[i];
      if (s.status === "rejected") failed(a, s.reason);
      else {
        results.push(outcomeOf(a, s.value));
        started.push(a);
      }
    });
  } else {
    for (const a of plan) {
      try {
        results.push(outcomeOf(a, await add(ctx, a)));
        started.push(a);
      } catch (error) {
        failed(a, error);
        break;
      }
    }
  }
  if (failures.length === 0 && ctx.durable) {
    const failure = await commitRecords(ctx.cacheDir, podID, plan);
    if (failure !== undefined) failures.push(failure);
  }
  if (failures.length > 0) {
    const undo = await delReversed({ ...ctx, signal: undefined }, plannedAttachments(started));
    // A failed rollback DEL keeps the intent: the next teardown or GC DELs it again. Nothing of
    // the setup runs any more, so it names no owner: no other process takes it for in flight.
    if (undo.failures.length === 0) await clearIntent(ctx.cacheDir, podID);
    else {
      try {
        await writeIntent(ctx.cacheDir, podID, intentOf(plan), ctx.durable, undefined, "disowned");
      } catch {
        // The intent as written stays: its owner, once gone, is seen as gone.
      }
    }
    throw new PodSetupError(podID, failures[0], failures.slice(1), undo.failures, undo.done);
  }
  // Every attachment has its record now, on disk.
  await clearIntent(ctx.cacheDir, podID);
  return summarize(podID, results);
}
