/**
 * A pod's interfaces as Kubernetes' NetworkDeviceData (KEP-4817, resource.k8s.io): what a
 * runtime or a DRA driver writes to a ResourceClaim's `status.devices[].networkData`, built from
 * setupPod's result or podStatus, and held to the rules the API server checks, so a status
 * update is not refused for data the runtime could have checked itself.
 */
import { InvalidArgumentError } from "../errors/base.js";
import { NetworkDeviceDataError, type NetworkDeviceDataFailure } from "../errors/runtime.js";
import { isJSONObject } from "../internal/json-kind.js";
import { ipToString, parseIP } from "../types/index.js";
import type { InterfaceSummary, PodSetupResult } from "./summary.js";

/**
 * KEP-4817's NetworkDeviceData, field for field (every field optional, left out when empty, as
 * the API's `omitempty`).
 */
export interface NetworkDeviceData {
  /** The name of the network interface in the pod (`eth0`, `net1`). At most 256 bytes. */
  interfaceName?: string;
  /**
   * The interface's addresses in canonical CIDR form, the address as Go's `net.IP.String()`
   * writes it (`192.0.2.5/24`, `2001:db8::5/64`, host bits kept). At most 16, each once.
   */
  ips?: string[];
  /** The interface's hardware (MAC) address. At most 128 bytes. */
  hardwareAddress?: string;
}

/** One pod interface's NetworkDeviceData, with the network that reported the interface. */
export interface PodNetworkDeviceData {
  /** The network (a name of the conf dir) whose attachment made the interface. */
  network: string;
  /** The data, as `status.devices[].networkData` takes it. */
  networkData: NetworkDeviceData;
}

/** Options of {@link networkDeviceData}. */
export interface NetworkDeviceDataOptions {
  /** Include the pod's loopback (`lo`, the built-in loopback network's). Default false. */
  includeLoopback?: boolean;
}

const interfaceNameMaxBytes = 256;
const hardwareAddressMaxBytes = 128;
const maxIPs = 16;

/**
 * The canonical form of an interface address written as CIDR (what Kubernetes'
 * `IsValidInterfaceAddress` compares against), or undefined when `value` is not one. An
 * IPv4-mapped IPv6 address is written as IPv4, its prefix length less 96, as Kubernetes does.
 */
function canonicalInterfaceAddress(value: string): string | undefined {
  const slash = value.indexOf("/");
  if (slash < 0) return undefined;
  const addr = value.slice(0, slash);
  const ip = parseIP(addr);
  const prefix = value.slice(slash + 1);
  if (ip === undefined || !/^[0-9]+$/.test(prefix)) return undefined;
  const bits = addr.includes(":") ? 128 : 32;
  let ones = Number(prefix);
  if (ones > bits) return undefined;
  const text = ipToString(ip);
  if (bits === 128 && !text.includes(":")) ones -= 96;
  return `${text}/${ones}`;
}

const quote = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** The first rule `data` breaks, as [field, reason, message], or undefined. */
function firstProblem(data: unknown): [string, NetworkDeviceDataFailure, string] | undefined {
  if (!isJSONObject(data)) return ["networkData", "invalid", "must be an object"];
  const { interfaceName, ips, hardwareAddress } = data;
  for (const [field, value, max] of [
    ["interfaceName", interfaceName, interfaceNameMaxBytes],
    ["hardwareAddress", hardwareAddress, hardwareAddressMaxBytes],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== "string") {
      return [field, "invalid", `Invalid value: ${quote(value)}: must be a string`];
    }
    // Go's len(): bytes of UTF-8, not characters.
    if (Buffer.byteLength(value, "utf8") > max) {
      return [field, "too-long", `Too long: may not be more than ${max} bytes`];
    }
  }
  if (ips === undefined) return undefined;
  if (!Array.isArray(ips)) return ["ips", "invalid", "must be a list of strings"];
  if (ips.length > maxIPs) {
    return ["ips", "too-many", `Too many: ${ips.length}: must have at most ${maxIPs} items`];
  }
  const seen = new Set<string>();
  for (const [i, ip] of ips.entries()) {
    const field = `ips[${i}]`;
    const canonical = typeof ip === "string" ? canonicalInterfaceAddress(ip) : undefined;
    if (canonical === undefined) {
      return [
        field,
        "invalid",
        `Invalid value: ${quote(ip)}: must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)`,
      ];
    }
    if (canonical !== ip) {
      return [
        field,
        "invalid",
        `Invalid value: ${quote(ip)}: must be in canonical form (${quote(canonical)})`,
      ];
    }
    if (seen.has(ip)) return [field, "duplicate", `Duplicate value: ${quote(ip)}`];
    seen.add(ip);
  }
  return undefined;
}

