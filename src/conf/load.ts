/**
 * Finding a network by name in a configuration directory (upstream `LoadConf`,
 * `LoadNetworkConf`, `LoadConfList`). conf/index.ts documents the public functions and loads
 * this file on their first call.
 */
import { ConfFileError, NoConfigsFoundError, NotFoundError } from "../errors/conf.js";
import { confDirListing, confFiles, confFromFile, networkConfFromFileIn } from "./files.js";
import { confListFromConf } from "./inject.js";
import type { NetworkConfigList, PluginConfig } from "./types.js";

/**
 * How many files are read and parsed ahead of the one being examined. Loading is latency, not
 * CPU: each read is a thread-pool round trip, and one after the other a large directory spent
 * much of its time idle waiting on them. 16 keeps the thread pool (4 threads by default) busy
 * without flooding it, and bounds the work wasted past a match.
 */
const READ_AHEAD = 16;

/** A load's outcome, held without rejecting so that a file never examined reports nothing. */
type Loaded<T> = { ok: true; value: T } | { ok: false; error: unknown };

// Placeholder for an outcome already examined.
const DONE: Promise<Loaded<never>> = Promise.resolve({ ok: false, error: undefined });

function settle<T>(promise: Promise<T>): Promise<Loaded<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/**
 * Loads `files` with `load` and returns the first, in file order, that `matches`; undefined
 * when none does. Up to READ_AHEAD loads run ahead, but the files are examined strictly in
 * order, as upstream's loop does: the first file that fails to load, before any match, aborts
 * the search with a ConfFileError naming it, and the failure of a file after the match (or
 * after the first failure) is never seen.
 */
async function firstInOrder<T>(
  files: readonly string[],
  load: (file: string) => Promise<T>,
  matches: (value: T) => boolean,
): Promise<T | undefined> {
  const pending: Promise<Loaded<T>>[] = [];
  let started = 0;
  for (let i = 0; i < files.length; i++) {
    for (; started < files.length && started < i + READ_AHEAD; started++) {
      pending.push(settle(load(files[started])));
    }
    const loaded = await pending[i];
    // Release the examined outcome: a long directory keeps only the window in memory.
    pending[i] = DONE;
    if (!loaded.ok) throw ConfFileError.wrap(files[i], loaded.error);
    if (matches(loaded.value)) return loaded.value;
  }
  return undefined;
}

export async function loadConf(dir: string, name: string): Promise<PluginConfig> {
  // In byte order, as upstream's sort.Strings leaves them (confFiles sorts the listing).
  const files = await confFiles(dir, [".conf", ".json"]);
  if (files.length === 0) throw new NoConfigsFoundError(dir);
  const conf = await firstInOrder(files, confFromFile, (c) => c.network.name === name);
  if (conf !== undefined) return conf;
  throw new NotFoundError(dir, name);
}

export async function loadNetworkConf(dir: string, name: string): Promise<NetworkConfigList> {
  const listing = await confDirListing(dir, [".conflist"]);
  const files = listing.files;
  const list = await firstInOrder(
    files,
    (file) => networkConfFromFileIn(file, listing.entries),
    (c) => c.name === name,
  );
  if (list !== undefined) return list;
  const single = await loadConf(dir, name).catch((error: unknown) => {
    // Lists were found, just none of them (and no single file) is this network.
    if (files.length !== 0 && error instanceof NoConfigsFoundError) {
      throw new NotFoundError(dir, name);
    }
    throw error;
  });
  return confListFromConf(single);
}
