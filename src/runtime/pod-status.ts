/**
 * A pod's network status from the result cache alone (ocicni's `GetPodNetworkStatus`, which
 * serves each network's cached result): no plugin runs, so it answers after a restart, after
 * the netns is gone and for attachments whose network was removed from the conf dir. Each
 * attachment's result is read with its cached configuration's version.
 */
import { type NetworkFailure, PodNotFoundError } from "../errors/runtime.js";
import type { Result, Result100 } from "../types/index.js";
import type { CacheCallContext } from "./cache-walk.js";
import { type CachedAttachment, cachedAttachments } from "./cached.js";
import { type AttachmentOutcome, type PodSetupResult, summarize } from "./summary.js";

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

function cachedResult(ctx: CacheCallContext, a: CachedAttachment): Promise<Result | undefined> {
  const options = { signal: ctx.signal };
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
