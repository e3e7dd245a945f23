/**
 * Tearing a pod down from the result cache: every attachment the cache holds for the pod's ID,
 * in reverse attach order, each DELeted with its cached configuration, netns, CNI_ARGS and
 * capability args (so it works after the network was edited or removed from the conf dir, and
 * after the netns is gone: plugins get the cached path and tolerate its absence, as the spec
 * asks of DEL). Every attachment is tried; the failures are thrown together. A pod with nothing
 * cached is already torn down: a second call succeeds. The records are Go's, untouched: DEL
 * removes them as upstream does.
 */

import { PodTeardownError } from "../errors/runtime.js";
import {
  type CacheCallContext,
  type RemovedAttachment,
  walkCachedAttachments,
} from "./cache-walk.js";

export type { CacheCallContext, RemovedAttachment } from "./cache-walk.js";

/** DELs every cached attachment of the pod; returns what was removed, in DEL order. */
export async function teardownFromCache(
  ctx: CacheCallContext,
  podID: string,
): Promise<RemovedAttachment[]> {
  const outcome = await walkCachedAttachments(ctx, podID, "DEL");
  if (outcome === undefined) return [];
  if (outcome.failures.length > 0) throw new PodTeardownError(podID, outcome.failures);
  return outcome.done;
}
