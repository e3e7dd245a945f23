/**
 * From a pod to its attachments (which networks, in which order, on which interface, with which
 * RuntimeConf), what the pod brings checked first, so that a bad value is the caller's typed
 * error and never a plugin's failure followed by a rollback: upstream's name rules (pkg/utils),
 * the CNI conventions' forms for the capability values (ocicni refuses a bad static IP or MAC
 * before anything runs; go-cni passes anything on).
 *
 * Capability args are encoded as the runtime's style writes them. go-cni's structs (PortMapping,
 * BandWidth, IPRanges, DNS) have no JSON tags, so Go writes them with the field names as
 * declared, in order, zero values included: encoded so, byte for byte; the other values as maps
 * (keys sorted). The `ocicni` style writes cri-o/ocicni's instead: its JSON tags and omitempty,
 * bandwidth as a Go map, DNS (which ocicni lacks) the conventions' keys.
 *
 * Interface names: explicit ones are reserved first (two equal ones are an error, as ocicni);
 * the others are allocated in order, skipping names taken: `eth0`, `net1`, ... (Multus's and
 * Kubernetes'), or `<prefix><n>` (go-cni's `WithInterfacePrefix`); the loopback is `lo`.
 */

import type { NetworkAttachment, RuntimeConf } from "../api/index.js";
import { assertPodID } from "../cache/names.js";
import { MAX_CAPABILITY_DEPTH, nestsDeeperThan } from "../cache/record.js";
import { maxNestingDepth, setOwn } from "../encoding/parse.js";
import { assertSpelled, InvalidArgumentError, wrongTypeError } from "../errors/base.js";
import { CapabilityArgError, InterfaceNameError, NetworkNotFoundError } from "../errors/runtime.js";
import { attempt } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { goStruct, parseCIDR, parseIP } from "../types/index.js";
import { validateInterfaceName, validateNetworkName } from "../utils/index.js";
import type { NetworkSet } from "./load.js";
import {
  type Bandwidth,
  type CapabilityArgs,
  CapabilityNames,
  type CapabilityStyle,
  type DNSCapability,
  type IPRange,
  type Network,
  type Pod,
  type PodArgs,
  type PodNetworkRequest,
  type PortMapping,
} from "./types.js";

