/**
 * A 1.x result whose long lists come from a large document: decoded on the kept text (a lazy
 * list over each: types/lazy-list.ts) and written back as pieces in slices. Every other result,
 * and anything this path cannot decide exactly, takes the types' ordinary decoder and encoder.
 */
import { foldsToOtherKey } from "../encoding/struct.js";
import { attempt } from "../internal/error-message.js";
import { findCreator } from "../types/create.js";
import {
  defineLazySource,
  type LazyListSource,
  lazyListMinLength,
  pendingList,
} from "../types/lazy-list.js";
import type { Result } from "../types/result.js";
import {
  decodeInterfaceEntry100,
  decodeIPEntry100,
  decodeResult100,
  decodeRouteEntry100,
  Result100,
  supportedVersions100,
} from "../types/v100.js";
import {
  interface100Text,
  ipConfig100Text,
  result100Pieces,
  route100Text,
} from "../types/v100-text.js";
import {
  type LongArrayPath,
  type LongJSONArray,
  longArraysOf,
  materializeLongArrays,
} from "./long-array.js";
import { checkLongList, type EntryCodec } from "./long-list.js";
import { Slices } from "./slices.js";

/** Where a 1.x result's long lists may be kept as text, from the result's top level. */
export const longListPaths100: readonly LongArrayPath[] = [["interfaces"], ["ips"], ["routes"]];

const codecs: Record<string, EntryCodec<unknown>> = {
  interfaces: { decode: decodeInterfaceEntry100, text: (i) => interface100Text(i) },
  ips: { decode: decodeIPEntry100, text: (c) => ipConfig100Text(c) },
  routes: { decode: decodeRouteEntry100, text: (r) => route100Text(r) },
};

/**
 * A result whose long lists are kept as text: each list checked in slices, the rest decoded as
 * usual, each list made a lazy list over its text. Undefined whenever anything fails or could
 * decode otherwise (a bad entry, another key folding to a list's name): the exact path then
 * decides.
 */
async function decodeOnKeptText(
  value: Record<string, unknown>,
  found: readonly { path: LongArrayPath; array: LongJSONArray }[],
): Promise<Result100 | undefined> {
  const keys = Object.keys(value);
  const stripped: Record<string, unknown> = { ...value };
  const sources: [string, LazyListSource<unknown>][] = [];
  for (const { path, array } of found) {
    const name = path[0];
    // Go decodes every key that folds to the field's name: only the exact key is read here.
    if (keys.some((k) => foldsToOtherKey(k, name))) return undefined;
    const source = await checkLongList(array, codecs[name]);
    if (source === undefined) return undefined;
    stripped[name] = [];
    sources.push([name, source]);
  }
  const result = attempt(() => decodeResult100(stripped, false));
  if (result === undefined) return undefined;
  for (const [name, source] of sources) defineLazySource(result, name, source);
  return result;
}

/**
 * The result `value` holds (a large document's parse, nobody else's), decoded by the creator of
 * `version`: a 1.x result keeps its long lists as their text; any other value, or one the kept
 * text cannot decide, has its lists parsed in place and is decoded as any other.
 */
export async function decodeKeptResult(
  value: Record<string, unknown>,
  version: string,
): Promise<Result> {
  const found = longArraysOf(value, longListPaths100);
  if (found.length > 0) {
    if (supportedVersions100.includes(version)) {
      const result = await decodeOnKeptText(value, found);
      if (result !== undefined) return result;
    }
    materializeLongArrays(value, longListPaths100);
  }
  return findCreator(version)(value);
}

/** True for a result written beforehand in slices (a 1.x result with a long list). */
export function isLongResult(result: Result): result is Result100 {
  if (!(result instanceof Result100)) return false;
  // The lazy list is checked first: reading `routes` would decode it.
  return (
    pendingList(result, "routes") !== undefined ||
    pendingList(result, "interfaces") !== undefined ||
    pendingList(result, "ips") !== undefined ||
    result.routes.length >= lazyListMinLength ||
    result.interfaces.length >= lazyListMinLength ||
    result.ips.length >= lazyListMinLength
  );
}

/**
 * The JSON of a long result as pieces (its own encoding, or with `asMap` its map form's, as
 * `marshalAsMap` writes it), written in slices that yield to the event loop; undefined for any
 * other result, or one of an unexpected shape (the encoder then writes it as usual).
 */
export async function resultPiecesInSlices(
  result: Result,
  asMap: boolean,
): Promise<string[] | undefined> {
  if (!isLongResult(result)) return undefined;
  const slices = new Slices();
  return result100Pieces(result, asMap, () => slices.pauseIfDue());
}
