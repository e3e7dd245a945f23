/**
 * Results for CNI 0.3.0, 0.3.1 and 0.4.0 (upstream `types/040`): interfaces, IPs (with their
 * version "4"/"6"), routes and DNS, written in Go struct order with `"dns"` always.
 */
import { goStruct, toGoJSON } from "../encoding/json.js";
import { ConversionError } from "../errors/types.js";
import { type IPNet, ipNetToString } from "./cidr.js";
import { registerConverter } from "./convert.js";
import { copyDNS, type DNS, dnsToGo } from "./dns.js";
import { ipMarshalText, ipTo4 } from "./ip.js";
import type { Result } from "./result.js";
import {
  copyIPConfigFields,
  defineListResult,
  ListResult,
  listResultCodec,
} from "./result-common.js";
import { copyRoute, type Route, routeToGo } from "./route.js";
import { copyIPConfig020, Result020 } from "./v020.js";

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

/**
 * The Go encoding of a 0.4.0 (with its `version`) or 1.x IP configuration alone, in struct
 * order: `version`, `interface`, `address`, `gateway`.
 */
export function ipConfigToGo(
  ipc: { interface?: number; address: IPNet; gateway?: Uint8Array },
  version?: string,
): object {
  return goStruct({
    version,
    interface: ipc.interface,
    address: ipNetToString(ipc.address),
    gateway: ipc.gateway?.length ? ipMarshalText(ipc.gateway) : undefined,
  });
}

const codec = listResultCodec<Interface040, IPConfig040>(
  "types040",
  implementedSpecVersion040,
  supportedVersions040,
  {},
);

/** Upstream `IPConfig.UnmarshalJSON` (0.4.0) on a parsed JSON value. */
export const decodeIPConfig040 = codec.decodeIPConfig;

/** A 0.3.0, 0.3.1 or 0.4.0 result (upstream `types040.Result`). */
export class Result040 extends ListResult<Interface040, IPConfig040> {
  /** The value the Go-compatible encoder writes for this result (upstream's JSON form). */
  [toGoJSON](): unknown {
    return goStruct({
      cniVersion: this.cniVersion === "" ? undefined : this.cniVersion,
      interfaces: this.interfaces.length
        ? this.interfaces.map((i) =>
            goStruct({ name: i.name, mac: i.mac || undefined, sandbox: i.sandbox || undefined }),
          )
        : undefined,
      ips: this.ips.length ? this.ips.map((ip) => ipConfigToGo(ip, ip.version)) : undefined,
      routes: this.routes.length ? this.routes.map(routeToGo) : undefined,
      dns: dnsToGo(this.dns),
    });
  }
}

/** 0.1.0/0.2.0 -> 0.3.x/0.4.0 (upstream convertFrom02x): each family's routes move to the top. */
function convertFrom020To040(from: Result, toVersion: string): Result {
  const r = from as Result020;
  const out = new Result040({ cniVersion: toVersion, dns: copyDNS(r.dns) });
  for (const [ipc, family] of [
    [r.ip4, "4"],
    [r.ip6, "6"],
  ] as const) {
    if (!ipc) continue;
    const { ip, gateway } = copyIPConfig020(ipc);
    out.ips.push(
      gateway ? { version: family, address: ip, gateway } : { version: family, address: ip },
    );
    for (const route of ipc.routes ?? []) out.routes.push(copyRoute(route));
  }
  return out;
}

/** Among 0.3.0/0.3.1/0.4.0 (upstream convertInternal): only the version changes. */
function convertWithin040(from: Result, toVersion: string): Result {
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
 * 0.3.x/0.4.0 -> 0.1.0/0.2.0 (upstream convertTo02x): the first IP of each version, routes
 * (destination and gateway only) under the family of their destination when that family has an
 * IP; interfaces are dropped. No IP at all: `cannot convert: no valid IP addresses`.
 */
function convertFrom040To020(from: Result, toVersion: string): Result {
  const r = from as Result040;
  const out = new Result020({ cniVersion: toVersion, dns: copyDNS(r.dns) });
  for (const ip of r.ips) {
    const family = ip.version === "4" ? "ip4" : ip.version === "6" ? "ip6" : undefined;
    if (family && !out[family]) {
      const { address, gateway } = copyIPConfig040(ip);
      out[family] = gateway ? { ip: address, gateway } : { ip: address };
    }
    if (out.ip4 && out.ip6) break;
  }
  for (const route of r.routes) {
    const target = ipTo4(route.dst.ip) !== undefined ? out.ip4 : out.ip6;
    if (!target) continue;
    const { dst, gw } = copyRoute(route);
    target.routes = [...(target.routes ?? []), gw ? { dst, gw } : { dst }];
  }
  if (!out.ip4 && !out.ip6) throw new ConversionError("cannot convert: no valid IP addresses");
  return out;
}

// Upstream types040's init() (after types020's: this module imports v020).
registerConverter(["0.1.0", "0.2.0"], supportedVersions040, convertFrom020To040);
registerConverter(["0.3.0", "0.3.1"], supportedVersions040, convertWithin040);
registerConverter(["0.4.0"], ["0.3.0", "0.3.1"], convertWithin040);
registerConverter(["0.4.0", "0.3.1", "0.3.0"], ["0.1.0", "0.2.0"], convertFrom040To020);
defineListResult(Result040, codec, (v) => Result040.fromValue(v));
