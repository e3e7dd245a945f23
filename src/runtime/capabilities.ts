/**
 * Typed capability arguments: every well-known capability of the CNI conventions document
 * (https://www.cni.dev/docs/conventions/#well-known-capabilities), with its name constant.
 *
 * go-cni's structs (PortMapping, BandWidth, IPRanges, DNS) have no JSON tags, so Go writes them
 * with the field names as declared, in order, zero values included: encoded so, byte for byte;
 * the other values as maps (keys sorted). The `ocicni` style writes cri-o/ocicni's instead: its
 * JSON tags and omitempty, bandwidth as a Go map, DNS (which ocicni lacks) the conventions' keys.
 */
import { goStruct } from "../types/index.js";

/** The well-known capability names, as plugins declare them in `capabilities`. */
export const CapabilityNames = {
  portMappings: "portMappings",
  bandwidth: "bandwidth",
  ipRanges: "ipRanges",
  dns: "dns",
  aliases: "aliases",
  mac: "mac",
  ips: "ips",
  infinibandGUID: "infinibandGUID",
  deviceID: "deviceID",
  cgroupPath: "cgroupPath",
  podAnnotations: "io.kubernetes.cri.pod-annotations",
} as const;

/** One of the well-known capability names. */
export type CapabilityName = (typeof CapabilityNames)[keyof typeof CapabilityNames];

/** A port mapping (`portMappings`; go-cni `PortMapping`). */
export interface PortMapping {
  hostPort: number;
  containerPort: number;
  /** `tcp`, `udp` or `sctp`; Go's zero value "" when absent. */
  protocol?: string;
  /** The host address to bind; "" (any) when absent. */
  hostIP?: string;
}

/** Rate limits in bits per second, bursts in bits (`bandwidth`; go-cni `BandWidth`). */
export interface Bandwidth {
  ingressRate?: number;
  ingressBurst?: number;
  egressRate?: number;
  egressBurst?: number;
}

/** One IPAM range (`ipRanges`; go-cni `IPRanges`). */
export interface IPRange {
  subnet: string;
  rangeStart?: string;
  rangeEnd?: string;
  gateway?: string;
}

/** Resolver settings (`dns`; go-cni `DNS`). */
export interface DNSCapability {
  servers?: string[];
  searches?: string[];
  options?: string[];
}

/** The capability arguments of a pod, typed; `extra` passes any other capability as is. */
export interface CapabilityArgs {
  portMappings?: PortMapping[];
  bandwidth?: Bandwidth;
  /** Range sets, as the conventions and host-local take them: `[[range, ...], ...]`. */
  ipRanges?: IPRange[][];
  dns?: DNSCapability;
  /** Network name to the pod's DNS aliases on it. */
  aliases?: Record<string, string[]>;
  mac?: string;
  ips?: string[];
  infinibandGUID?: string;
  deviceID?: string;
  cgroupPath?: string;
  /** `io.kubernetes.cri.pod-annotations`. */
  podAnnotations?: Record<string, string>;
  /** Any other capability, by its name, sent as given (go-cni's `WithCapability`). */
  extra?: Record<string, unknown>;
}

/** Whose bytes the structured capabilities take: go-cni's (the default) or ocicni's. */
export type CapabilityStyle = "go-cni" | "ocicni";

const goCNI = {
  portMapping: (p: PortMapping): object =>
    goStruct({
      HostPort: p.hostPort,
      ContainerPort: p.containerPort,
      Protocol: p.protocol ?? "",
      HostIP: p.hostIP ?? "",
    }),
  bandwidth: (b: Bandwidth): object =>
    goStruct({
      IngressRate: b.ingressRate ?? 0,
      IngressBurst: b.ingressBurst ?? 0,
      EgressRate: b.egressRate ?? 0,
      EgressBurst: b.egressBurst ?? 0,
    }),
  ipRange: (r: IPRange): object =>
    goStruct({
      Subnet: r.subnet,
      RangeStart: r.rangeStart ?? "",
      RangeEnd: r.rangeEnd ?? "",
      Gateway: r.gateway ?? "",
    }),
  // A nil Go slice encodes as null.
  dns: (d: DNSCapability): object =>
    goStruct({
      Servers: d.servers ?? null,
      Searches: d.searches ?? null,
      Options: d.options ?? null,
    }),
};

