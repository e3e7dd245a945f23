/**
 * Results for CNI 1.0.0 and 1.1.0 (upstream `types/100`): like 0.4.0 without the IP version, with
 * an interface's `mtu`, `socketPath` and `pciID`. Upstream's `MarshalJSON` re-reads the struct as
 * a map and drops an empty `dns`, so every key of a 1.x result's JSON is sorted, as here.
 */
import { goStruct, toGoJSON } from "../encoding/json.js";
import { defineStruct, foldsToOtherKey } from "../encoding/struct.js";
import { ResultVersionMismatchError } from "../errors/types.js";
import { goJSONText } from "../internal/go-json-text.js";
import { isJSONObject } from "../internal/json-kind.js";
import type { IPNet } from "./cidr.js";
import { convert, registerConverter } from "./convert.js";
import { copyDNS, type DNS, dnsToGo, isDNSEmpty } from "./dns.js";
import { ipTo4 } from "./ip.js";
import { defineLazyList, lazyListMinLength } from "./lazy-list.js";
import type { Result } from "./result.js";
import {
  copyIPConfigFields,
  defineListResult,
  ListResult,
  listResultCodec,
  routeItem,
} from "./result-common.js";
import { copyRoute, type Route, routeToGo } from "./route.js";
import { type Interface040, ipConfigToGo, Result040 } from "./v040.js";
import { result100Text } from "./v100-text.js";

/** The version `Result100` implements. */
export const implementedSpecVersion100 = "1.1.0";
/** The versions `Result100` is created for. */
export const supportedVersions100: readonly string[] = ["1.0.0", "1.1.0"];

/** An interface of a 1.x result (upstream `types100.Interface`). */
export interface Interface100 {
  /** Interface name. */
  name: string;
  /** MAC address, as written. */
  mac?: string;
  /** 0 or absent for none. */
  mtu?: number;
  /** The network namespace path it lives in; absent for the host. */
  sandbox?: string;
  /** The vhost-user socket path, for socket-based interfaces. */
  socketPath?: string;
  /** The PCI ID of the device, for device-based interfaces. */
  pciID?: string;
}

/** An IP configuration of a 1.x result (upstream `types100.IPConfig`): no IP version. */
export interface IPConfig100 {
  /** Index into the result's interfaces; 0 is a value, absent is none. */
  interface?: number;
  /** The address with its prefix length (host bits kept). */
  address: IPNet;
  /** The gateway; absent for none. */
  gateway?: Uint8Array;
}

/** The fields a `Result100` is built from. */
export interface Result100Init {
  /** The CNI version; default "" (filled in by `getAsVersion`). */
  cniVersion?: string;
  /** The result's `interfaces`; default none. */
  interfaces?: Interface100[];
  /** The result's `ips`; default none. */
  ips?: IPConfig100[];
  /** The result's `routes`; default none. */
  routes?: Route[];
  /** DNS settings; default empty. */
  dns?: DNS;
}

/**
 * The Go encoding of an interface alone: struct order, empty fields omitted. Inside a result
 * the map round trip sorts it (`mac`, `mtu`, `name`, `pciID`, `sandbox`, `socketPath`).
 */
export function interface100ToGo(i: Interface100): object {
  return goStruct({
    name: i.name,
    mac: i.mac || undefined,
    mtu: i.mtu || undefined,
    sandbox: i.sandbox || undefined,
    socketPath: i.socketPath || undefined,
    pciID: i.pciID || undefined,
  });
}

const codec = listResultCodec<Interface100, IPConfig100>(
  "types100",
  implementedSpecVersion100,
  supportedVersions100,
  { mtu: { type: "int" }, socketPath: { type: "string" }, pciID: { type: "string" } },
);

/** Upstream `IPConfig.UnmarshalJSON` (1.x) on a parsed JSON value. */
export const decodeIPConfig100 = codec.decodeIPConfig;

