/**
 * Results for CNI 0.3.0, 0.3.1 and 0.4.0 (upstream `types/040`): interfaces, IPs (with their
 * version "4"/"6" and an optional index into the interfaces), routes and DNS. The JSON is in Go
 * struct order and always carries `"dns"` (as `{}` when empty); an interface index of 0 is
 * written, a missing one is not.
 */
import { goStruct, toGoJSON } from "../encoding/json.js";
import { defineStruct, type FieldSchema } from "../encoding/struct.js";
import { ConversionError } from "../errors/types.js";
import { type IPNet, ipNetToString } from "./cidr.js";
import { registerConverter, registerCreator } from "./convert.js";
import { decodeIP, decodeIPNet, goInt, structValue } from "./decode.js";
import { copyDNS, type DNS, dnsToGo } from "./dns.js";
import { ipMarshalText, ipTo4 } from "./ip.js";
import type { Result } from "./result.js";
import {
  copyIPConfigFields,
  defineListResult,
  ListResult,
  type ListResultCodec,
  listResultDecoder,
} from "./result-common.js";
import { copyRoute, type Route, routeToGo } from "./route.js";
import { copyIPConfig020, type IPConfig020, Result020 } from "./v020.js";

/** The version `Result040` implements. */
export const implementedSpecVersion040 = "0.4.0";
/** The versions `Result040` is created for. */
export const supportedVersions040: readonly string[] = ["0.3.0", "0.3.1", "0.4.0"];

/** An interface of a 0.3.x/0.4.0 result (upstream `types040.Interface`). */
export interface Interface040 {
  /** Interface name. */
  name: string;
  /** MAC address, as written. */
  mac?: string;
  /** The network namespace path it lives in; absent for the host. */
  sandbox?: string;
}

/** An IP configuration of a 0.3.x/0.4.0 result (upstream `types040.IPConfig`). */
export interface IPConfig040 {
  /** "4" or "6". */
  version: string;
  /** Index into the result's interfaces; 0 is a value, absent is none. */
  interface?: number;
  /** The address with its prefix length (host bits kept). */
  address: IPNet;
  /** The gateway; absent for none. */
  gateway?: Uint8Array;
}

/** The fields a `Result040` is built from. */
export interface Result040Init {
  /** The CNI version; default "" (filled in by `getAsVersion`). */
  cniVersion?: string;
  /** The result's `interfaces`; default none. */
  interfaces?: Interface040[];
  /** The result's `ips`; default none. */
  ips?: IPConfig040[];
  /** The result's `routes`; default none. */
  routes?: Route[];
  /** DNS settings; default empty. */
  dns?: DNS;
}

/** Upstream `IPConfig.Copy()`. */
export function copyIPConfig040(ipc: IPConfig040): IPConfig040 {
  return copyIPConfigFields(ipc, { version: ipc.version });
}

/** The Go encoding of an interface: `name`, then `mac` and `sandbox` if set. */
export function interface040ToGo(i: Interface040): object {
  return goStruct({ name: i.name, mac: i.mac || undefined, sandbox: i.sandbox || undefined });
}

/** The Go encoding of a 0.4.0 IP configuration: `version`, `interface`, `address`, `gateway`. */
export function ipConfig040ToGo(ipc: IPConfig040): object {
  return goStruct({
    version: ipc.version,
    interface: ipc.interface,
    address: ipNetToString(ipc.address),
    gateway: ipc.gateway?.length ? ipMarshalText(ipc.gateway) : undefined,
  });
}

const ipConfigDecoder = defineStruct<{
  version?: string;
  interface?: number;
  address?: unknown;
  gateway?: string;
}>("ipConfig", {
  fields: {
    version: { type: "string" },
    interface: { type: "int" },
    address: { type: "raw" },
    gateway: { type: "string", goType: "net.IP" },
  },
});

/** Upstream `IPConfig.UnmarshalJSON` (0.4.0) on a parsed JSON value. */
export function decodeIPConfig040(value: unknown): IPConfig040 {
  const c = ipConfigDecoder.decode(structValue(value, "types040.ipConfig"));
  const ipc: IPConfig040 = {
    version: c.version ?? "",
    address: decodeIPNet(c.address, "ipConfig", "address"),
  };
  if (c.interface !== undefined) ipc.interface = goInt(c.interface);
  const gateway = decodeIP(c.gateway);
  if (gateway) ipc.gateway = gateway;
  return ipc;
}

/** The schema of a 0.4.0 interface (a plain Go struct). */
const interfaceField: FieldSchema = {
  type: "struct",
  pointer: true,
  goName: "Interface",
  goType: "types040.Interface",
  struct: {
    fields: { name: { type: "string" }, mac: { type: "string" }, sandbox: { type: "string" } },
  },
};