const ocicni = {
  portMapping: (p: PortMapping): object =>
    goStruct({
      hostPort: p.hostPort,
      containerPort: p.containerPort,
      protocol: p.protocol ?? "",
      hostIP: p.hostIP ?? "",
    }),
  // ocicni builds a map[string]uint64: sorted keys, every one written.
  bandwidth: (b: Bandwidth): object => ({
    ingressRate: b.ingressRate ?? 0,
    ingressBurst: b.ingressBurst ?? 0,
    egressRate: b.egressRate ?? 0,
    egressBurst: b.egressBurst ?? 0,
  }),
  ipRange: (r: IPRange): object =>
    goStruct({
      subnet: r.subnet,
      rangeStart: r.rangeStart || undefined,
      rangeEnd: r.rangeEnd || undefined,
      gateway: r.gateway || undefined,
    }),
  dns: (d: DNSCapability): object =>
    goStruct({ servers: d.servers, searches: d.searches, options: d.options }),
};

/**
 * The `capabilityArgs` map of a RuntimeConf for `args`: typed values first, then `extra`
 * (which wins on a name clash, as a later go-cni option overwrites an earlier one).
 */
export function encodeCapabilityArgs(
  args: CapabilityArgs | undefined,
  style: CapabilityStyle = "go-cni",
): Record<string, unknown> {
  const enc = style === "ocicni" ? ocicni : goCNI;
  const out: Record<string, unknown> = {};
  if (args === undefined) return out;
  const set = (name: string, value: unknown): void => {
    if (value !== undefined)
      Object.defineProperty(out, name, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  };
  set(CapabilityNames.portMappings, args.portMappings?.map(enc.portMapping));
  set(CapabilityNames.bandwidth, args.bandwidth && enc.bandwidth(args.bandwidth));
  set(
    CapabilityNames.ipRanges,
    args.ipRanges?.map((set) => set.map(enc.ipRange)),
  );
  set(CapabilityNames.dns, args.dns && enc.dns(args.dns));
  set(CapabilityNames.aliases, args.aliases);
  set(CapabilityNames.mac, args.mac);
  set(CapabilityNames.ips, args.ips);
  set(CapabilityNames.infinibandGUID, args.infinibandGUID);
  set(CapabilityNames.deviceID, args.deviceID);
  set(CapabilityNames.cgroupPath, args.cgroupPath);
  set(CapabilityNames.podAnnotations, args.podAnnotations);
  for (const [name, value] of Object.entries(args.extra ?? {})) set(name, value);
  return out;
}

/** `base` with `override`'s fields replacing it, field by field (per-network over per-pod). */
export function mergeCapabilityArgs(
  base: CapabilityArgs | undefined,
  override: CapabilityArgs | undefined,
): CapabilityArgs | undefined {
  if (override === undefined) return base;
  if (base === undefined) return override;
  return { ...base, ...override, extra: { ...base.extra, ...override.extra } };
}

const utf8 = new TextEncoder();

function sortedByBytes(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) {
    if (Buffer.compare(utf8.encode(keys[i - 1]), utf8.encode(keys[i])) > 0) return false;
  }
  return true;
}

/**
 * Capability args read back from a cache record (or an intent), ready to be sent again: a DEL or
 * CHECK from the cache sends the bytes the ADD sent, as go-cni sends its structs again. An
 * object whose keys are not sorted was written from a Go struct, and is marked as one to be
 * written again in that order; sorted keys were a Go map's (or in order anyway).
 */
export function restoreCapabilityStructs(args: Record<string, unknown>): Record<string, unknown> {
  // The copy keeps its own stack: a record's value may nest to Go's limit (10,000 levels),
  // deeper than the call stack allows a recursive walk.
  const pending: [object, object][] = [];
  const shell = (value: unknown): unknown => {
    if (typeof value !== "object" || value === null) return value;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      pending.push([value, out]);
      return out;
    }
    // The copy gets the same keys in the same order, so the order is judged on the original.
    const out: Record<string, unknown> = {};
    pending.push([value, out]);
    return sortedByBytes(Object.keys(value)) ? out : goStruct(out);
  };
  const top = shell(args) as Record<string, unknown>;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [from, to] = next;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (to as unknown[])[i] = shell(from[i]);
      continue;
    }
    for (const [k, v] of Object.entries(from)) {
      Object.defineProperty(to, k, {
        value: shell(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return top;
}
