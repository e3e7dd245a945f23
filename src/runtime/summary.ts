/**
 * The result of a pod's setup as plain data (JSON-serialisable, strings for addresses), as
 * go-cni's `Result` gives Go runtimes: per interface its IPs, MAC and sandbox, plus each
 * network's DNS and the routes. The raw per-network results stay on the non-enumerable `raw`.
 */
import { isDNSEmpty } from "../types/dns.js";
import {
  convertResult,
  type DNS,
  ipNetToString,
  ipToString,
  type Result,
  Result100,
} from "../types/index.js";

/** One address of an interface. */
export interface IPSummary {
  /** `10.1.0.5/24` (the address with its prefix length). */
  address: string;
  /** The gateway, when the plugin gave one. */
  gateway?: string;
}

/** One interface a pod's networks reported. */
export interface InterfaceSummary {
  /** The interface name. */
  name: string;
  /** The network that reported it. */
  network: string;
  mac?: string;
  /** The netns path; absent for a host-side interface (a veth's host end, a bridge). */
  sandbox?: string;
  mtu?: number;
  pciID?: string;
  socketPath?: string;
  ips: IPSummary[];
}

/** One route, its addresses as strings. */
export interface RouteSummary {
  network: string;
  dst: string;
  gw?: string;
  mtu?: number;
  priority?: number;
  table?: number;
  scope?: number;
}

/** One network's raw result, converted to 1.1.0. */
export interface AttachmentResult {
  network: string;
  ifName: string;
  result: Result100;
}

/** What setupPod returns. */
export interface PodSetupResult {
  podID: string;
  /** One entry per network, in attach order (a plugin chain may report no result at all). */
  attachments: { network: string; ifName: string }[];
  /** Every interface reported, in attach order (host-side ones included: see `sandbox`). */
  interfaces: InterfaceSummary[];
  /** Each network's DNS (those that reported one). */
  dns: (DNS & { network: string })[];
  routes: RouteSummary[];
  /** The raw results (not enumerable, so JSON.stringify leaves them out). */
  readonly raw: readonly AttachmentResult[];
}

function as100(result: Result | undefined): Result100 {
  if (result === undefined) return new Result100({ cniVersion: "1.1.0" });
  const converted = convertResult(result, "1.1.0");
  return converted instanceof Result100 ? converted : new Result100();
}

/** One network's outcome, as summarize takes it. */
export interface AttachmentOutcome {
  network: string;
  ifName: string;
  /** The netns the attachment was made in: the pod's interface's `sandbox`. */
  netns: string;
  /** Undefined for a list without plugins (or a record without a result). */
  result: Result | undefined;
}

/** The pod's interface on a network: the one named `ifName` in the netns, made if absent. */
function podInterface(
  interfaces: InterfaceSummary[],
  { network, ifName, netns }: AttachmentOutcome,
): InterfaceSummary {
  const found =
    interfaces.find((i) => i.name === ifName && i.sandbox !== undefined) ??
    interfaces.find((i) => i.name === ifName);
  if (found !== undefined) return found;
  const made: InterfaceSummary = { name: ifName, network, ips: [] };
  if (netns !== "") made.sandbox = netns;
  interfaces.push(made);
  return made;
}

/** The summary of the per-network results, in attach order. */
export function summarize(podID: string, results: readonly AttachmentOutcome[]): PodSetupResult {
  const raw: AttachmentResult[] = [];
  const summary = {
    podID,
    attachments: [],
    interfaces: [],
    dns: [],
    routes: [],
  } as unknown as PodSetupResult;
  for (const outcome of results) {
    const { network, ifName, result } = outcome;
    const r = as100(result);
    raw.push({ network, ifName, result: r });
    summary.attachments.push({ network, ifName });
    const interfaces: InterfaceSummary[] = r.interfaces.map((i) => {
      const s: InterfaceSummary = { name: i.name, network, ips: [] };
      for (const k of ["mac", "sandbox", "mtu", "pciID", "socketPath"] as const) {
        if (i[k]) Object.assign(s, { [k]: i[k] });
      }
      return s;
    });
    for (const ip of r.ips) {
      const entry: IPSummary = { address: ipNetToString(ip.address) };
      if (ip.gateway) entry.gateway = ipToString(ip.gateway);
      // An IP without an interface index (0.1.0/0.2.0 results) belongs to the pod's interface
      // on this network: one entry holds every such address.
      const indexed = ip.interface === undefined ? undefined : interfaces[ip.interface];
      (indexed ?? podInterface(interfaces, outcome)).ips.push(entry);
    }
    summary.interfaces.push(...interfaces);
    if (!isDNSEmpty(r.dns)) summary.dns.push({ network, ...r.dns });
    for (const route of r.routes) {
      const s: RouteSummary = { network, dst: ipNetToString(route.dst) };
      if (route.gw) s.gw = ipToString(route.gw);
      for (const k of ["mtu", "priority", "table", "scope"] as const) {
        if (route[k] !== undefined) s[k] = route[k];
      }
      summary.routes.push(s);
    }
  }
  Object.defineProperty(summary, "raw", { value: raw, enumerable: false });
  return summary;
}
