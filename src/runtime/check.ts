/**
 * CHECK of a pod: every cached attachment, in attach order, with the configuration it was
 * ADDed with (CHECK compares the plugin's state with the cached result, so today's edited
 * configuration would report a false failure). Every attachment is checked; the failures are
 * thrown together. A pod with nothing cached was never set up (or is torn down): an error.
 * With the runtime's loopback network, `lo` is also looked at in the pod's netns: it must be
 * up (go-cni#124), since the loopback network's configuration (0.3.1) has no CHECK.
 */

import { readRecord } from "../cache/read.js";
import { decodeCacheRecord } from "../cache/record.js";
import { cacheFilePath } from "../cache/results.js";
import { PodCheckError, PodNotFoundError } from "../errors/runtime.js";
import {
  type CacheCallContext,
  type CheckedAttachment,
  type WalkOutcome,
  walkCachedAttachments,
} from "./cache-walk.js";
import { cacheDirOf } from "./cached.js";
import { checkLoopbackUp } from "./loopback-check.js";

/**
 * CHECKs every cached attachment of the pod; returns each one, those whose configuration has
 * no CHECK (below 0.4.0, or `disableCheck`) marked `skipped` with the reason, never silently;
 * with `lookAtLoopback`, the runtime's loopback attachment with `loopbackUp` when `lo` was
 * found up, and a failure when it was found down.
 */
export async function checkFromCache(
  ctx: CacheCallContext,
  podID: string,
  lookAtLoopback = false,
): Promise<CheckedAttachment[]> {
  const outcome = await walkCachedAttachments(ctx, podID, "CHECK");
  if (outcome === undefined) throw new PodNotFoundError(podID);
  if (lookAtLoopback) await checkLoopback(ctx, podID, outcome);
  if (outcome.failures.length > 0) throw new PodCheckError(podID, outcome.failures);
  return outcome.done;
}

/**
 * The netns the attachment's record names ("" when it names none, as Go libcni's before 1.2,
 * or cannot be read: the walk has reported an unreadable record already).
 */
async function recordedNetns(
  ctx: CacheCallContext,
  network: string,
  podID: string,
): Promise<string> {
  const path = cacheFilePath(cacheDirOf(ctx.cni), network, podID, "lo");
  const read = await readRecord(path, ctx.signal);
  if (read.kind !== "bytes") return "";
  try {
    return decodeCacheRecord(read.bytes).netns;
  } catch {
    return "";
  }
}

/**
 * The runtime's loopback attachment, when the pod has one and its CHECK (none: skipped) did not
 * fail: `lo` looked at in the netns the record names (else the one the caller gave). Up: the
 * attachment says `loopbackUp`; down, or the netns gone: it becomes a failure, first, as it is
 * first in attach order.
 */
async function checkLoopback(
  ctx: CacheCallContext,
  podID: string,
  outcome: WalkOutcome,
): Promise<void> {
  const loopback = ctx.set?.networks.find((n) => n.loopback);
  if (loopback === undefined) return;
  const at = outcome.done.findIndex((a) => a.network === loopback.name && a.ifName === "lo");
  const attachment = outcome.done[at];
  if (attachment === undefined) return;
  const netns = (await recordedNetns(ctx, loopback.name, podID)) || ctx.netns;
  if (netns === undefined || netns === "") return;
  try {
    if (await checkLoopbackUp(podID, netns, ctx.timeout, ctx.signal)) {
      outcome.done[at] = { ...attachment, loopbackUp: true };
    }
  } catch (error) {
    outcome.done.splice(at, 1);
    outcome.failures.unshift({ network: attachment.network, ifName: attachment.ifName, error });
  }
}
