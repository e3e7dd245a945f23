/**
 * A large list of a decoded result (500k routes), kept in a compact form and decoded into
 * typed entries only when the property is first read. Every entry is checked when the result
 * is created (so the errors and their order are the eager decoder's); what is deferred is
 * keeping a typed object, a `Uint8Array` per address and per mask, for each entry. The compact
 * form is the parsed JSON of the entries, or for a large document (see
 * encoding/long-arrays.ts) their source bytes and the entries' JSON text as the encoder writes
 * it. The library's own verbs never read the list: the encoder writes it from that form
 * (see `pendingList`), so an ADD or DEL of a large result keeps one compact copy.
 *
 * The property is an own, enumerable accessor until first read, then an ordinary data
 * property holding the decoded array (what the eager decoder would have stored); assigning
 * to it before that replaces it the same way.
 */

/** Lists shorter than this are decoded at once (small results keep their plain shape). */
export const lazyListMinLength = 1024;

/** Where a lazy list's entries come from. */
export interface LazyListSource<T> {
  /** The number of entries. */
  readonly length: number;
  /** Entry `i`, decoded (a fresh value per call). */
  at(i: number): T;
  /** The entries' JSON texts as the encoder writes them, in chunks to join by commas, when known. */
  readonly textChunks?: readonly string[] | undefined;
}

const pending = new WeakMap<object, Map<string, LazyListSource<unknown>>>();

function settle(target: object, key: string, value: unknown): void {
  pending.get(target)?.delete(key);
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/** Defines `target[key]` as `source`'s entries, decoded on first read. */
export function defineLazySource<T>(target: object, key: string, source: LazyListSource<T>): void {
  let entries = pending.get(target);
  if (entries === undefined) {
    entries = new Map();
    pending.set(target, entries);
  }
  entries.set(key, source);
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): T[] {
      const list = new Array<T>(source.length);
      for (let i = 0; i < list.length; i++) list[i] = source.at(i);
      settle(target, key, list);
      return list;
    },
    set(value: T[]) {
      settle(target, key, value);
    },
  });
}

/**
 * Checks every entry of `raw` (with `check`, by default `decode`; throwing its first error)
 * and defines `target[key]` as the list decoded on first read. `raw` must be owned by the
 * caller (a fresh parse): it is read again later.
 */
export function defineLazyList<T>(
  target: object,
  key: string,
  raw: readonly unknown[],
  decode: (item: unknown) => T,
  check: (raw: readonly unknown[]) => void = (items) => {
    for (let i = 0; i < items.length; i++) decode(items[i]);
  },
): void {
  check(raw);
  defineLazySource(target, key, { length: raw.length, at: (i) => decode(raw[i]) });
}

/**
 * The source of a list not yet read, or undefined once it was read or assigned (or was never
 * lazy): the encoder writes its text, or decodes entry by entry and drops each.
 */
export function pendingList(target: object, key: string): LazyListSource<unknown> | undefined {
  return pending.get(target)?.get(key);
}
