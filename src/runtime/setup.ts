/**
 * Setting a pod up on its networks, with rollback (go-cni and ocicni have none).
 *
 * Serial (the default): one network after another, in attach order. Parallel: every ADD at
 * once, and the outcome awaited for all of them. Either way, when a network fails, every
 * network that was tried (the failed ones included: a chain can fail half-way and leave a
 * veth or an IPAM lease, and the spec wants a DEL after a failed ADD) is DELeted in reverse
 * attach order with the same RuntimeConf, and the PodSetupError carries the failure and any
 * rollback failure. The rollback does not listen to the caller's signal (an aborted setup
 * must still clean up); it keeps the per-network time limit.
 */

import { type NetworkFailure, PodSetupError } from "../errors.js";
import type { CNIConfig, Result } from "../index.js";
import type { TraceContext } from "../internal/trace-context.js";
import { withDeadline } from "./deadline.js";
import type { PlannedAttachment } from "./plan.js";
import { type PodSetupResult, summarize } from "./summary.js";

/** What setup needs from the runtime. */
export interface SetupContext {
  readonly cni: CNIConfig;
  readonly timeout: number;
  readonly signal: AbortSignal | undefined;
  /** Passed to every plugin of the call (`TRACEPARENT`, ...). */
  readonly traceContext: TraceContext | undefined;
  readonly parallel: boolean;
}

function add(ctx: SetupContext, a: PlannedAttachment): Promise<Result | undefined> {
  return withDeadline(a.network.name, "ADD", ctx.timeout, ctx.signal, (signal) =>
    ctx.cni.addNetworkList(a.network.config, a.rt, { signal, traceContext: ctx.traceContext }),
  );
}

/** DELs `tried` in reverse order; returns the DELs that failed. */
export async function rollback(
  ctx: Pick<SetupContext, "cni" | "timeout" | "traceContext">,
  tried: readonly PlannedAttachment[],
): Promise<NetworkFailure[]> {
  const failures: NetworkFailure[] = [];
  for (const a of [...tried].reverse()) {
    try {
      await withDeadline(a.network.name, "DEL", ctx.timeout, undefined, (signal) =>
        ctx.cni.delNetworkList(a.network.config, a.rt, { signal, traceContext: ctx.traceContext }),
      );
    } catch (error) {
      failures.push({ network: a.network.name, ifName: a.ifName, error });
    }
  }
  return failures;
}

const failureOf = (a: PlannedAttachment, error: unknown): NetworkFailure => ({
  network: a.network.name,
  ifName: a.ifName,
  error,
});

/** Attaches the pod to every planned network, or to none. */
export async function setupAttachments(
  ctx: SetupContext,
  podID: string,
  plan: readonly PlannedAttachment[],
): Promise<PodSetupResult> {
  const results: { network: string; ifName: string; result: Result | undefined }[] = [];
  if (ctx.parallel) {
    const settled = await Promise.allSettled(plan.map((a) => add(ctx, a)));
    const failures: NetworkFailure[] = [];
    settled.forEach((s, i) => {
      if (s.status === "rejected") failures.push(failureOf(plan[i], s.reason));
      else results.push({ network: plan[i].network.name, ifName: plan[i].ifName, result: s.value });
    });
    if (failures.length > 0) {
      const rollbackFailures = await rollback(ctx, plan);
      throw new PodSetupError(podID, failures[0], failures.slice(1), rollbackFailures);
    }
    return summarize(podID, results);
  }
  for (let i = 0; i < plan.length; i++) {
    const a = plan[i];
    try {
      results.push({ network: a.network.name, ifName: a.ifName, result: await add(ctx, a) });
    } catch (error) {
      const rollbackFailures = await rollback(ctx, plan.slice(0, i + 1));
      throw new PodSetupError(podID, failureOf(a, error), [], rollbackFailures);
    }
  }
  return summarize(podID, results);
}
