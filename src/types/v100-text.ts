/**
 * The JSON text of a 1.x result written directly (the encoder's `goJSONText` fast path): the
 * bytes the generic encoder writes for `Result100[toGoJSON]()` (every key sorted, which is also
 * its map form), without an object per entry first. A shape other than the declared types (a
 * string `mtu`, a null route) gives undefined, and the generic path writes it.
 */
import { formatNumber, marshal, marshalAsMap, quoteString } from "../encoding/json.js";
import { isJSONObject } from "../internal/json-kind.js";
import { type IPNet, ipNetToString } from "./cidr.js";
import { type DNS, dnsToGo, isDNSEmpty } from "./dns.js";
import { ipMarshalText } from "./ip.js";
import { type LazyListSource, pendingList } from "./lazy-list.js";

/** What the writer reads of a `Result100`, whose entries it checks itself. */
interface Result100Fields {
  cniVersion: string;
  interfaces: unknown[];
  ips: unknown[];
  routes: unknown[];
  dns: DNS;
}

/** Thrown inside the writer to fall back; never leaves this module. */
const unexpected = Symbol("unexpected shape");

function ipNet(n: unknown): string {
  if (!isJSONObject(n) || !(n.ip instanceof Uint8Array) || !(n.mask instanceof Uint8Array)) {
    throw unexpected;
  }
  return quoteString(ipNetToString(n as unknown as IPNet));
}

/** A number field, omitted when absent and, for `omitempty` (not a Go pointer), when 0. */
function numberField(key: string, v: unknown, parts: string[], omitempty = true): void {
  if (omitempty ? !v : v === undefined) return;
  if (typeof v !== "number") throw unexpected;
  parts.push(`"${key}":${formatNumber(v)}`);
}

/** An address written when non-empty, as `gw?.length ? ipMarshalText(gw) : undefined`. */
function address(key: string, v: unknown, parts: string[]): void {
  if (v === undefined || v === null) return;
  if (!(v instanceof Uint8Array)) throw unexpected;
  if (v.length) parts.push(`"${key}":${quoteString(ipMarshalText(v))}`);
}

/** A string field, omitted when absent and, for `omitempty`, when "". */
function stringField(key: string, v: unknown, parts: string[], omitempty = true): void {
  if (omitempty ? !v : v === undefined) return;
  if (typeof v !== "string") throw unexpected;
  parts.push(`"${key}":${quoteString(v)}`);
}

function routeText(r: unknown): string {
  if (!isJSONObject(r)) throw unexpected;
  const parts: string[] = [];
  numberField("advmss", r.advmss, parts);
  parts.push(`"dst":${ipNet(r.dst)}`);
  address("gw", r.gw, parts);
  numberField("mtu", r.mtu, parts);
  numberField("priority", r.priority, parts);
  numberField("scope", r.scope, parts, false);
  numberField("table", r.table, parts, false);
  return `{${parts.join(",")}}`;
}

function interfaceText(i: unknown): string {
  if (!isJSONObject(i)) throw unexpected;
  const parts: string[] = [];
  stringField("mac", i.mac, parts);
  numberField("mtu", i.mtu, parts);
  stringField("name", i.name, parts, false);
  stringField("pciID", i.pciID, parts);
  stringField("sandbox", i.sandbox, parts);
  stringField("socketPath", i.socketPath, parts);
  return `{${parts.join(",")}}`;
}

function ipConfigText(c: unknown): string {
  if (!isJSONObject(c)) throw unexpected;
  const parts: string[] = [`"address":${ipNet(c.address)}`];
  address("gateway", c.gateway, parts);
  numberField("interface", c.interface, parts, false);
  return `{${parts.join(",")}}`;
}

/** The entries of a list as the writers read them: a plain array's or a lazy list's source. */
type Entries = LazyListSource<unknown>;

/** Entry texts are joined this many at a time, so that no array of one string per entry lives. */
const chunkEntries = 4096;

/** The entries' texts in chunks to join by commas: a long list's source has them already. */
function* textChunks(entries: Entries, write: (item: unknown) => string): Generator<string> {
  if (entries.textChunks !== undefined) {
    yield* entries.textChunks;
    return;
  }
  for (let start = 0; start < entries.length; start += chunkEntries) {
    yield chunkText(entries, write, start, Math.min(start + chunkEntries, entries.length));
  }
}

