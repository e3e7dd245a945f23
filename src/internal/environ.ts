/**
 * This process's environment as a plugin's `KEY=value` list starts (upstream pkg/invoke/args.go
 * reads os.Environ() on every call), built so that a burst of calls does not hold one copy of
 * it each: process.env is read on every call, but while it reads as last time the strings
 * built then are handed out again, and a list built here is known to need no de-duplication
 * when it reaches a launcher unchanged (bench/README.md, "The ADD process's peak RSS").
 */

/** The pairs last built for one `replaced` set, with the keys and values they were built from. */
interface EnvironPairs {
  keys: readonly string[];
  values: readonly string[];
  pairs: readonly string[];
  /** True when {@link isExactList} holds for `pairs`. */
  exact: boolean;
}

const lastPairs = new Map<ReadonlySet<string>, EnvironPairs>();

/**
 * Lists {@link environWith} built and knows exact, each with a copy of itself as built: a
 * caller may change the list it was handed, and then it is checked as any other.
 */
const builtExact = new WeakMap<readonly string[], readonly string[]>();

/**
 * True when the list's object would give back the list itself: every entry has a key before
 * its "=", no key comes twice, and none starts with a digit (an array index moves to the
 * front of an object).
 */
export function isExactList(env: readonly string[]): boolean {
  const keys = new Set<string>();
  for (const kv of env) {
    const eq = kv.indexOf("=");
    const first = kv.charCodeAt(0);
    if (eq <= 0 || (first >= 48 && first <= 57)) return false;
    const key = kv.slice(0, eq);
    if (keys.has(key)) return false;
    keys.add(key);
  }
  return true;
}

/** The process environment's pairs without the `replaced` keys: last call's while the same. */
function currentPairs(replaced: ReadonlySet<string>): EnvironPairs {
  const env = process.env;
  const last = lastPairs.get(replaced);
  const keys = Object.keys(env);
  if (last !== undefined) {
    let i = 0;
    let same = true;
    for (const key of keys) {
      const value = env[key];
      // A key can read as undefined (as "1" can): skipped.
      if (value === undefined || replaced.has(key)) continue;
      if (last.keys[i] !== key || last.values[i] !== value) {
        same = false;
        break;
      }
      i++;
    }
    if (same && i === last.keys.length) return last;
  }
  const built: EnvironPairs = { keys: [], values: [], pairs: [], exact: false };
  for (const key of keys) {
    const value = env[key];
    if (value === undefined || replaced.has(key)) continue;
    (built.keys as string[]).push(key);
    (built.values as string[]).push(value);
    (built.pairs as string[]).push(`${key}=${value}`);
  }
  built.exact = isExactList(built.pairs);
  lastPairs.set(replaced, built);
  return built;
}

/**
 * The process environment as `KEY=value` strings in its own order, without the variables named
 * in `replaced`, then `overrides` (exact `KEY=value` entries whose keys `replaced` holds):
 * upstream's de-duplication, as process.env lists each key once. A new array on every call.
 */
export function environWith(replaced: ReadonlySet<string>, overrides: readonly string[]): string[] {
  const base = currentPairs(replaced);
  const out = base.pairs.concat(overrides);
  if (base.exact) builtExact.set(out, out.slice());
  return out;
}

/**
 * The list as {@link environWith} built it, when it did and knew it exact and the list is
 * unchanged since (a copy the caller cannot change); undefined otherwise.
 */
export function builtExactCopy(list: readonly string[]): readonly string[] | undefined {
  const copy = builtExact.get(list);
  if (copy === undefined || copy.length !== list.length) return undefined;
  for (let i = 0; i < copy.length; i++) if (copy[i] !== list[i]) return undefined;
  return copy;
}