function check(data: unknown, network?: string, ifName?: string): void {
  const problem = firstProblem(data);
  if (problem === undefined) return;
  const [field, reason, detail] = problem;
  const path = field === "networkData" ? field : `networkData.${field}`;
  const where = network === undefined ? "" : `network ${network} (${ifName}): `;
  throw new NetworkDeviceDataError(path, reason, `${where}${path}: ${detail}`, network);
}

/**
 * Checks a NetworkDeviceData against the rules the API server applies to
 * `status.devices[].networkData` (Kubernetes' `validateNetworkDeviceData`; docs/runtime.md).
 * @throws NetworkDeviceDataError naming the first field at fault (`networkData.ips[2]`), with
 *   the API server's wording of the rule.
 */
export function validateNetworkDeviceData(data: NetworkDeviceData): void {
  check(data);
}

const kindOf = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;

/**
 * The interfaces of what should be a setup result or a pod status (or either after a JSON round
 * trip): anything else is the caller's mistake, said as the field at fault rather than a
 * TypeError from inside.
 */
function interfacesOf(pod: unknown): readonly InterfaceSummary[] {
  const bad = (argument: string, what: string, value: unknown) =>
    new InvalidArgumentError(argument, `${argument} must be ${what}, got ${kindOf(value)}`);
  if (!isJSONObject(pod)) {
    throw bad("pod", "a setup result or a pod status (an object with interfaces)", pod);
  }
  const { interfaces } = pod;
  if (!Array.isArray(interfaces)) throw bad("pod.interfaces", "an array", interfaces);
  for (const [i, iface] of interfaces.entries()) {
    const at = `pod.interfaces[${i}]`;
    if (!isJSONObject(iface)) throw bad(at, "an object", iface);
    for (const field of ["name", "network", "sandbox", "mac"]) {
      const value = iface[field];
      const optional = field === "sandbox" || field === "mac";
      if (typeof value !== "string" && !(optional && value === undefined)) {
        throw bad(`${at}.${field}`, "a string", value);
      }
    }
    if (!Array.isArray(iface.ips)) throw bad(`${at}.ips`, "an array", iface.ips);
    for (const [j, ip] of iface.ips.entries()) {
      const address =
        typeof ip === "object" && ip !== null ? (ip as { address?: unknown }).address : ip;
      if (typeof ip !== "object" || ip === null || typeof address !== "string") {
        throw bad(`${at}.ips[${j}].address`, "a string", address);
      }
    }
  }
  return interfaces as InterfaceSummary[];
}

/**
 * KEP-4817 NetworkDeviceData for each interface inside the pod (not `lo` unless asked for), from
 * `setupPod`'s result or `podStatus`, in attach order, empty fields left out (the API's
 * `omitempty`), each checked as {@link validateNetworkDeviceData} checks it (docs/runtime.md).
 * @throws InvalidArgumentError naming the field (`pod.interfaces[0].ips`) when `pod` is not a
 *   setup result or pod status in shape; NetworkDeviceDataError naming the network, the
 *   interface and the field a plugin's result made break a rule.
 */
export function networkDeviceData(
  pod: Pick<PodSetupResult, "interfaces">,
  options: NetworkDeviceDataOptions = {},
): PodNetworkDeviceData[] {
  const entries: PodNetworkDeviceData[] = [];
  for (const i of interfacesOf(pod)) {
    if (i.sandbox === undefined || (i.name === "lo" && options.includeLoopback !== true)) continue;
    const networkData: NetworkDeviceData = {};
    if (i.name !== "") networkData.interfaceName = i.name;
    if (i.ips.length > 0) networkData.ips = i.ips.map((ip) => ip.address);
    if (i.mac !== undefined && i.mac !== "") networkData.hardwareAddress = i.mac;
    check(networkData, i.network, i.name);
    entries.push({ network: i.network, networkData });
  }
  return entries;
}
