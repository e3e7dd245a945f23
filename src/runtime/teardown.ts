/**
 * Tearing a pod down from the result cache: every attachment the cache holds for the pod's ID,
 * in reverse attach order, each DELeted with its cached configuration, netns, CNI_ARGS and
 * capability args (so it works after the network was edited or removed from the conf dir, and
 * after the netns is gone: plugins get the cached path and tolerate its absence, as the spec
 * asks of DEL). Every attachment is tried; the failures are thrown together. A pod with nothing
 * cached is already torn down: a second call succeeds. The records are Go's, untouched: DEL
 * removes them as upstream does.
 */

import { type NetworkFailure, PodTeardownError } from "../errors.js";
import type { CNIConfig } from "../index.js";
import type { TraceContext } from "../internal/trace-context.js";
import { cachedAttachments } from "./cached.js";
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
}

/** One attachment a teardown removed. */
export interface RemovedAttachment {
  network: string;
  ifName: string;
}

/** DELs every cached attachment of the pod; returns what was removed, in DEL order. */
export async function teardownFromCache(
  ctx: CacheCallContext,
  podID: string,
): Promise<RemovedAttachment[]> {
  const { usable, unusable } = await cachedAttachments(ctx.cni, podID, ctx.set);
  const failures: NetworkFailure[] = [...unusable];
  const removed: RemovedAttachment[] = [];
  for (const a of usable.reverse()) {
    try {
      await withDeadline(a.network, "DEL", ctx.timeout, ctx.signal, (signal) =>
        ctx.cni.delNetworkList(a.config, a.rt, { signal, traceContext: ctx.traceContext }),
      );
      removed.push({ network: a.network, ifName: a.ifName });
    } catch (error) {
      failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  if (failures.length > 0) throw new PodTeardownError(podID, failures);
  return removed;
}