/** One planned attachment of a pod. */
export interface PlannedAttachment {
  readonly network: Network;
  readonly ifName: string;
  readonly rt: RuntimeConf;
}

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
    if (value !== undefined) setOwn(out, name, value);
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
 * The pod's attachments, in attach order. Everything the pod brings is checked first (its ID,
 * then {@link validatePod}), before any lock or plugin.
 * @throws InvalidArgumentError (`pod.id`, a network's name), InterfaceNameError,
 *   CapabilityArgError, NetworkNotFoundError.
 */
export function planPod(
  set: NetworkSet,
  pod: Pod,
  interfacePrefix: string | undefined,
  style: CapabilityStyle = "go-cni",
): PlannedAttachment[] {
  assertPodID(pod.id);
  assertPodShape(pod);
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

/**
 * A pair that reads back from `CNI_ARGS` as itself: `;` parts pairs and `=` ends a key, so a
 * value `"web;K8S_POD_NAMESPACE=kube-system"` would hand the plugin a second pair.
 */
function cniArg(k: string, v: string, argument: string): [string, string] {
  if (!k.includes(";") && !k.includes("=") && !v.includes(";")) return [k, v];
  const text = `${argument}: ${JSON.stringify(`${k}=${v}`)} is not one CNI_ARGS pair`;
  throw new InvalidArgumentError(argument, `${text} (";" parts pairs, "=" ends a key)`);
}

/**
 * `CNI_ARGS` as pairs: `[key, value]` arrays or a record. A pair that is not an array, or
 * `null` args, is the caller's typed error (it used to be a TypeError from deep inside).
 */
function argPairs(args: PodArgs | undefined, argument: string): [string, string][] {
  if (args === undefined) return [];
  if (args === null) throw new InvalidArgumentError(argument, `${argument} must not be null`);
  if (!Array.isArray(args)) {
    return Object.entries(args as Record<string, unknown>).map(([k, v]) => {
      if (typeof v !== "string") throw wrongTypeError(`${argument}.${k}`, "a string", v);
      return cniArg(k, v, argument);
    });
  }
  return args.map((p: unknown, i): [string, string] => {
    const pair = Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === "string");
    if (!pair) throw wrongTypeError(`${argument}[${i}]`, "a [key, value] pair of strings", p);
    return cniArg(p[0], p[1], argument);
  });
}

/** The pod's netns and network requests are of the types they must be, before they are read. */
function assertPodShape(pod: Pod): void {
  if (typeof pod.netns !== "string") throw wrongTypeError("pod.netns", "a string", pod.netns);
  assertSpelled(pod, ["id", "netns", "networks", "capabilities", "args"], "pod");
  if (pod.networks === undefined) return;
  if (!Array.isArray(pod.networks)) throw wrongTypeError("pod.networks", "an array", pod.networks);
  pod.networks.forEach((r: unknown, i) => {
    if (typeof r === "string") return;
    assertSpelled(r ?? {}, ["name", "ifName", "capabilities", "args"], `pod.networks[${i}]`);
    const { name, ifName } = (r ?? {}) as { name?: unknown; ifName?: unknown };
    if (typeof name !== "string") throw wrongTypeError(`pod.networks[${i}].name`, "a string", name);
    if (ifName !== undefined && typeof ifName !== "string") {
      throw wrongTypeError(`pod.networks[${i}].ifName`, "a string", ifName);
    }
  });
}

/** A request checked: its network, and its `CNI_ARGS` (the pod's, then the request's). */
interface CheckedRequest {
  readonly network: Network;
  readonly args: [string, string][];
}

/**
 * Everything a pod brings but its ID: its capability values and each request's, each requested
 * interface name (valid, not asked for twice), each network (found, a valid name, not requested
 * twice), the shape of its `CNI_ARGS`. `requests` are the pod's as the plan reads them (with
 * the runtime's loopback network first when it adds one).
 * @returns each request's network and `CNI_ARGS` pairs, in order.
 */
function validatePod(
  set: NetworkSet,
  pod: Pod,
  requests: readonly PodNetworkRequest[],
): CheckedRequest[] {
  assertCapabilityArgs(pod.capabilities, "pod.capabilities");
  const podArgs = argPairs(pod.args, "pod.args");
  // What each request is called in an error: the pod's own index (a loopback the runtime
  // added is a network of its own).
  const added = requests.length - (pod.networks?.length ?? requests.length);
  const at = (i: number): string =>
    pod.networks === undefined || i < added ? "network" : `pod.networks[${i - added}]`;
  const ifNames = new Set<string>();
  requests.forEach((r, i) => {
    assertCapabilityArgs(r.capabilities, `${at(i)}.capabilities`);
    if (r.ifName === undefined) return;
    assertInterfaceName(r.ifName, `${at(i)}.ifName`);
    if (ifNames.has(r.ifName)) {
      throw new InterfaceNameError(
        `${at(i)}.ifName`,
        `network ${JSON.stringify(r.name)} requested interface name ${JSON.stringify(r.ifName)} already assigned`,
      );
    }
    ifNames.add(r.ifName);
  });
  const names = new Set<string>();
  return requests.map((r, i) => {
    const network = set.get(r.name);
    if (network === undefined) throw new NetworkNotFoundError(r.name);
    assertNetworkName(network.name, at(i));
    if (names.has(r.name)) {
      throw new InterfaceNameError(at(i), `network ${JSON.stringify(r.name)} requested twice`);
    }
    names.add(r.name);
    // Fresh pairs for each attachment: a RuntimeConf's args are its own.
    const args = [
      ...podArgs.map(([k, v]): [string, string] => [k, v]),
      ...argPairs(r.args, `${at(i)}.args`),
    ];
    return { network, args };
  });
}

/** A network's name, by upstream's rule (it is part of every cache path). */
function assertNetworkName(name: string, argument: string): void {
  const invalid = validateNetworkName(name);
  if (invalid) {
    throw new InvalidArgumentError(argument, `${argument} ${goQuote(name)}: ${invalid.message}`, {
      cause: invalid,
    });
  }
}

/** An interface name, by upstream's rule (at most 15 bytes, not `.`/`..`, no `/`, `:` or space). */
function assertInterfaceName(name: string, argument: string): void {
  const invalid = validateInterfaceName(name);
  if (invalid) {
    throw new InterfaceNameError(
      argument,
      `${argument} ${goQuote(name)}: ${invalid.message}${invalid.details ? ` (${invalid.details})` : ""}`,
      { cause: invalid },
    );
  }
}

const hex = /^[0-9a-fA-F]{2}$/;

/**
 * Go's `net.ParseMAC`: an IEEE 802 MAC-48, EUI-48, EUI-64 or 20-octet IP over InfiniBand
 * address in one of its three notations (`00:00:5e:00:53:01`, `00-00-5e-00-53-01`,
 * `0000.5e00.5301`). Undefined when `s` is none of them.
 */
export function parseMAC(s: string): Uint8Array | undefined {
  const sizes = new Set([6, 8, 20]);
  if (s.length < 14) return undefined;
  if (s[2] === ":" || s[2] === "-") {
    if ((s.length + 1) % 3 !== 0) return undefined;
    const sep = s[2];
    const parts = s.split(sep);
    if (!sizes.has(parts.length) || !parts.every((p) => hex.test(p))) return undefined;
    return Uint8Array.from(parts, (p) => Number.parseInt(p, 16));
  }
  if (s[4] === ".") {
    if ((s.length + 1) % 5 !== 0) return undefined;
    const groups = s.split(".");
    if (!sizes.has(groups.length * 2) || !groups.every((g) => /^[0-9a-fA-F]{4}$/.test(g))) {
      return undefined;
    }
    return Uint8Array.from(
      groups.flatMap((g) => [g.slice(0, 2), g.slice(2)]).map((b) => Number.parseInt(b, 16)),
    );
  }
  return undefined;
}

function fail(argument: string, message: string): never {
  throw new CapabilityArgError(argument, `${argument}: ${message}`);
}

const isCIDR = (s: string): boolean => attempt(() => parseCIDR(s)) !== undefined;

function assertIP(value: unknown, argument: string): void {
  if (typeof value !== "string" || parseIP(value) === undefined) {
    fail(argument, `unable to parse IP address ${quoted(value)}`);
  }
}

function assertMAC(value: string, argument: string): void {
  if (parseMAC(value) === undefined)
    fail(argument, `unable to parse MAC address ${goQuote(value)}`);
}

function quoted(value: unknown): string {
  return typeof value === "string" ? goQuote(value) : String(JSON.stringify(value));
}

function assertString(value: unknown, argument: string): void {
  if (typeof value !== "string") fail(argument, `must be a string, got ${quoted(value)}`);
}

function assertStrings(value: unknown, argument: string): void {
  if (!Array.isArray(value)) fail(argument, `must be a list of strings, got ${quoted(value)}`);
  for (const [i, v] of value.entries()) assertString(v, `${argument}[${i}]`);
}

function assertStringMap(
  value: unknown,
  argument: string,
  each: (v: unknown, a: string) => void,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    fail(argument, `must be an object, got ${quoted(value)}`);
  }
  for (const [k, v] of Object.entries(value)) each(v, `${argument}[${JSON.stringify(k)}]`);
}

