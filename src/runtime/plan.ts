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

import { InterfaceNameError, NetworkNotFoundError } from "../errors/index.js";
import type { RuntimeConf } from "../index.js";
import { type CapabilityStyle, encodeCapabilityArgs, mergeCapabilityArgs } from "./capabilities.js";
import type { NetworkSet } from "./load.js";
import type { Network, Pod, PodArgs, PodNetworkRequest } from "./types.js";
import {
  checkCapabilityArgs,
  checkInterfaceName,
  checkNetworkName,
  checkPodID,
} from "./validate.js";

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

/**
 * A pod that names its networks still gets the loopback network when the runtime has one
 * (`loopback: true`), first, as ocicni brings `lo` up for every pod and go-cni's
 * `WithLoNetwork` promises: a container without `lo` cannot reach its own localhost.
 */
function withLoopback(set: NetworkSet, requests: PodNetworkRequest[]): PodNetworkRequest[] {
  const loopback = set.networks.find((n) => n.loopback);
  if (loopback === undefined || requests.some((r) => r.name === loopback.name)) return requests;
  return [{ name: loopback.name }, ...requests];
}

/**
 * The pod's attachments, in attach order. Everything the pod brings is checked here, before
 * any lock or plugin: its ID, each network's name and interface name, and the capability
 * values (the pod's and each network's).
 * @throws InvalidArgumentError (`pod.id`, a network's name), InterfaceNameError,
 *   CapabilityArgError, NetworkNotFoundError.
 */
export function planPod(
  set: NetworkSet,
  pod: Pod,
  interfacePrefix: string | undefined,
  style: CapabilityStyle = "go-cni",
): PlannedAttachment[] {
  checkPodID(pod.id);
  checkCapabilityArgs(pod.capabilities, "pod.capabilities");
  const requests: PodNetworkRequest[] =
    pod.networks === undefined
      ? set.networks.map((n) => ({ name: n.name }))
      : withLoopback(
          set,
          pod.networks.map((r) => (typeof r === "string" ? { name: r } : r)),
        );
  // What each request is called in an error: the pod's own index (a loopback added here is
  // the runtime's, named as a network).
  const added = requests.length - (pod.networks?.length ?? requests.length);
  const label = (i: number): string =>
    pod.networks === undefined || i < added ? "network" : `pod.networks[${i - added}]`;
  const taken = new Set<string>();
  requests.forEach((r, i) => {
    const at = label(i);
    checkCapabilityArgs(r.capabilities, `${at}.capabilities`);
    if (r.ifName === undefined) return;
    checkInterfaceName(r.ifName, `${at}.ifName`);
    if (taken.has(r.ifName)) {
      throw new InterfaceNameError(
        `${at}.ifName`,
        `network ${JSON.stringify(r.name)} requested interface name ${JSON.stringify(r.ifName)} already assigned`,
      );
    }
    taken.add(r.ifName);
  });
  const seen = new Set<string>();
  let n = 0;
  return requests.map((r, i) => {
    const network = set.get(r.name);
    if (network === undefined) throw new NetworkNotFoundError(r.name);
    checkNetworkName(network.name, label(i));
    if (seen.has(r.name)) {
      throw new InterfaceNameError(label(i), `network ${JSON.stringify(r.name)} requested twice`);
    }
    seen.add(r.name);
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
    const args = [...pairs(pod.args), ...pairs(r.args)];
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
