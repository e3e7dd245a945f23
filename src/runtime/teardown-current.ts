/**
 * Teardown of a pod the cache holds nothing for, with the current configuration: opt-in
 * (`teardownPod(pod, { ifNoRecords: "current-config" })`), as go-cni's `Remove` always DELs
 * with its loaded networks and ocicni's `TearDownPod` falls back to them when the cache has no
 * record. For a pod whose records are gone (a wiped `/var/lib/cni`, a cache dir on tmpfs after
 * a reboot) or were never written, the plugins' state (IPAM leases, host veths, iptables
 * chains) is otherwise left for a GC to find.
 *
 * A pod with any record or setup intent is torn down from the cache (teardown.ts): the cached
 * configuration is what it was ADDed with, the current one may have been edited since.
 */

import { InvalidArgumentError } from "../errors/base.js";
import { type NetworkFailure, PodTeardownError } from "../errors/runtime.js";
import { type CacheCallContext, nothingCached, type RemovedAttachment } from "./cache-walk.js";
import { cachedAttachments } from "./cached.js";
import type { CapabilityStyle } from "./capabilities.js";
import { withDeadline } from "./deadline.js";
import type { NetworkSet } from "./load.js";
import { planPod } from "./plan.js";
import { teardownFromCache } from "./teardown.js";
import type { Pod, PodRef, TeardownOptions } from "./types.js";

/** One attachment teardownPod removed. */
export interface TornDownAttachment extends RemovedAttachment {
  /**
   * True when the pod had no record and the attachment was DELeted with the current
   * configuration (`ifNoRecords: "current-config"`); absent when DELeted from its record.
   */
  fromCurrentConfig?: true;
}

/** How the runtime plans a pod (its options), for the interface names and capability bytes. */
export interface PlanStyle {
  readonly interfacePrefix: string | undefined;
  readonly capabilityStyle: CapabilityStyle | undefined;
}

const ifNoRecordsValues = ["nothing", "current-config"] as const;

/** @throws InvalidArgumentError for an `ifNoRecords` that is not one of its values. */
export function assertTeardownOptions(options: TeardownOptions): void {
  const value = options.ifNoRecords;
  if (value !== undefined && !(ifNoRecordsValues as readonly unknown[]).includes(value)) {
    throw new InvalidArgumentError(
      "ifNoRecords",
      `ifNoRecords must be "nothing" or "current-config", got ${JSON.stringify(value)}`,
    );
  }
}

/**
 * DELs the pod's networks with the current configuration, in reverse attach order, on the
 * interfaces setupPod's plan gives for the same pod (its `networks`, else every network of the
 * set, the default network first); every network is tried, the failures thrown together.
 * @throws NoNetworksError when the set cannot say which networks (not ready and the pod names
 *   none, or no network at all), as go-cni's `Status` check and ocicni's `networksAvailable`;
 *   InvalidArgumentError, InterfaceNameError, CapabilityArgError, NetworkNotFoundError before
 *   anything runs; PodTeardownError with every DEL that failed.
 */
async function teardownWithCurrentConfig(
  ctx: CacheCallContext,
  set: NetworkSet,
  pod: PodRef | Pod,
  id: string,
  style: PlanStyle,
): Promise<TornDownAttachment[]> {
  const given = typeof pod === "string" ? {} : (pod as Partial<Pod>);
  if (set.notReady !== undefined && (given.networks === undefined || set.networks.length === 0)) {
    // Every network of a set without its default would be planned on other interface names
    // than the pod got (the default network's eth0 going to the next one): not guessed.
    throw set.notReady;
  }
  const plan = planPod(
    set,
    {
      id,
      netns: ctx.netns ?? "",
      networks: given.networks,
      capabilities: given.capabilities,
      args: given.args,
    },
    style.interfacePrefix,
    style.capabilityStyle,
  );
  const done: TornDownAttachment[] = [];
  const failures: NetworkFailure[] = [];
  for (const a of [...plan].reverse()) {
    try {
      await withDeadline(a.network.name, "DEL", ctx.timeout, ctx.signal, (signal) =>
        ctx.cni.delNetworkList(a.network.config, a.rt, {
          signal,
          traceContext: ctx.traceContext,
        }),
      );
      done.push({ network: a.network.name, ifName: a.ifName, fromCurrentConfig: true });
    } catch (error) {
      failures.push({ network: a.network.name, ifName: a.ifName, error });
    }
  }
  if (failures.length > 0) throw new PodTeardownError(id, failures);
  return done;
}

/**
 * teardownPod under the pod's lock: from the cache (teardown.ts), or, for a pod the cache holds
 * nothing for and `ifNoRecords: "current-config"`, with the current configuration.
 */
export async function teardownPodWith(
  ctx: CacheCallContext & { readonly set: NetworkSet },
  pod: PodRef | Pod,
  id: string,
  options: TeardownOptions,
  style: PlanStyle,
): Promise<TornDownAttachment[]> {
  if ((options.ifNoRecords ?? "nothing") === "nothing") return teardownFromCache(ctx, id);
  const cached = await cachedAttachments(ctx.cni, id, ctx.set, ctx.netns);
  if (!nothingCached(cached)) return teardownFromCache(ctx, id);
  return teardownWithCurrentConfig(ctx, ctx.set, pod, id, style);
}
