/**
 * Plugin lookups remembered, safely (docs/deviations/invoke.md, "Lookups and environment per
 * call"): a call skips `findInPath`'s stats for a plugin found before, and gets upstream's
 * outcome whenever the plugin changed since. Only an answer in the FIRST directory of an
 * absolute path is remembered, so nothing earlier can shadow it; a start failing with ENOENT or
 * EACCES forgets it and looks up again (upstream's error when it is gone), once. Used only with
 * the library's own RawExec lookup.
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
