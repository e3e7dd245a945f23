/**
 * Plugin lookups remembered, safely: a call that runs a plugin found before skips the stats of
 * `findInPath` (thread-pool round trips, per plugin of every call), and gives upstream's
 * outcome whenever the plugin changed since.
 *
 * Only an answer in the FIRST directory of an absolute search path is remembered: no earlier
 * directory can shadow it, so a plugin added elsewhere never changes which file upstream would
 * run. A binary replaced in place is the same path (the new file runs, as upstream). A binary
 * removed, or turned into something that is not a runnable file (a directory, a dangling link),
 * makes the start fail with ENOENT or EACCES: the caller then forgets the answer, looks the
 * plugin up again with upstream's findInPath (whose error is upstream's when it is gone) and
 * runs what it finds, once. A failed validation after a remembered lookup checks the lookup
 * again first, as upstream looks up before it validates.
 *
 * Used only with the library's own RawExec lookup; a custom Exec's findInPath is always called.
 */
import { isAbsolute, join, resolve } from "node:path";
import { findInPath } from "./find.js";

/** A lookup's answer, and whether it came from the memory. */
export interface FoundPlugin {
  path: string;
  cached: boolean;
}

// Far more than any runtime's plugins: a bound, not a policy.
const maxEntries = 1024;

/** The ENOENT or EACCES of a start that never ran, as RawExec reports it (its cause). */
export function startFailedMissing(error: unknown): boolean {
  const cause = (error as { cause?: NodeJS.ErrnoException } | undefined)?.cause;
  if (cause === undefined || typeof cause.syscall !== "string") return false;
  if (!cause.syscall.startsWith("spawn")) return false;
  return cause.code === "ENOENT" || cause.code === "EACCES";
}

/** Remembered first-directory lookups; see the module comment. */
export class PluginLookupCache {
  private readonly found = new Map<string, string>();

  private static key(plugin: string, paths: readonly string[]): string {
    return `${plugin}\0${paths.join("\0")}`;
  }

  /** The plugin's path: remembered, or upstream's findInPath (remembered when it may be). */
  async find(plugin: string, paths: readonly string[]): Promise<FoundPlugin> {
    const key = PluginLookupCache.key(plugin, paths);
    const known = this.found.get(key);
    if (known !== undefined) return { path: known, cached: true };
    const path = await findInPath(plugin, paths);
    const first = paths[0];
    if (first !== undefined && isAbsolute(first) && path === resolve(join(first, plugin))) {
      if (this.found.size >= maxEntries) this.found.clear();
      this.found.set(key, path);
    }
    return { path, cached: false };
  }

  /** Forgets the answer and looks the plugin up again (upstream's error if it is gone). */
  async again(plugin: string, paths: readonly string[]): Promise<string> {
    this.found.delete(PluginLookupCache.key(plugin, paths));
    return (await this.find(plugin, paths)).path;
  }

  /**
   * Runs `run` with the plugin found; when a remembered path fails to start with ENOENT or
   * EACCES, looks up again and runs what is found, once.
   */
  async run<T>(
    plugin: string,
    paths: readonly string[],
    found: FoundPlugin,
    run: (path: string) => Promise<T>,
  ): Promise<T> {
    try {
      return await run(found.path);
    } catch (error) {
      if (!found.cached || !startFailedMissing(error)) throw error;
      return run(await this.again(plugin, paths));
    }
  }
}

/** The process's remembered lookups (for every CNIConfig using the library's RawExec). */
export const pluginLookups = new PluginLookupCache();
