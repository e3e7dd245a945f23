/**
 * A large list of a decoded result (500k routes), kept as the parsed JSON it came from and
 * decoded into typed entries only when the property is first read. Every entry is checked
 * when the result is created (so the errors and their order are the eager decoder's); what
 * is deferred is keeping a typed object, a `Uint8Array` per address and per mask, for each
 * entry. The library's own verbs never read the list: the encoder writes it straight from
 * the parsed entries (see `pendingList`), so an ADD or DEL of a large result keeps one
 * compact copy instead of two.
 *
 * The property is an own, enumerable accessor until first read, then an ordinary data
 * property holding the decoded array (what the eager decoder would have stored); assigning
 * to it before that replaces it the same way.
 */

/** Lists shorter than this are decoded at once (small results keep their plain shape). */
export const lazyListMinLength = 1024;

interface Pending {
  raw: readonly unknown[];
  decode: (item: unknown) => unknown;
}

const pending = new WeakMap<object, Map<string, Pending>>();

function settle(target: object, key: string, value: unknown): void {
  pending.get(target)?.delete(key);
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
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
  let entries = pending.get(target);
  if (entries === undefined) {
    entries = new Map();
    pending.set(target, entries);
  }
  entries.set(key, { raw, decode });
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get(): T[] {
      const list = raw.map(decode);
      settle(target, key, list);
      return list;
    },
    set(value: T[]) {
      settle(target, key, value);
    },
  });
}

/**
 * The parsed entries and decoder of a list not yet read, or undefined once it was read or
 * assigned (or was never lazy): the encoder decodes entry by entry and drops each.
 */
export function pendingList(target: object, key: string): Pending | undefined {
  return pending.get(target)?.get(key);
}
