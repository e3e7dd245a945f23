/**
 * Results for CNI 0.1.0 and 0.2.0 (upstream `types/020`): an IPv4 and an IPv6 configuration,
 * each with its routes, and DNS, written in Go struct order with `"dns"` always.
 */
import { goStruct, marshal, marshalIndent, toGoJSON } from "../encoding/json.js";
import { parseJSON } from "../encoding/parse.js";
import { defineStruct } from "../encoding/struct.js";
import { ConversionError, ResultVersionMismatchError } from "../errors/types.js";
import { copyIPNet, type IPNet, ipNetToString } from "./cidr.js";
import { convert, registerConverter, registerCreator } from "./convert.js";
import { decodeIP, decodeIPNet, inField } from "./decode.js";
import { copyDNS, type DNS, dnsField, dnsToGo } from "./dns.js";
import { copyIP, ipMarshalText } from "./ip.js";
import type { Result } from "./result.js";
import { resultAsVersion } from "./result-common.js";
import { copyRoute, decodeRoute, type Route, routeToGo } from "./route.js";

/** The version `Result020` implements. */
export const implementedSpecVersion020 = "0.2.0";
/** The versions `Result020` is created for ("" stands for 0.1.0). */
export const supportedVersions020: readonly string[] = ["", "0.1.0", "0.2.0"];

/** An IP configuration of a 0.1.0/0.2.0 result (upstream `types020.IPConfig`). */
export interface IPConfig020 {
  /** The address with its prefix length (host bits kept). */
  ip: IPNet;
  /** The gateway; absent for none. */
  gateway?: Uint8Array;
  /** Routes of this address family. */
  routes?: Route[];
}

/** The fields a `Result020` is built from. */
export interface Result020Init {
  /** The CNI version; default "" (filled in by `getAsVersion`). */
  cniVersion?: string;
  /** The result's `ip4`; default none. */
  ip4?: IPConfig020;
  /** The result's `ip6`; default none. */
  ip6?: IPConfig020;
  /** DNS settings; default empty. */
  dns?: DNS;
}

/** Upstream `IPConfig.Copy()`. */
export function copyIPConfig020(ipc: IPConfig020): IPConfig020 {
  const out: IPConfig020 = { ip: copyIPNet(ipc.ip) };
  if (ipc.gateway) out.gateway = copyIP(ipc.gateway);
  if (ipc.routes?.length) out.routes = ipc.routes.map(copyRoute);
  return out;
}

/** The Go encoding of a 0.2.0 IP configuration: `ip`, then `gateway` and `routes` if set. */
export function ipConfig020ToGo(ipc: IPConfig020): object {
  return goStruct({
    ip: ipNetToString(ipc.ip),
    gateway: ipc.gateway?.length ? ipMarshalText(ipc.gateway) : undefined,
    routes: ipc.routes?.length ? ipc.routes.map(routeToGo) : undefined,
  });
}

type RawIPConfig = { ip?: unknown; gateway?: string; routes?: unknown[] };
const ipConfigDecoder = defineStruct<RawIPConfig>("ipConfig", {
  goType: "types020.ipConfig",
  fields: {
    ip: { type: "raw" },
    gateway: { type: "string", goType: "net.IP" },
    routes: { type: "array", items: { type: "raw" }, goType: "[]types.Route" },
  },
});

/** Upstream `IPConfig.UnmarshalJSON` (0.2.0) on a parsed JSON value. */
function decodeIPConfig020(value: unknown): IPConfig020 {
  const c = ipConfigDecoder.decode(value);
  const ipc: IPConfig020 = { ip: decodeIPNet(c.ip, "ipConfig", "ip") };
  const gateway = decodeIP(c.gateway);
  if (gateway) ipc.gateway = gateway;
  if (c.routes?.length) {
    // Routes are values in Go: a null entry decodes to the zero route.
    ipc.routes = c.routes.map((r) => inField("ipConfig", "routes", () => decodeRoute(r)));
  }
  return ipc;
}

