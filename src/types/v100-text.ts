/**
 * The JSON text of a 1.x result written directly (the encoder's `goJSONText` fast path): the
 * same bytes the generic encoder writes for `Result100[toGoJSON]()` (every key sorted at every
 * level, which is also its map form), without building an object per route, interface and IP
 * configuration first. Anything of a shape other than the declared types (a hand-built result
 * with a string `mtu`, a null route) returns undefined, and the generic path writes it.
 */
import { formatNumber, marshal, marshalAsMap, quoteString } from "../encoding/json.js";
import { yieldToEventLoop } from "../internal/yield.js";
import { type IPNet, ipNetToString } from "./cidr.js";
import { type DNS, dnsToGo, isDNSEmpty } from "./dns.js";
import { ipMarshalText } from "./ip.js";
import { pendingList } from "./lazy-list.js";
import type { Route } from "./route.js";
import type { Interface100, IPConfig100 } from "./v100-fields.js";

/** What the writer reads of a `Result100`. */
interface Result100Fields {
  cniVersion: string;
  interfaces: Interface100[];
  ips: IPConfig100[];
  routes: Route[];
  dns: DNS;
}

/** Thrown inside the writer to fall back; never leaves this module. */
const unexpected = Symbol("unexpected shape");

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

function ipNet(n: unknown): string {
  if (!isObject(n) || !(n.ip instanceof Uint8Array) || !(n.mask instanceof Uint8Array)) {
    throw unexpected;
  }
  return quoteString(ipNetToString(n as unknown as IPNet));
}

/** A number field written when truthy (Go's omitempty on an int). */
function truthyNumber(key: string, v: unknown, parts: string[]): void {
  if (!v) return;
  if (typeof v !== "number") throw unexpected;
  parts.push(`"${key}":${formatNumber(v)}`);
}

/** A pointer field: written unless absent. */
function presentNumber(key: string, v: unknown, parts: string[]): void {
  if (v === undefined) return;
  if (typeof v !== "number") throw unexpected;
  parts.push(`"${key}":${formatNumber(v)}`);
}

/** An address written when non-empty, as `gw?.length ? ipMarshalText(gw) : undefined`. */
function address(key: string, v: unknown, parts: string[]): void {
  if (v === undefined || v === null) return;
  if (!(v instanceof Uint8Array)) throw unexpected;
  if (v.length) parts.push(`"${key}":${quoteString(ipMarshalText(v))}`);
}

/** A string written when truthy (`x || undefined`). */
function truthyString(key: string, v: unknown, parts: string[]): void {
  if (!v) return;
  if (typeof v !== "string") throw unexpected;
  parts.push(`"${key}":${quoteString(v)}`);
}

function routeText(r: unknown): string {
  if (!isObject(r)) throw unexpected;
  const parts: string[] = [];
  truthyNumber("advmss", r.advmss, parts);
  parts.push(`"dst":${ipNet(r.dst)}`);
  address("gw", r.gw, parts);
  truthyNumber("mtu", r.mtu, parts);
  truthyNumber("priority", r.priority, parts);
  presentNumber("scope", r.scope, parts);
  presentNumber("table", r.table, parts);
  return `{${parts.join(",")}}`;
}

function interfaceText(i: unknown): string {
  if (!isObject(i)) throw unexpected;
  const parts: string[] = [];
  truthyString("mac", i.mac, parts);
  truthyNumber("mtu", i.mtu, parts);
  if (i.name !== undefined) {
    if (typeof i.name !== "string") throw unexpected;
    parts.push(`"name":${quoteString(i.name)}`);
  }
  truthyString("pciID", i.pciID, parts);
  truthyString("sandbox", i.sandbox, parts);
  truthyString("socketPath", i.socketPath, parts);
  return `{${parts.join(",")}}`;
}

