/**
 * A long list of a decoded result (thousands of routes), kept compact (the entries' parsed
 * JSON, or a large document's bytes and texts) and decoded into typed entries, a `Uint8Array`
 * per address and mask, only when first read. Every entry is checked when the result is made,
 * so errors and their order are the eager decoder's. The library's verbs never read the list
 * (the encoder writes it from its source, `pendingList`): a large ADD or DEL keeps one copy.
 * The property is an own, enumerable accessor until read or assigned, then a data property.
 */
import { setOwn } from "../encoding/parse.js";

/** Lists shorter than this are decoded at once (small results keep their plain shape). */
export const lazyListMinLength = 1024;

/** Where a lazy list's entries come from. */
export interface LazyListSource<T> {
  readonly length: number;
  /** Entry `i`, decoded (a fresh value per call). */
  at(i: number): T;
  /** The entries' JSON texts as the encoder writes them, in chunks to join by commas. */
  readonly textChunks?: readonly string[] | undefined;
}

/** Each result's lists not read yet, by property name. */
const pending = new WeakMap<object, Map<string, LazyListSource<unknown>>>();

/** Defines `target[key]` as `source`'s entries, decoded on first read. */
export function defineLazySource<T>(target: object, key: string, source: LazyListSource<T>): void {
  const sources = pending.get(target) ?? new Map<string, LazyListSource<unknown>>();
  pending.set(target, sources);
  sources.set(key, source);
  const settle = (value: T[]): void => {
    sources.delete(key);
    setOwn(target, key, value);
  };
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): T[] {
      const list = new Array<T>(source.length);
      for (let i = 0; i < list.length; i++) list[i] = source.at(i);
      settle(list);
      return list;
    },
    set: settle,
  });
}

/**
 * Checks every entry of `raw` (with `check`, by default `decode`) and defines `target[key]` as
 * the list decoded on first read. `raw` must be the caller's own (a fresh parse): it is read later.
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

/** The source of a list not read or assigned yet, which the encoder writes entry by entry. */
export function pendingList(target: object, key: string): LazyListSource<unknown> | undefined {
  return pending.get(target)?.get(key);
}