type RawResult = { cniVersion?: string; ip4?: unknown; ip6?: unknown; dns?: DNS };
const resultDecoder = defineStruct<RawResult>("Result", {
  goType: "types020.Result",
  fields: {
    cniVersion: { type: "string" },
    ip4: { type: "raw" },
    ip6: { type: "raw" },
    dns: dnsField,
  },
});

/** A 0.1.0 or 0.2.0 result (upstream `types020.Result`). */
export class Result020 implements Result {
  /** The result's version: "0.1.0" or "0.2.0" ("" until first converted). */
  cniVersion: string;
  /** The IPv4 configuration. */
  ip4?: IPConfig020;
  /** The IPv6 configuration. */
  ip6?: IPConfig020;
  /** DNS settings. */
  dns: DNS;

  /** A result from its fields; absent ones take Go's zero values. */
  constructor(init: Result020Init = {}) {
    this.cniVersion = init.cniVersion ?? "";
    if (init.ip4) this.ip4 = init.ip4;
    if (init.ip6) this.ip6 = init.ip6;
    this.dns = init.dns ?? {};
  }

  /** Upstream `types020.NewResult`: JSON whose `cniVersion` is "" (0.1.0), 0.1.0 or 0.2.0. */
  static fromJSON(json: string | Uint8Array): Result020 {
    return Result020.fromValue(parseJSON(json));
  }

  /** As `fromJSON`, from a parsed JSON value. */
  static fromValue(value: unknown): Result020 {
    const r = resultDecoder.decode(value);
    const ip4 =
      r.ip4 == null ? undefined : inField("Result", "ip4", () => decodeIPConfig020(r.ip4));
    const ip6 =
      r.ip6 == null ? undefined : inField("Result", "ip6", () => decodeIPConfig020(r.ip6));
    const version = r.cniVersion ?? "";
    if (!supportedVersions020.includes(version)) {
      throw new ResultVersionMismatchError(supportedVersions020, version);
    }
    return new Result020({ cniVersion: version === "" ? "0.1.0" : version, ip4, ip6, dns: r.dns });
  }

  /** Upstream `types020.GetResult`: `result` converted to 0.2.0. */
  static getResult(result: Result): Result020 {
    const converted = convert(result, implementedSpecVersion020);
    if (!(converted instanceof Result020)) throw new ConversionError("failed to convert result");
    return converted;
  }

  /** Upstream `Version()`. */
  version(): string {
    return this.cniVersion;
  }

  /** Upstream `GetAsVersion`, as `ListResult.getAsVersion`. */
  getAsVersion(version: string): Result {
    return resultAsVersion(this, implementedSpecVersion020, version);
  }

  /** Upstream `Print`: 4-space indented JSON, no trailing newline. */
  print(): string {
    return marshalIndent(this);
  }

  /** The spec JSON, for `JSON.stringify(result)`: what {@link print} prints, as a plain object. */
  toJSON(): unknown {
    return JSON.parse(marshal(this));
  }

  /** The value the Go-compatible encoder writes for this result (upstream's JSON form). */
  [toGoJSON](): unknown {
    return goStruct({
      cniVersion: this.cniVersion === "" ? undefined : this.cniVersion,
      ip4: this.ip4 && ipConfig020ToGo(this.ip4),
      ip6: this.ip6 && ipConfig020ToGo(this.ip6),
      dns: dnsToGo(this.dns),
    });
  }
}

// Upstream types020's init(). 0.1.0 <-> 0.2.0 (upstream convertFrom010/convertTo010): the same
// data under the other version.
registerConverter(["0.1.0", "0.2.0"], ["0.1.0", "0.2.0"], (from, toVersion) => {
  const r = from as Result020;
  return new Result020({
    cniVersion: toVersion,
    ip4: r.ip4 && copyIPConfig020(r.ip4),
    ip6: r.ip6 && copyIPConfig020(r.ip6),
    dns: copyDNS(r.dns),
  });
});
registerCreator(supportedVersions020, Result020, (v) => Result020.fromValue(v));
