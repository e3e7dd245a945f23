/**
 * From a pod to its attachments: which networks, in which order, on which interface, with
 * which RuntimeConf.
 *
 * Interface names: an explicit `ifName` is reserved first (two equal ones are an error, as
 * ocicni); the others are allocated in order, the first non-loopback network `eth0`, the n-th
 * `net<n>` (the names Multus and Kubernetes users know), skipping any name already taken; with
 * `interfacePrefix` every one is `<prefix><n>` as go-cni's `WithInterfacePrefix`. The loopback
 * network is always `lo`.
 */

import type { NetworkAttachment, RuntimeConf } from "../api/index.js";
import { type CapabilityStyle, encodeCapabilityArgs, mergeCapabilityArgs } from "./capabilities.js";
import type { NetworkSet } from "./load.js";
import type { Network, Pod, PodNetworkRequest } from "./types.js";
import { assertInterfaceName, validatePod } from "./validate.js";

/** One planned attachment of a pod. */
export interface PlannedAttachment {
  readonly network: Network;
  readonly ifName: string;
  readonly rt: RuntimeConf;
}

/** The planned attachments as the setup intent records them (the cache layer's form). */
export function intentOf(
  plan: readonly PlannedAttachment[],
): Omit<NetworkAttachment, "containerID">[] {
  return plan.map(({ network, ifName, rt }) => ({
    network: network.name,
    ifName,
    config: network.config.bytes,
    netNS: rt.netNS,
    cniArgs: rt.args,
    capabilityArgs: rt.capabilityArgs,
  }));
}

function candidate(prefix: string | undefined, n: number): string {
  if (prefix !== undefined) return `${prefix}${n}`;
  return n === 0 ? "eth0" : `net${n}`;
}

/**
 * The pod's network requests: its `networks` (default: every network of the set, the default
 * first). A pod that names its networks still gets the loopback network when the runtime has
 * one (`loopback: true`), first, as ocicni brings `lo` up for every pod and go-cni's
 * `WithLoNetwork` promises: a container without `lo` cannot reach its own localhost.
 */
function requestsOf(set: NetworkSet, pod: Pod): PodNetworkRequest[] {
  if (pod.networks === undefined) return set.networks.map((n) => ({ name: n.name }));
  const requests = pod.networks.map((r) => (typeof r === "string" ? { name: r } : r));
  const loopback = set.networks.find((n) => n.loopback);
  if (loopback === undefined || requests.some((r) => r.name === loopback.name)) return requests;
  return [{ name: loopback.name }, ...requests];
}

/**
 * The pod's attachments, in attach order. Everything the pod brings is checked first
 * (validate.ts's `validatePod`), before any lock or plugin.
 * @throws InvalidArgumentError (`pod.id`, a network's name), InterfaceNameError,
 *   CapabilityArgError, NetworkNotFoundError.
 */
export function planPod(
  set: NetworkSet,
  pod: Pod,
  interfacePrefix: string | undefined,
  style: CapabilityStyle = "go-cni",
): PlannedAttachment[] {
  const requests = requestsOf(set, pod);
  const checked = validatePod(set, pod, requests);
  const taken = new Set(requests.flatMap((r) => (r.ifName === undefined ? [] : [r.ifName])));
  let n = 0;
  return requests.map((r, i) => {
    const { network, args } = checked[i];
    let ifName = r.ifName;
    if (ifName === undefined && network.loopback) ifName = "lo";
    if (ifName === undefined) {
      while (taken.has(candidate(interfacePrefix, n))) n++;
      ifName = candidate(interfacePrefix, n);
      // A prefix long enough to make the name invalid is the runtime's option at fault.
      assertInterfaceName(ifName, "interfacePrefix");
      taken.add(ifName);
      n++;
    }
    const rt: RuntimeConf = {
      containerID: pod.id,
      netNS: pod.netns,
      ifName,
      capabilityArgs: encodeCapabilityArgs(
        mergeCapabilityArgs(pod.capabilities, r.capabilities),
        style,
      ),
    };
    if (args.length > 0) rt.args = args;
    return { network, ifName, rt };
  });
}