/** Go's integer kinds: a safe integer within [min, max]. */
function assertInteger(value: unknown, argument: string, min: number, max: number): void {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min || value > max) {
    fail(argument, `must be an integer from ${min} to ${max}, got ${quoted(value)}`);
  }
}

const protocols = new Set(["", "tcp", "udp", "sctp"]);

function assertPortMapping(p: PortMapping, argument: string): void {
  if (typeof p !== "object" || p === null) fail(argument, `must be an object, got ${quoted(p)}`);
  assertInteger(p.hostPort, `${argument}.hostPort`, 1, 65535);
  assertInteger(p.containerPort, `${argument}.containerPort`, 1, 65535);
  if (p.protocol !== undefined) {
    assertString(p.protocol, `${argument}.protocol`);
    if (!protocols.has(p.protocol.toLowerCase())) {
      fail(`${argument}.protocol`, `must be tcp, udp or sctp, got ${goQuote(p.protocol)}`);
    }
  }
  if (p.hostIP !== undefined && p.hostIP !== "") assertIP(p.hostIP, `${argument}.hostIP`);
}

function assertIPRange(r: IPRange, argument: string): void {
  if (typeof r !== "object" || r === null) fail(argument, `must be an object, got ${quoted(r)}`);
  if (typeof r.subnet !== "string" || !isCIDR(r.subnet)) {
    fail(`${argument}.subnet`, `invalid CIDR address: ${quoted(r.subnet)}`);
  }
  for (const k of ["rangeStart", "rangeEnd", "gateway"] as const) {
    if (r[k] !== undefined && r[k] !== "") assertIP(r[k], `${argument}.${k}`);
  }
}

