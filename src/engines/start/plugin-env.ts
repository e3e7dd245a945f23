/**
 * A plugin run's environment as the library hands it to a launcher: the call's `KEY=value`
 * list (or an env object, when the trace variables were added to a copy), made into an env
 * object only for a launcher that takes one (the direct spawn, a custom launcher). The
 * spawner helper takes the list's entries as they are: building an object of some forty
 * variables per run is most of what a call holds the main thread for while its plugin runs.
 */

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

/** An environment's `KEY=value` entries, and whether one holds a NUL byte. */
export interface EnvEntries {
  entries: readonly string[];
  hasNul: boolean;
}

/** The entries of an env object, as Node's spawn reads it: own keys, undefined values skipped. */
function entriesOf(env: NodeJS.ProcessEnv): EnvEntries {
  const entries: string[] = [];
  let hasNul = false;
  for (const key of Object.keys(env)) {
    const value = env[key];
    if (value === undefined) continue;
    const entry = `${key}=${value}`;
    if (!hasNul && entry.includes("\0")) hasNul = true;
    entries.push(entry);
  }
  return { entries, hasNul };
}

/**
 * True when the list's object would give back the list itself: every entry has a key before
 * its "=", no key comes twice, and none starts with a digit (an array index moves to the
 * front of an object).
 */
function isExactList(env: readonly string[]): boolean {
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

/**
 * A run's environment as of the exec call (a list changed afterwards does not change it): its
 * entries and its env object, each made on demand, once.
 */
export class PluginEnv {
  private listEntries: EnvEntries | undefined;

  private constructor(
    private readonly list: readonly string[] | undefined,
    private obj: NodeJS.ProcessEnv | undefined,
  ) {}

  /** The environment of a `KEY=value` list (the last of a key wins, as in Go's exec). */
  static ofList(list: readonly string[]): PluginEnv {
    return new PluginEnv(list.slice(), undefined);
  }

  /** The environment of an env object (`process.env` for "this process's environment"). */
  static ofObject(object: NodeJS.ProcessEnv): PluginEnv {
    return new PluginEnv(undefined, object);
  }

  /** The env object, as Node's spawn takes it. */
  object(): NodeJS.ProcessEnv {
    this.obj ??= envObject(this.list ?? []);
    return this.obj;
  }

  /** The `KEY=value` entries the object gives, in its order: the list itself when it can be. */
  entries(): EnvEntries {
    if (this.listEntries !== undefined) return this.listEntries;
    const list = this.list;
    this.listEntries =
      list !== undefined && isExactList(list)
        ? { entries: list, hasNul: list.some((kv) => kv.includes("\0")) }
        : entriesOf(this.object());
    return this.listEntries;
  }
}