/** A 1.0.0 or 1.1.0 result (upstream `types100.Result`, the current one). */
export class Result100 extends ListResult<Interface100, IPConfig100> {
  /** Plain objects (Go maps) throughout: the encoder sorts every key, as upstream's does. */
  [toGoJSON](): unknown {
    return {
      cniVersion: this.cniVersion === "" ? undefined : this.cniVersion,
      interfaces: this.interfaces.length
        ? this.interfaces.map((i) => ({ ...interface100ToGo(i) }))
        : undefined,
      ips: this.ips.length ? this.ips.map((ip) => ({ ...ipConfigToGo(ip) })) : undefined,
      routes: this.routes.length ? this.routes.map((r) => ({ ...routeToGo(r) })) : undefined,
      dns: isDNSEmpty(this.dns) ? undefined : { ...dnsToGo(this.dns) },
    };
  }
}

/** One route of a 1.x result's list, decoded with the errors the whole list's decoding gives. */
export const decodeRouteEntry100 = routeItem;

// For a long `interfaces` list kept as parsed: the entries left raw, then each decoded alone in
// a one-entry list, so its errors name the place the whole list's decoding names.
const { fields } = codec.schema;
const rawInterfacesDecoder = defineStruct<ReturnType<typeof codec.decoder.decode>>("Result", {
  fields: {
    ...fields,
    interfaces: { type: "array", items: { type: "raw" }, goType: "[]*types100.Interface" },
  },
});
const oneInterfaceDecoder = defineStruct<{ interfaces: unknown[] }>("Result", {
  fields: { interfaces: fields.interfaces },
});
const { interfaceItem, ipItem } = codec;
/** One interface of a 1.x result's list, decoded alone as the whole list's decoding names it. */
export const decodeInterfaceEntry100 = (raw: unknown): Interface100 =>
  interfaceItem(oneInterfaceDecoder.decode({ interfaces: [raw] }).interfaces[0]);
/** As the eager decoding: every entry's own errors first, then a null entry's. */
function checkInterfaces(raw: readonly unknown[]): void {
  for (const item of raw) oneInterfaceDecoder.decode({ interfaces: [item] });
  for (const item of raw) if (item === null) interfaceItem(null);
}

/** True when `value` has `interfaces` (exactly that key, once) holding a long array. */
function hasLongInterfaces(value: unknown): boolean {
  if (!isJSONObject(value)) return false;
  const list = value.interfaces;
  if (!Array.isArray(list) || list.length < lazyListMinLength) return false;
  // Another key folding to "interfaces" would be decoded too (Go visits every one).
  return !Object.keys(value).some((k) => foldsToOtherKey(k, "interfaces"));
}

/** One IP configuration of a 1.x result's list (its entries are raw to the list's decoder). */
export const decodeIPEntry100: (raw: unknown) => IPConfig100 = ipItem;

/**
 * `Result100.fromValue`; with `ownedValue`, the value is a fresh parse nobody else holds, and a
 * long list is kept as parsed and decoded on first read (see lazy-list.ts).
 */