/** Each typed capability value in the form the conventions give it; `extra` is passed as is. */
function assertCapabilityArgs(caps: CapabilityArgs | undefined, argument: string): void {
  if (caps === undefined) return;
  if (typeof caps !== "object" || caps === null) fail(argument, `must be an object`);
  const at = (field: string) => `${argument}.${field}`;
  if (caps.portMappings !== undefined) {
    if (!Array.isArray(caps.portMappings)) fail(at("portMappings"), "must be a list");
    for (const [i, p] of caps.portMappings.entries()) {
      assertPortMapping(p, `${at("portMappings")}[${i}]`);
    }
  }
  if (caps.bandwidth !== undefined) {
    const b = caps.bandwidth;
    if (typeof b !== "object" || b === null) fail(at("bandwidth"), "must be an object");
    for (const k of ["ingressRate", "ingressBurst", "egressRate", "egressBurst"] as const) {
      if (b[k] !== undefined)
        assertInteger(b[k], `${at("bandwidth")}.${k}`, 0, Number.MAX_SAFE_INTEGER);
    }
  }
  if (caps.ipRanges !== undefined) {
    if (!Array.isArray(caps.ipRanges)) fail(at("ipRanges"), "must be a list of range sets");
    for (const [i, set] of caps.ipRanges.entries()) {
      const a = `${at("ipRanges")}[${i}]`;
      if (!Array.isArray(set)) fail(a, `must be a list of ranges, got ${quoted(set)}`);
      for (const [j, r] of set.entries()) assertIPRange(r, `${a}[${j}]`);
    }
  }
  if (caps.dns !== undefined) {
    const d = caps.dns;
    if (typeof d !== "object" || d === null) fail(at("dns"), "must be an object");
    if (d.servers !== undefined) {
      assertStrings(d.servers, `${at("dns")}.servers`);
      for (const [i, server] of d.servers.entries()) assertIP(server, `${at("dns")}.servers[${i}]`);
    }
    if (d.searches !== undefined) assertStrings(d.searches, `${at("dns")}.searches`);
    if (d.options !== undefined) assertStrings(d.options, `${at("dns")}.options`);
  }
  if (caps.aliases !== undefined) assertStringMap(caps.aliases, at("aliases"), assertStrings);
  if (caps.podAnnotations !== undefined) {
    assertStringMap(caps.podAnnotations, at("podAnnotations"), assertString);
  }
  if (caps.mac !== undefined) {
    assertString(caps.mac, at("mac"));
    assertMAC(caps.mac, at("mac"));
  }
  if (caps.ips !== undefined) {
    assertStrings(caps.ips, at("ips"));
    caps.ips.forEach((ip, i) => {
      // The conventions write CIDRs; the static IPAM also takes a plain address.
      if (parseIP(ip) === undefined && !isCIDR(ip)) {
        fail(`${at("ips")}[${i}]`, `unable to parse IP address or CIDR ${goQuote(ip)}`);
      }
    });
  }
  for (const k of ["infinibandGUID", "deviceID", "cgroupPath"] as const) {
    if (caps[k] !== undefined) assertString(caps[k], at(k));
  }
  for (const [name, value] of Object.entries(caps.extra ?? {})) {
    if (nestsDeeperThan(value, MAX_CAPABILITY_DEPTH)) {
      fail(
        `${at("extra")}[${JSON.stringify(name)}]`,
        `exceeded max depth: nests deeper than ${MAX_CAPABILITY_DEPTH} levels (a cache record holds it two levels down, and Go reads ${maxNestingDepth})`,
      );
    }
  }
}

/** A static address a pod asks for through `CNI_ARGS`, as ocicni sends it. */
export interface StaticAddress {
  /** A plain IP address (no prefix length), sent as `IP=<ip>`. */
  ip?: string;
  /** A MAC address (Go `net.ParseMAC` forms), sent as `MAC=<mac>`. */
  mac?: string;
}

/**
 * ocicni's static IP and MAC: `CNI_ARGS` pairs `IP=<ip>` and `MAC=<mac>`, checked as ocicni
 * checks them, to pass as a pod's or a network's `args` (docs/runtime.md, "Static IP and MAC").
 * @throws CapabilityArgError naming `ip` or `mac`.
 */
export function staticAddressArgs(address: StaticAddress): [string, string][] {
  const pairs: [string, string][] = [];
  if (address.ip !== undefined && address.ip !== "") {
    assertIP(address.ip, "ip");
    pairs.push(["IP", address.ip]);
  }
  if (address.mac !== undefined && address.mac !== "") {
    assertMAC(address.mac, "mac");
    pairs.push(["MAC", address.mac]);
  }
  return pairs;
}
