/**
 * The plugin environment converted once per call rather than once per plugin run.
 *
 * A call (an ADD of a chain, say) hands every plugin run the same `KEY=value` list
 * ({@link OnceArgs}); RawExec turns it into an env object, and the spawner launcher turns that
 * object back into entries. Both conversions are remembered here: the object per list (checked
 * entry by entry, so a list changed in place is converted again), the entries per object (only
 * for frozen objects, which cannot change).
 */
import type { CNIArgs } from "./args.js";

/** Turns a `KEY=value` list into an env object, the last value winning as Go's exec does. */
export function envObject(env: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of env) {
    const eq = kv.indexOf("=");
    // Node cannot pass an entry without "="; it would carry no variable anyway.
    if (eq > 0) out[kv.slice(0, eq)] = kv.slice(eq + 1);
  }
  return out;
}

/** An env object's `KEY=value` entries, and whether one holds a NUL byte. */
export interface EnvEntries {
  entries: readonly string[];
  hasNul: boolean;
}

const entryMemo = new WeakMap<object, EnvEntries>();

interface ObjectMemo {
  snapshot: readonly string[];
  object: Readonly<Record<string, string>>;
}

const objects = new WeakMap<readonly string[], ObjectMemo>();

function sameEntries(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** {@link envObject} of `env`, frozen, converted once while `env` holds the same entries. */
export function envObjectOnce(env: readonly string[]): Readonly<Record<string, string>> {
  const memo = objects.get(env);
  if (memo !== undefined && sameEntries(memo.snapshot, env)) return memo.object;
  const object = Object.freeze(envObject(env));
  objects.set(env, { snapshot: env.slice(), object });
  return object;
}

function entriesOf(env: NodeJS.ProcessEnv): EnvEntries {
  const entries: string[] = [];
  let hasNul = false;
  // As Node's spawn: own enumerable keys, undefined values skipped.
  for (const key of Object.keys(env)) {
    const value = env[key];
    if (value === undefined) continue;
    const entry = `${key}=${value}`;
    if (!hasNul && entry.includes("\0")) hasNul = true;
    entries.push(entry);
  }
  return { entries, hasNul };
}

interface ListEntriesMemo {
  snapshot: readonly string[];
  entries: EnvEntries;
}

const listEntries = new WeakMap<readonly string[], ListEntriesMemo>();

/**
 * The entries the env object of `env` would give ({@link envObjectOnce}, then
 * {@link envEntriesOnce}), without making the object when they are `env` itself: every entry
 * has a key before its "=", no key comes twice, and none starts with a digit (an array index
 * moves to the front of an object). Remembered while `env` holds the same entries.
 */
export function envEntriesOfList(env: readonly string[]): EnvEntries {
  const memo = listEntries.get(env);
  if (memo !== undefined && sameEntries(memo.snapshot, env)) return memo.entries;
  const snapshot = env.slice();
  const entries = exactList(snapshot)
    ? { entries: snapshot, hasNul: snapshot.some((kv) => kv.includes("\0")) }
    : envEntriesOnce(envObjectOnce(env));
  listEntries.set(env, { snapshot, entries });
  return entries;
}

function exactList(env: readonly string[]): boolean {
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

/** The entries of `env`; remembered when `env` is frozen (it cannot change then). */
export function envEntriesOnce(env: NodeJS.ProcessEnv): EnvEntries {
  if (!Object.isFrozen(env)) return entriesOf(env);
  let memo = entryMemo.get(env);
  if (memo === undefined) {
    memo = entriesOf(env);
    entryMemo.set(env, memo);
  }
  return memo;
}

/**
 * A call's CNIArgs: the environment built on the first plugin run and the same list handed to
 * every later run of the call (`share`), or a copy of it to an Exec that might change it.
 */
export class OnceArgs implements CNIArgs {
  private env: string[] | undefined;
  private built = false;

  constructor(
    private readonly args: CNIArgs,
    private readonly share: boolean,
  ) {}

  asEnv(): string[] | undefined {
    if (!this.built) {
      this.env = this.args.asEnv();
      this.built = true;
    }
    if (this.env === undefined || this.share) return this.env;
    return this.env.slice();
  }
}