const codec: ListResultCodec<Interface040, IPConfig040> = {
  pkg: "types040",
  supportedVersions: supportedVersions040,
  decoder: listResultDecoder<Interface040>("types040", interfaceField),
  decodeIPConfig: decodeIPConfig040,
};

/** A 0.3.0, 0.3.1 or 0.4.0 result (upstream `types040.Result`). */
export class Result040 extends ListResult<Interface040, IPConfig040> {
  /** The value the Go-compatible encoder writes for this result (upstream's JSON form). */
  [toGoJSON](): unknown {
    return goStruct({
      cniVersion: this.cniVersion === "" ? undefined : this.cniVersion,
      interfaces: this.interfaces.length ? this.interfaces.map(interface040ToGo) : undefined,
      ips: this.ips.length ? this.ips.map(ipConfig040ToGo) : undefined,
      routes: this.routes.length ? this.routes.map(routeToGo) : undefined,
      dns: dnsToGo(this.dns),
    });
  }
}

function ipConfig020From040(ipc: IPConfig040): IPConfig020 {
  const out: IPConfig020 = { ip: ipc.address };
  if (ipc.gateway) out.gateway = ipc.gateway;
  return out;
}

function ipConfig040From020(ipc: IPConfig020, version: string): IPConfig040 {
  const out: IPConfig040 = { version, address: ipc.ip };
  if (ipc.gateway) out.gateway = ipc.gateway;
  return out;
}

/** 0.1.0/0.2.0 → 0.3.x/0.4.0 (upstream convertFrom02x): each family's routes move to the top. */
export function convertFrom020To040(from: Result, toVersion: string): Result {
  const r = from as Result020;
  const out = new Result040({ cniVersion: toVersion, dns: copyDNS(r.dns) });
  for (const [ipc, family] of [
    [r.ip4, "4"],
    [r.ip6, "6"],
  ] as const) {
    if (!ipc) continue;
    out.ips.push(ipConfig040From020(copyIPConfig020(ipc), family));
    for (const route of ipc.routes ?? []) out.routes.push(copyRoute(route));
  }
  return out;
}

/** Among 0.3.0/0.3.1/0.4.0 (upstream convertInternal): only the version changes. */
export function convertWithin040(from: Result, toVersion: string): Result {
  const r = from as Result040;
  return new Result040({
    cniVersion: toVersion,
    interfaces: r.interfaces.map((i) => ({ ...i })),
    ips: r.ips.map(copyIPConfig040),
    routes: r.routes.map(copyRoute),
    dns: copyDNS(r.dns),
  });
}

/**
 * 0.3.x/0.4.0 → 0.1.0/0.2.0 (upstream convertTo02x): the first IP of each version, routes
 * (destination and gateway only) under the family of their destination when that family has an
 * IP; interfaces are dropped. No IP at all: `cannot convert: no valid IP addresses`.
 */
export function convertFrom040To020(from: Result, toVersion: string): Result {
  const r = from as Result040;
  const out = new Result020({ cniVersion: toVersion, dns: copyDNS(r.dns) });
  for (const ip of r.ips) {
    if (ip.version === "4" && !out.ip4) out.ip4 = ipConfig020From040(copyIPConfig040(ip));
    else if (ip.version === "6" && !out.ip6) out.ip6 = ipConfig020From040(copyIPConfig040(ip));
    if (out.ip4 && out.ip6) break;
  }
  for (const route of r.routes) {
    const is4 = ipTo4(route.dst.ip) !== undefined;
    const target = is4 ? out.ip4 : out.ip6;
    if (!target) continue;
    const copy = copyRoute(route);
    const kept: Route = { dst: copy.dst };
    if (copy.gw) kept.gw = copy.gw;
    target.routes = [...(target.routes ?? []), kept];
  }
  if (!out.ip4 && !out.ip6) throw new ConversionError("cannot convert: no valid IP addresses");
  return out;
}

// Upstream types040's init(): its converters and creator, registered at load (after types020's:
// this module imports v020).
// Up-converters
registerConverter("0.1.0", supportedVersions040, convertFrom020To040);
registerConverter("0.2.0", supportedVersions040, convertFrom020To040);
registerConverter("0.3.0", supportedVersions040, convertWithin040);
registerConverter("0.3.1", supportedVersions040, convertWithin040);
// Down-converters
registerConverter("0.4.0", ["0.3.0", "0.3.1"], convertWithin040);
registerConverter("0.4.0", ["0.1.0", "0.2.0"], convertFrom040To020);
registerConverter("0.3.1", ["0.1.0", "0.2.0"], convertFrom040To020);
registerConverter("0.3.0", ["0.1.0", "0.2.0"], convertFrom040To020);
registerCreator(supportedVersions040, Result040, (v) => Result040.fromValue(v));
defineListResult(Result040, implementedSpecVersion040, codec);
