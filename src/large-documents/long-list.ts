/**
 * Checking a long list kept as text (encoding/long-arrays.ts) before a result is built on it:
 * every entry parsed and decoded (its errors are the eager decoder's), and its JSON text as
 * the result's encoder writes it kept, joined, for the cache record and the next plugin's
 * `prevResult`. The decoded entries are dropped: the list holds the source bytes and that text.
 *
 * A verb checks in slices that yield to the event loop (`checkLongListInSlices`, before it
 * decodes); a result decoded without that (`createResult` of a value so parsed) checks at once.
 */
import type { LongJSONArray } from "../encoding/long-arrays.js";
import { yieldToEventLoop } from "../internal/yield.js";
import type { LazyListSource } from "./lazy-list.js";

/** How one kind of entry is decoded, and written back. */
export interface EntryCodec<T> {
  /** Decodes a parsed entry, throwing the eager decoder's error for a bad one. */
  decode(raw: unknown): T;
  /** The entry's JSON text as the result's encoder writes it; undefined if it cannot. */
  text(entry: T): string | undefined;
}

/** A checked array's lazy-list source, or null when an entry failed (the exact path decides). */
const checked = new WeakMap<LongJSONArray, LazyListSource<unknown> | null>();

/** Entry texts are joined this many at a time (no array of one string per entry lives). */
const chunkEntries = 4096;
/** How long a check works before it yields to the event loop. */
const sliceMs = 20;

class Checker<T> {
  private next = 0;
  private readonly chunks: string[] = [];
  private texts: string[] | undefined = [];

  constructor(
    private readonly array: LongJSONArray,
    private readonly codec: EntryCodec<T>,
  ) {}

  get done(): boolean {
    return this.next >= this.array.length;
  }

  /** Checks up to `chunkEntries` more entries; false when one failed. */
  step(): boolean {
    const end = Math.min(this.next + chunkEntries, this.array.length);
    const texts: string[] = [];
    try {
      for (let i = this.next; i < end; i++) {
        const entry = this.codec.decode(this.array.parse(i));
        const text = this.texts && this.codec.text(entry);
        if (text === undefined) this.texts = undefined;
        else texts.push(text);
      }
    } catch {
      return false;
    }
    if (this.texts !== undefined) this.chunks.push(texts.join(","));
    this.next = end;
    return true;
  }

  source(): LazyListSource<T> {
    const { array, codec } = this;
    return {
      length: array.length,
      at: (i) => codec.decode(array.parse(i)),
      textChunks: this.texts === undefined ? undefined : this.chunks,
    };
  }
}

/** Checks `array` at once (when not checked yet): its source, or undefined when an entry fails. */
export function checkLongList<T>(
  array: LongJSONArray,
  codec: EntryCodec<T>,
): LazyListSource<T> | undefined {
  const known = checked.get(array);
  if (known !== undefined) return (known ?? undefined) as LazyListSource<T> | undefined;
  const checker = new Checker(array, codec);
  while (!checker.done) {
    if (!checker.step()) {
      checked.set(array, null);
      return undefined;
    }
  }
  const source = checker.source();
  checked.set(array, source as LazyListSource<unknown>);
  return source;
}

/** `checkLongList` in slices that yield to the event loop; the outcome is kept for the decoder. */
export async function checkLongListInSlices<T>(
  array: LongJSONArray,
  codec: EntryCodec<T>,
): Promise<void> {
  if (checked.has(array)) return;
  const checker = new Checker(array, codec);
  let sliceStart = performance.now();
  while (!checker.done) {
    if (!checker.step()) {
      checked.set(array, null);
      return;
    }
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
  checked.set(array, checker.source() as LazyListSource<unknown>);
}
