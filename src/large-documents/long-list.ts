/**
 * Checking a long list kept as text (long-array.ts) before a result is built on it: every
 * entry decoded in slices (the eager decoder's errors), its text as the result's encoder writes
 * it kept for the cache record and the next `prevResult`. The decoded entries are dropped: an
 * entry is decoded again only when it is read.
 */
import type { LazyListSource } from "../types/lazy-list.js";
import type { LongJSONArray } from "./long-array.js";
import { Slices } from "./slices.js";

/** How one kind of entry is decoded, and written back. */
export interface EntryCodec<T> {
  /** Decodes a parsed entry, throwing the eager decoder's error for a bad one. */
  decode(raw: unknown): T;
  /** The entry's JSON text as the result's encoder writes it; undefined if it cannot. */
  text(entry: T): string | undefined;
}

/** Entry texts are joined this many at a time (no array of one string per entry lives). */
const chunkEntries = 4096;

/**
 * The list's source for a lazy list (its entries decoded from the kept bytes, its text in
 * chunks), or undefined when an entry fails to decode: the exact path then decides, with the
 * whole document parsed, which error Go reports.
 */
export async function checkLongList<T>(
  array: LongJSONArray,
  codec: EntryCodec<T>,
): Promise<LazyListSource<T> | undefined> {
  const slices = new Slices();
  const chunks: string[] = [];
  let textKnown = true;
  for (let start = 0; start < array.length; start += chunkEntries) {
    const end = Math.min(start + chunkEntries, array.length);
    const texts: string[] = [];
    try {
      for (let i = start; i < end; i++) {
        const entry = codec.decode(array.parse(i));
        const text = textKnown ? codec.text(entry) : undefined;
        if (text === undefined) textKnown = false;
        else texts.push(text);
      }
    } catch {
      return undefined;
    }
    if (textKnown) chunks.push(texts.join(","));
    await slices.pauseIfDue();
  }
  return {
    length: array.length,
    at: (i) => codec.decode(array.parse(i)),
    textChunks: textKnown ? chunks : undefined,
  };
}