function ipConfigText(c: unknown): string {
  if (!isObject(c)) throw unexpected;
  const parts: string[] = [`"address":${ipNet(c.address)}`];
  address("gateway", c.gateway, parts);
  presentNumber("interface", c.interface, parts);
  return `{${parts.join(",")}}`;
}

/** Writes a list; `pause`, when given, is awaited between slices of the work (see below). */
function list(key: string, items: unknown, write: (item: unknown) => string): string | undefined {
  if (!Array.isArray(items)) throw unexpected;
  if (items.length === 0) return undefined;
  const texts = new Array<string>(items.length);
  for (let i = 0; i < items.length; i++) texts[i] = write(items[i]);
  return `"${key}":[${texts.join(",")}]`;
}

/** How long the chunked writer works before it yields to the event loop. */
const sliceMs = 20;

async function listInSlices(
  key: string,
  items: unknown,
  write: (item: unknown) => string,
): Promise<string | undefined> {
  if (!Array.isArray(items)) throw unexpected;
  if (items.length === 0) return undefined;
  const texts = new Array<string>(items.length);
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    texts[i] = write(items[i]);
    if ((i & 1023) === 1023 && performance.now() - sliceStart >= sliceMs) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  return `"${key}":[${texts.join(",")}]`;
}

/** The interfaces, from their parsed entries while the list was not read. */
function interfacesText<T>(
  r: Result100Fields,
  writeList: (key: string, items: unknown, write: (item: unknown) => string) => T,
): T {
  const lazy = pendingList(r, "interfaces");
  if (lazy === undefined) return writeList("interfaces", r.interfaces, interfaceText);
  return writeList("interfaces", lazy.raw, (item) => interfaceText(lazy.decode(item)));
}

/** The routes, from their parsed entries while the list was not read (one entry at a time). */
function routesText<T>(
  r: Result100Fields,
  writeList: (key: string, items: unknown, write: (item: unknown) => string) => T,
): T {
  const lazy = pendingList(r, "routes");
  if (lazy === undefined) return writeList("routes", r.routes, routeText);
  return writeList("routes", lazy.raw, (item) => routeText(lazy.decode(item)));
}

function head(r: Result100Fields, asMap: boolean): string[] {
  const parts: string[] = [];
  if (r.cniVersion !== "") {
    if (typeof r.cniVersion !== "string") throw unexpected;
    parts.push(`"cniVersion":${quoteString(r.cniVersion)}`);
  }
  if (!isDNSEmpty(r.dns)) {
    // Small and free-form: the generic encoder writes it (a plain object: keys sorted).
    const dns = { ...dnsToGo(r.dns) };
    parts.push(`"dns":${asMap ? marshalAsMap(dns) : marshal(dns)}`);
  }
  return parts;
}

function join(parts: string[], lists: (string | undefined)[]): string {
  for (const text of lists) if (text !== undefined) parts.push(text);
  return `{${parts.join(",")}}`;
}

/** The result's JSON text, or undefined for the generic path. */
export function result100Text(r: Result100Fields, asMap: boolean): string | undefined {
  try {
    return join(head(r, asMap), [
      interfacesText(r, list),
      list("ips", r.ips, ipConfigText),
      routesText(r, list),
    ]);
  } catch (error) {
    if (error === unexpected) return undefined;
    throw error;
  }
}

/**
 * `result100Text`, yielding to the event loop every few milliseconds of work on the long
 * lists: what a verb uses to encode a large result (for the cache record, for the next
 * plugin's stdin) without one long stall.
 */
export async function result100TextInSlices(
  r: Result100Fields,
  asMap: boolean,
): Promise<string | undefined> {
  try {
    const parts = head(r, asMap);
    const interfaces = await interfacesText(r, listInSlices);
    const ips = list("ips", r.ips, ipConfigText);
    const routes = await routesText(r, listInSlices);
    return join(parts, [interfaces, ips, routes]);
  } catch (error) {
    if (error === unexpected) return undefined;
    throw error;
  }
}