/** The texts of entries `start` to `end`, joined by commas. */
function chunkText(
  entries: Entries,
  write: (item: unknown) => string,
  start: number,
  end: number,
): string {
  const texts = new Array<string>(end - start);
  for (let i = start; i < end; i++) texts[i - start] = write(entries.at(i));
  return texts.join(",");
}

function list(key: string, entries: Entries, write: (item: unknown) => string): string | undefined {
  if (entries.length === 0) return undefined;
  // A short list (every small result) is one chunk: no generator on the small ADD's path.
  const text =
    entries.length <= chunkEntries && entries.textChunks === undefined
      ? chunkText(entries, write, 0, entries.length)
      : [...textChunks(entries, write)].join(",");
  return `"${key}":[${text}]`;
}

/** Called between chunks of a long list: where the writer of pieces may yield. */
export type Pause = () => Promise<void>;

/**
 * A list's member as pieces of text (`"key":[`, the chunks with commas, `]`), with `pause`
 * awaited after each chunk.
 */
async function listPieces(
  key: string,
  entries: Entries,
  write: (item: unknown) => string,
  pause: Pause,
): Promise<string[] | undefined> {
  if (entries.length === 0) return undefined;
  const pieces = [`"${key}":[`];
  for (const chunk of textChunks(entries, write)) {
    if (pieces.length > 1) pieces.push(",");
    pieces.push(chunk);
    await pause();
  }
  pieces.push("]");
  return pieces;
}

/** The result's lists in their order, each written from its compact source while not read. */
const lists = [
  ["interfaces", interfaceText],
  ["ips", ipConfigText],
  ["routes", routeText],
] as const;

function entriesOfList(r: Result100Fields, key: (typeof lists)[number][0]): Entries {
  const pending = pendingList(r, key);
  if (pending !== undefined) return pending;
  const items = r[key];
  if (!Array.isArray(items)) throw unexpected;
  return { length: items.length, at: (i) => items[i] };
}

/** `write`, giving undefined where it meets an unexpected shape. */
function orUndefined<A extends unknown[]>(
  write: (...args: A) => string,
): (...args: A) => string | undefined {
  return (...args) => {
    try {
      return write(...args);
    } catch (error) {
      if (error === unexpected) return undefined;
      throw error;
    }
  };
}

/** A route's text in a 1.x result's JSON (keys sorted); undefined for an unexpected shape. */
export const route100Text = orUndefined(routeText);
/** An interface's text in a 1.x result's JSON; undefined for an unexpected shape. */
export const interface100Text = orUndefined(interfaceText);
/** An IP configuration's text in a 1.x result's JSON; undefined for an unexpected shape. */
export const ipConfig100Text = orUndefined(ipConfigText);

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

/** The result's JSON text, or undefined for the generic path. */
export const result100Text = orUndefined((r: Result100Fields, asMap: boolean): string => {
  const parts = head(r, asMap);
  for (const [key, write] of lists) {
    const text = list(key, entriesOfList(r, key), write);
    if (text !== undefined) parts.push(text);
  }
  return `{${parts.join(",")}}`;
});

/**
 * `result100Text` as pieces whose concatenation is that text, with `pause` awaited between
 * chunks of the long lists: a large result (src/large-documents/) is written without one long
 * stall and without one flat string of it.
 */
export async function result100Pieces(
  r: Result100Fields,
  asMap: boolean,
  pause: Pause,
): Promise<string[] | undefined> {
  try {
    const members: string[][] = head(r, asMap).map((part) => [part]);
    for (const [key, write] of lists) {
      const pieces = await listPieces(key, entriesOfList(r, key), write, pause);
      if (pieces !== undefined) members.push(pieces);
    }
    const pieces = ["{"];
    members.forEach((member, i) => {
      if (i > 0) pieces.push(",");
      for (const piece of member) pieces.push(piece);
    });
    pieces.push("}");
    return pieces;
  } catch (error) {
    if (error === unexpected) return undefined;
    throw error;
  }
}
