/**
 * Reading configuration from disk: listing a directory (upstream `ConfFiles`), one plugin or
 * list file (`ConfFromFile`, `NetworkConfFromFile`) and a network's drop-in plugin directory
 * (`NetworkPluginConfsFromFiles`). All asynchronous: a runtime's event loop never waits on disk.
 */
import { type Dirent, readFile as readFileCallback } from "node:fs";
import { readdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { compareUTF8 } from "../encoding/json.js";
import { messageOf } from "../errors.js";
import { errnoCode, goPathErrorText } from "../internal/errno.js";
import { goQuote } from "../internal/go-quote.js";
import { ConfError, ConfFileError } from "./errors.js";
import { networkConfFromBytes } from "./list.js";
import { networkPluginConfFromBytes } from "./plugin.js";
import type { NetworkConfigList, PluginConfig } from "./types.js";

/**
 * Reads a file whole. Upstream's `error reading <file>: <Go path error>` already names the
 * file, so it is a ConfFileError as is.
 */
export function readConfFile(filename: string): Promise<Uint8Array> {
  // The callback readFile: its open, fstat, read and close are chained inside Node, without the
  // FileHandle and the promise per step of fs/promises' readFile, which made loading a large
  // directory several times slower. The errors are the same (code and syscall), so Go's text
  // is too.
  return new Promise((resolve, reject) => {
    readFileCallback(filename, (error, buffer) => {
      if (error) {
        const message = `error reading ${filename}: ${goPathErrorText(error, filename)}`;
        reject(new ConfFileError(filename, message, error));
        return;
      }
      // A plain Uint8Array view, not a Buffer: the same bytes, and equal to any other Uint8Array.
      resolve(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
    });
  });
}

// filepath.Ext: from the last dot of the name, "" when there is none.
function extension(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? "" : name.slice(dot);
}

/**
 * Lists the files of `dir` whose extension (from the last dot, case-sensitive) is one of
 * `extensions`, as full paths sorted by name. Directories are skipped (a symlink is not a
 * directory here, as in Go); subdirectories are not searched. A missing directory gives an
 * empty list, not an error.
 *
 * @throws ConfError with Go's OS error text (`open <dir>: permission denied`) for any other
 *   failure to read the directory.
 */
export async function confFiles(dir: string, extensions: readonly string[]): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw new ConfError(goPathErrorText(error, dir), { cause: error });
  }
  // Go's os.ReadDir returns entries sorted by name (bytes); readdir does not sort.
  entries.sort((a, b) => compareUTF8(a.name, b.name));
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) continue;
    const ext = extension(entry.name);
    // One push per matching extension, as upstream's nested loop does.
    for (const wanted of extensions) {
      if (ext === wanted) files.push(join(dir, entry.name));
    }
  }
  return files;
}

/**
 * True when `name` is a single path component, so `join(dir, name)` stays directly inside
 * `dir`. Upstream joins the network name unchecked: `"../x"` reads another directory's plugins
 * and `""` turns every `.conf` beside the list into one of its plugins.
 */
export function isPathSafeName(name: string): boolean {
  return (
    name !== "" && name !== "." && name !== ".." && !name.includes("/") && !name.includes("\0")
  );
}

/**
 * Loads a network's drop-in plugins: every `<networkConfPath>/<networkName>/*.conf`, sorted,
 * each parsed as a single plugin with its bytes as read. A missing directory gives none.
 *
 * @throws ConfError when `networkName` is not a single path component (upstream would read
 *   outside the directory, or every `.conf` in it); `failed to read plugin config files in
 *   <dir>: <Go path error>` when the directory cannot be listed; a ConfFileError naming the
 *   file when one cannot be read or parsed.
 */
export async function networkPluginConfsFromFiles(
  networkConfPath: string,
  networkName: string,
): Promise<PluginConfig[]> {
  if (!isPathSafeName(networkName)) {
    throw new ConfError(
      `network name ${goQuote(networkName)} cannot name a plugin directory in ${networkConfPath}`,
    );
  }
  const pluginConfPath = join(networkConfPath, networkName);
  let files: string[];
  try {
    files = await confFiles(pluginConfPath, [".conf"]);
  } catch (error) {
    throw new ConfError(
      `failed to read plugin config files in ${pluginConfPath}: ${messageOf(error)}`,
      { cause: error },
    );
  }
  const plugins: PluginConfig[] = [];
  for (const file of files) {
    const bytes = await readConfFile(file);
    try {
      plugins.push(networkPluginConfFromBytes(bytes));
    } catch (error) {
      throw ConfFileError.wrap(file, error);
    }
  }
  return plugins;
}

/**
 * Loads a network configuration list from a file: the list's own plugins, then (unless
 * `loadOnlyInlinedPlugins`) those of the drop-in directory `<dir of file>/<name>/*.conf`. A
 * network whose name is not a single path component has no drop-in directory. `bytes` is the
 * file's content only.
 *
 * @throws ConfError: `error reading <file>: ...`, the parse errors of `networkConfFromBytes`,
 *   the drop-in directory's errors, or `no plugin configs found` when the network ends up with
 *   no plugin at all.
 */
export async function networkConfFromFile(filename: string): Promise<NetworkConfigList> {
  const bytes = await readConfFile(filename);
  const conf = networkConfFromBytes(bytes);
  if (!conf.loadOnlyInlinedPlugins && isPathSafeName(conf.name)) {
    const plugins = await networkPluginConfsFromFiles(dirname(filename), conf.name);
    conf.plugins.push(...plugins);
  }
  if (conf.plugins.length === 0) {
    // Not necessarily a problem for the caller, but they asked to load this network.
    throw new ConfError("no plugin configs found");
  }
  return conf;
}

/** Upstream's older name of {@link networkConfFromFile} (`ConfListFromFile`), kept as is. */
export function confListFromFile(filename: string): Promise<NetworkConfigList> {
  return networkConfFromFile(filename);
}

/**
 * Loads a single plugin's configuration file (upstream `ConfFromFile`).
 * @deprecated single-plugin files are a legacy format; use networkConfFromFile
 * @throws ConfError `error reading <file>: ...` or the errors of networkPluginConfFromBytes.
 */
export async function confFromFile(filename: string): Promise<PluginConfig> {
  return networkPluginConfFromBytes(await readConfFile(filename));
}
