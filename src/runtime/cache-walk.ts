/**
 * The walk teardown and check share: every cached attachment of a pod, one after another, each
 * call under the runtime's per-network deadline, every attachment tried and the failures kept
 * (the attachments whose records cannot be used are failures from the start).
 */
import type { NetworkFailure } from "../errors.js";
import type { CNIConfig } from "../index.js";
import type { TraceContext } from "../internal/trace-context.js";
import { type CachedAttachment, cachedAttachments } from "./cached.js";
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

/** One attachment a teardown removed (or a check checked). */
export interface RemovedAttachment {
  network: string;
  ifName: string;
}

/** What a walk did: the attachments whose call succeeded, in call order, and the failures. */
export interface WalkOutcome {
  done: RemovedAttachment[];
  failures: NetworkFailure[];
}

/**
 * Runs `verb` on each usable cached attachment of the pod with its cached configuration, under
 * the deadline: CHECK in attach order, DEL in reverse attach order (the spec's order for
 * teardown). Undefined when the cache holds nothing for the pod.
 */
export async function walkCachedAttachments(
  ctx: CacheCallContext,
  podID: string,
  verb: "CHECK" | "DEL",
): Promise<WalkOutcome | undefined> {
  const call = (a: CachedAttachment, signal: AbortSignal | undefined): Promise<unknown> =>
    verb === "DEL"
      ? ctx.cni.delNetworkList(a.config, a.rt, { signal, traceContext: ctx.traceContext })
      : ctx.cni.checkNetworkList(a.config, a.rt, { signal, traceContext: ctx.traceContext });
  const { usable, unusable } = await cachedAttachments(ctx.cni, podID, ctx.set);
  if (usable.length === 0 && unusable.length === 0) return undefined;
  const failures: NetworkFailure[] = [...unusable];
  const done: RemovedAttachment[] = [];
  for (const a of verb === "DEL" ? usable.reverse() : usable) {
    try {
      await withDeadline(a.network, verb, ctx.timeout, ctx.signal, (signal) => call(a, signal));
      done.push({ network: a.network, ifName: a.ifName });
    } catch (error) {
      failures.push({ network: a.network, ifName: a.ifName, error });
    }
  }
  return { done, failures };
}
