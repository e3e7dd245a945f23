/**
 * Upstream's `types.Route`: a missing `dst` is Go's zero network ("<nil>"); `mtu`, `advmss` and
 * `priority` are omitted when 0; `table` and `scope` are Go pointers, omitted only when absent.
 */
import { goStruct } from "../encoding/json.js";
import { defineStruct } from "../encoding/struct.js";
import { copyIPNet, type IPNet, ipNetToString } from "./cidr.js";
import { decodeIP, decodeIPNet } from "./decode.js";
import { copyIP, ipMarshalText } from "./ip.js";

/** A route (upstream `types.Route`): for `mtu`, `advmss` and `priority`, 0 is none. */
export interface Route {
  /** Destination network. */
  dst: IPNet;
  /** Gateway; absent (or empty) for none. */
  gw?: Uint8Array;
  /** Route MTU. */
  mtu?: number;
  /** Advertised MSS. */
  advmss?: number;
  /** The metric. */
  priority?: number;
  /** Routing table; 0 is a value, absent is none. */
  table?: number;
  /** Route scope; 0 is a value, absent is none. */
  scope?: number;
}

/** The optional numbers, in Go's field order. */
const numberKeys = ["mtu", "advmss", "priority", "table", "scope"] as const;

type RawRoute = Omit<Route, "dst" | "gw"> & { dst?: unknown; gw?: string };
const routeDecoder = defineStruct<RawRoute>("route", {
  goType: "types.route",
  fields: {
    dst: { type: "raw" },
    gw: { type: "string", goType: "net.IP" },
    ...Object.fromEntries(numberKeys.map((key) => [key, { type: "int" }] as const)),
  },
});

/** Upstream `Route.UnmarshalJSON` on a parsed JSON value. */
export function decodeRoute(value: unknown): Route {
  const r = routeDecoder.decode(value);
  const route: Route = { dst: decodeIPNet(r.dst, "route", "dst") };
  const gw = decodeIP(r.gw);
  if (gw) route.gw = gw;
  for (const key of numberKeys) if (r[key] !== undefined) route[key] = r[key];
  return route;
}

/** The Go encoding of a route, in upstream's field order with its omitempty rules. */
export function routeToGo(route: Route): object {
  return goStruct({
    dst: ipNetToString(route.dst),
    gw: route.gw?.length ? ipMarshalText(route.gw) : undefined,
    mtu: route.mtu ? route.mtu : undefined,
    advmss: route.advmss ? route.advmss : undefined,
    priority: route.priority ? route.priority : undefined,
    table: route.table,
    scope: route.scope,
  });
}

/** Upstream `Route.Copy()`: a deep copy. */
export function copyRoute(route: Route): Route {
  const out: Route = { dst: copyIPNet(route.dst) };
  if (route.gw) out.gw = copyIP(route.gw);
  for (const key of numberKeys) if (route[key] !== undefined) out[key] = route[key];
  return out;
}
