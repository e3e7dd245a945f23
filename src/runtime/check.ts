/**
 * CHECK of a pod: every cached attachment, in attach order, with the configuration it was
 * ADDed with (CHECK compares the plugin's state with the cached result, so today's edited
 * configuration would report a false failure). Every attachment is checked; the failures are
 * thrown together. A pod with nothing cached was never set up (or is torn down): an error.
 */
import { type NetworkFailure, PodCheckError, PodNotFoundError } from "../errors.js";
import { cachedAttachments } from "./cached.js";
import { withDeadline } from "./deadline.js";
import type { CacheCallContext, RemovedAttachment } from "./teardown.js";

/** CHECKs every cached attachment of the pod; returns those checked. */
export async function checkFromCache(
  ctx: CacheCallContext,
  podID: string,
): Promise<RemovedAttachment[]> {
  const { usable, unusable } = await cachedAttachments(ctx.cni, podID, ctx.set);
  if (usable.length === 0 && unusable.length === 0) throw new PodNotFoundError(podID);
  const failures: NetworkFailure[] = [...unusable];
  const checked: RemovedAttachment[] = [];
  for (const a of usable) {
    try {
      await withDeadline(a.network, "CHECK", ctx.timeout, ctx.signal, (signal) =>
        ctx.cni.checkNetworkList(a.config, a.rt, { signal, traceContext: ctx.traceContext }),
      );
      checked.push({ network: a.network, ifName: a.ifName });
    } catch (error) {
      failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  if (failures.length > 0) throw new PodCheckError(podID, failures);
  return checked;
}
