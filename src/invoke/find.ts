/**
 * Finding a plugin executable on the CNI path (upstream pkg/invoke/find.go). The name is input
 * (network configuration): one with a path separator is refused rather than allowed to escape
 * the plugin directories. Only regular files (symlinks followed) count.
 */
import { join, resolve, sep } from "node:path";
import { wrongTypeError } from "../errors/base.js";
import { PluginLookupError, PluginNotFoundError } from "../errors/invoke.js";
import { statPath } from "../internal/fs.js";

/** File name extensions tried for each plugin, as upstream: `[""]`, plus `.exe` on Windows. */
export const executableFileExtensions: readonly string[] =
  process.platform === "win32" ? [".exe", ""] : [""];

/**
 * The absolute path of `plugin` in the first of `paths` that holds it as a regular file (a
 * relative dir is taken from the current directory, so what runs is the file found here).
 * Throws upstream's errors: `no plugin name provided`, `invalid plugin name: <n>`,
 * `no paths provided`, `failed to find plugin "<n>" in path [<p1> <p2>]`.
 */
export async function findInPath(plugin: string, paths: readonly string[]): Promise<string> {
  if (plugin === "") throw new PluginLookupError("no plugin name provided");
  if (plugin.includes(sep) || plugin.includes("/")) {
    throw new PluginLookupError(`invalid plugin name: ${plugin}`);
  }
  // Go's nil slice is empty: a JavaScript caller's null or undefined is taken the same way.
  // One string (an unsplit CNI_PATH) is refused: its characters would be the dirs searched.
  if (paths != null && !Array.isArray(paths)) throw wrongTypeError("paths", "an array", paths);
  if ((paths ?? []).length === 0) throw new PluginLookupError("no paths provided");

  for (const dir of paths) {
    for (const ext of executableFileExtensions) {
      const fullPath = join(dir, plugin) + ext;
      // A regular file (internal/fs.ts' callback stat: this runs per plugin per call), made
      // absolute: a relative dir ("", ".", "a/..") would otherwise give a bare name, which spawn
      // looks up in $PATH (Go's exec.Command does too): another file than this one.
      if ((await statPath(fullPath).catch(() => undefined))?.isFile()) return resolve(fullPath);
    }
  }
  throw new PluginNotFoundError(plugin, paths);
}

/** Splits a `:`-separated search path as Go's filepath.SplitList: `""` gives no entries. */
export function splitList(path: string): string[] {
  return path === "" ? [] : path.split(process.platform === "win32" ? ";" : ":");
}