export function decodeResult100(value: unknown, ownedValue: boolean): Result100 {
  const lazyInterfaces = ownedValue && hasLongInterfaces(value);
  let r: ReturnType<typeof rawInterfacesDecoder.decode>;
  let interfaces: Interface100[] = [];
  if (lazyInterfaces) {
    try {
      r = rawInterfacesDecoder.decode(value);
    } catch (error) {
      // Go's first error may lie in an entry the raw decoder skipped: the full decoder's.
      codec.decoder.decode(value);
      throw error;
    }
    // Where the full decoder checks them: before ips and routes.
    checkInterfaces(r.interfaces ?? []);
  } else {
    r = codec.decoder.decode(value);
    interfaces = (r.interfaces ?? []).map(interfaceItem);
  }
  // A long `ips` list is checked here, where the eager decoding checks it, and kept as parsed.
  const rawIps = r.ips ?? [];
  const lazyIps = ownedValue && rawIps.length >= lazyListMinLength;
  if (lazyIps) for (const item of rawIps) ipItem(item);
  const rawRoutes = r.routes ?? [];
  const lazyRoutes = ownedValue && rawRoutes.length >= lazyListMinLength;
  const result = new Result100({
    cniVersion: r.cniVersion ?? "",
    interfaces,
    ips: lazyIps ? [] : rawIps.map(ipItem),
    routes: lazyRoutes ? [] : rawRoutes.map(decodeRouteEntry100),
    dns: r.dns,
  });
  if (lazyIps) defineLazyList(result, "ips", rawIps, ipItem, () => {});
  if (lazyInterfaces) {
    defineLazyList(result, "interfaces", r.interfaces ?? [], decodeInterfaceEntry100, () => {});
  }
  if (lazyRoutes) defineLazyList(result, "routes", rawRoutes, decodeRouteEntry100);
  if (!supportedVersions100.includes(result.cniVersion)) {
    throw new ResultVersionMismatchError(supportedVersions100, result.cniVersion);
  }
  return result;
}

// The encoder's fast path: the bytes of `[toGoJSON]`, written without building its objects.
// Set on the prototype, not declared, so the public type is unchanged.
Object.defineProperty(Result100.prototype, goJSONText, {
  value(this: Result100, asMap: boolean): string | undefined {
    return result100Text(this, asMap);
  },
});

/**
 * 0.3.x/0.4.0 -> 1.x (upstream convertFrom04x): the IP version is dropped. Also 1.0.0 <-> 1.1.0
 * (upstream convertFrom100), where only the version changes: the same copy.
 */
function convertFrom040To100(from: Result, toVersion: string): Result {
  const r = from as Result040 | Result100;
  return new Result100({
    cniVersion: toVersion,
    interfaces: r.interfaces.map((i) => ({ ...i })),
    ips: r.ips.map((ip) => copyIPConfigFields(ip, {})),
    routes: r.routes.map(copyRoute),
    dns: copyDNS(r.dns),
  });
}

/**
 * 1.x -> 0.3.x/0.4.0 (upstream convertTo04x): the IP version comes from the address family;
 * an interface's mtu, socketPath and pciID are dropped.
 */
function convertFrom100To040(from: Result, toVersion: string): Result040 {
  const r = from as Result100;
  return new Result040({
    cniVersion: toVersion,
    interfaces: r.interfaces.map((i) => {
      const out: Interface040 = { name: i.name };
      if (i.mac !== undefined) out.mac = i.mac;
      if (i.sandbox !== undefined) out.sandbox = i.sandbox;
      return out;
    }),
    ips: r.ips.map((ip) =>
      copyIPConfigFields(ip, { version: ip.address?.ip && ipTo4(ip.address.ip) ? "4" : "6" }),
    ),
    routes: r.routes.map(copyRoute),
    dns: copyDNS(r.dns),
  });
}

// Upstream types100's init() (after types020's and types040's: this module imports v040). To
// and from 0.1.0/0.2.0 goes through 0.4.0.
const v02x = ["0.1.0", "0.2.0"];
const v04x = ["0.3.0", "0.3.1", "0.4.0"];
registerConverter(v02x, supportedVersions100, (from, to) =>
  convertFrom040To100(convert(from, "0.4.0"), to),
);
registerConverter(v04x, supportedVersions100, convertFrom040To100);
registerConverter(supportedVersions100, supportedVersions100, convertFrom040To100);
registerConverter(supportedVersions100, v04x, convertFrom100To040);
registerConverter(supportedVersions100, v02x, (from, to) =>
  convert(convertFrom100To040(from, "0.4.0"), to),
);
// The creator decodes fresh parses (plugin output, cache records, createResult's bytes).
defineListResult(Result100, codec, (v) => decodeResult100(v, true));
