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

import type { RuntimeConf } from "../index.js";
import { type CapabilityStyle, encodeCapabilityArgs, mergeCapabilityArgs } from "./capabilities.js";
import type { NetworkSet } from "./load.js";
import type { Network, Pod, PodArgs, PodNetworkRequest } from "./types.js";
import { checkInterfaceName, checkPod } from "./validate.js";

/** One planned attachment of a pod. */
export interface PlannedAttachment {
  readonly network: Network;
  readonly ifName: string;
  readonly rt: RuntimeConf;
}

function pairs(args: PodArgs | undefined): [string, string][] {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(([k, v]) => [k, v]);
  return Object.entries(args as Record<string, string>);
}

function candidate(prefix: string | undefined, n: number): string {
  if (prefix !== undefined) return `${prefix}${n}`;
  return n === 0 ? "eth0" : `net${n}`;
}

/** A network request as the plan reads it: the pod's `CNI_ARGS` and the request's, as pairs. */
interface Request extends PodNetworkRequest {
  readonly pairs: [string, string][];
}

/**
 * The pod's network requests: its `networks` (default: every network of the set, the default
 * first). A pod that names its networks still gets the loopback network when the runtime has
 * one (`loopback: true`), first, as ocicni brings `lo` up for every pod and go-cni's
 * `WithLoNetwork` promises: a container without `lo` cannot reach its own localhost.
 */
function requestsOf(set: NetworkSet, pod: Pod): Request[] {
  const podPairs = pairs(pod.args);
  const request = (r: PodNetworkRequest): Request => ({
    ...r,
    pairs: [...podPairs, ...pairs(r.args)],
  });
  if (pod.networks === undefined) return set.networks.map((n) => request({ name: n.name }));
  const requests = pod.networks.map((r) => request(typeof r === "string" ? { name: r } : r));
  const loopback = set.networks.find((n) => n.loopback);
  if (loopback === undefined || requests.some((r) => r.name === loopback.name)) return requests;
  return [request({ name: loopback.name }), ...requests];
}

/**
 * The pod's attachments, in attach order. Everything the pod brings is checked first
 * (validate.ts's `checkPod`), before any lock or plugin.
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
  const networks = checkPod(set, pod, requests);
  const taken = new Set(requests.flatMap((r) => (r.ifName === undefined ? [] : [r.ifName])));
  let n = 0;
  return requests.map((r, i) => {
    const network = networks[i];
    let ifName = r.ifName;
    if (ifName === undefined && network.loopback) ifName = "lo";
    if (ifName === undefined) {
      while (taken.has(candidate(interfacePrefix, n))) n++;
      ifName = candidate(interfacePrefix, n);
      // A prefix long enough to make the name invalid is the runtime's option at fault.
      checkInterfaceName(ifName, "interfacePrefix");
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
    if (r.pairs.length > 0) rt.args = r.pairs;
    return { network, ifName, rt };
  });
}
