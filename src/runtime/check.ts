/**
 * CHECK of a pod: every cached attachment, in attach order, with the configuration it was
 * ADDed with (CHECK compares the plugin's state with the cached result, so today's edited
 * configuration would report a false failure). Every attachment is checked; the failures are
 * thrown together. A pod with nothing cached was never set up (or is torn down): an error.
 */
import { PodCheckError, PodNotFoundError } from "../errors/index.js";
import {
  type CacheCallContext,
  type CheckedAttachment,
  walkCachedAttachments,
} from "./cache-walk.js";

/**
 * CHECKs every cached attachment of the pod; returns each one, those whose configuration has
 * no CHECK (below 0.4.0, or `disableCheck`) marked `skipped` with the reason, never silently.
 */
export async function checkFromCache(
  ctx: CacheCallContext,
  podID: string,
): Promise<CheckedAttachment[]> {
  const outcome = await walkCachedAttachments(ctx, podID, "CHECK");
  if (outcome === undefined) throw new PodNotFoundError(podID);
  if (outcome.failures.length > 0) throw new PodCheckError(podID, outcome.failures);
  return outcome.done;
}
