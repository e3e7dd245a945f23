/**
 * Reading configuration from disk: listing a directory (upstream `ConfFiles`), one plugin or
 * list file (`ConfFromFile`, `NetworkConfFromFile`) and a network's drop-in plugin directory
 * (`NetworkPluginConfsFromFiles`). All asynchronous: a runtime's event loop never waits on disk.
 * conf/index.ts documents the public functions and loads this file on their first call.
 */
import { close, constants, type Dirent, fstat, open, read } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { compareUTF8 } from "../encoding/json.js";
import { readWhole } from "../engines/file-read.js";
import { wrongTypeError } from "../errors/base.js";
import { ConfError, ConfFileError } from "../errors/conf.js";
import { errnoCode, goPathErrorText } from "../internal/errno.js";
import { messageOf } from "../internal/error-message.js";
import { kindName } from "../internal/fs.js";
import { goQuote } from "../internal/go-quote.js";
import { networkConfFromBytes } from "./list.js";
import { networkPluginConfFromBytes } from "./plugin.js";
import type { NetworkConfigList, PluginConfig } from "./types.js";

/** The largest conf file read (a larger one is refused, never read whole into memory). */
export const MAX_CONF_FILE_BYTES = 16 * 1024 * 1024;

// Never blocks on a FIFO or a tty; a symlink is followed (operators symlink conf files).
const openFlags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Reads a conf file whole, as a cache record is read: a regular file only (a FIFO, a device,
 * a socket or a directory is refused without a read, so nothing blocks or fills memory), at
 * most {@link MAX_CONF_FILE_BYTES}. Upstream's `error reading <file>: <Go path error>` names
 * the file, so every failure is a ConfFileError as is. The files of a directory asked for in
 * one turn are read by the spawner helper in one request where it runs ({@link readWhole});
 * what it did not read (and everything without it) is read here, callback fs calls chained
 * inside Node (no FileHandle, no promise per step), with the checks and errors above.
 */
export function readConfFile(filename: string): Promise<Uint8Array> {
  // Go's open refuses a NUL in a path (EINVAL), where Node's fs throws a TypeError at once.
  if (filename.includes("\0")) {
    const text = `error reading ${filename}: open ${filename}: invalid argument`;
    return Promise.reject(new ConfFileError(filename, text));
  }
  const whole = readWhole(filename, { nofollow: false, maxBytes: MAX_CONF_FILE_BYTES });
  if (whole === undefined) return readConfFileHere(filename);
  return whole.then((bytes) => bytes ?? readConfFileHere(filename));
}

function readConfFileHere(filename: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const fail = (text: string, cause?: unknown): void =>
      reject(new ConfFileError(filename, `error reading ${filename}: ${text}`, cause));
    open(filename, openFlags, (openError, fd) => {
      if (openError) {
        fail(goPathErrorText(openError, filename), openError);
        return;
      }
      const done = (finish: () => void): void => close(fd, () => finish());
      const tooLarge = (): void =>
        done(() => fail(`${filename} is larger than ${MAX_CONF_FILE_BYTES} bytes`));
      fstat(fd, (statError, stats) => {
        if (statError) return done(() => fail(goPathErrorText(statError, filename), statError));
        // A directory fails as Go's read of it does (EISDIR); the kinds Go would block on or
        // read without end are refused with their kind named.
        if (stats.isDirectory()) return done(() => fail(`read ${filename}: is a directory`));
        if (!stats.isFile()) {
          return done(() => fail(`${filename} is ${kindName(stats)}, not a regular file`));
        }
        if (stats.size > MAX_CONF_FILE_BYTES) return tooLarge();
        // One byte more than the size: a file that grew since fstat is still read to its cap.
        const buffer = Buffer.allocUnsafe(Math.min(stats.size + 1, MAX_CONF_FILE_BYTES + 1));
        let filled = 0;
        const step = (): void => {
          read(fd, buffer, filled, buffer.length - filled, null, (readError, n) => {
            if (readError) return done(() => fail(goPathErrorText(readError, filename), readError));
            filled += n;
            if (filled > MAX_CONF_FILE_BYTES) return tooLarge();
            if (n === 0 || filled === buffer.length) {
              // A plain Uint8Array view: the same bytes, equal to any other Uint8Array.
              return done(() => resolve(new Uint8Array(buffer.buffer, buffer.byteOffset, filled)));
            }
            step();
          });
        };
        step();
      });
    });
  });
}

export async function confFiles(dir: string, extensions: readonly string[]): Promise<string[]> {
  // Go's nil extensions match nothing; a JavaScript caller's undefined is taken the same way.
  // One string is refused: its characters would be the extensions (".conflist" matches "c.").
  if (extensions != null && !Array.isArray(extensions)) {
    throw wrongTypeError("extensions", "an array", extensions);
  }
  return (await confDirListing(dir, extensions ?? [])).files;
}

/** {@link confFiles}, with what else its one readdir saw (for the lists' drop-in directories). */
export interface ConfDirListing {
  /** The files, as confFiles returns them. */
  readonly files: string[];
  /** Every entry of the directory, of any kind, by its folded name ({@link foldName}). */
  readonly entries: ReadonlySet<string>;
}

/**
 * A name as a case- or normalization-insensitive file system may match it: an entry that such
 * a file system would open under `name` folds to the same string, so a folded name absent from
 * a listing is absent on any file system.
 */
export function foldName(name: string): string {
  return name.normalize("NFKD").toUpperCase().toLowerCase();
}

/** {@link confFiles} and the folded names of every entry of `dir` (none when it is missing). */
export async function confDirListing(
  dir: string,
  extensions: readonly string[],
): Promise<ConfDirListing> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { files: [], entries: new Set() };
    // Go opens the dir, then lists it: a path through a file fails at the open, not the listing.
    const atOpen =
      errnoCode(error) === "ENOTDIR" && (await stat(dir).catch(() => undefined)) === undefined;
    const text = goPathErrorText(error, dir);
    throw new ConfError(atOpen ? text.replace(/^readdirent/, "open") : text, { cause: error });
  }
  // Go's os.ReadDir returns entries sorted by name (bytes); readdir does not sort.
  entries.sort((a, b) => compareUTF8(a.name, b.name));
  const files: string[] = [];
  const names = new Set<string>();
  for (const entry of entries) {
    names.add(foldName(entry.name));
    if (entry.isDirectory()) continue;
    // filepath.Ext: from the last dot of the name, "" when there is none.
    const dot = entry.name.lastIndexOf(".");
    const ext = dot < 0 ? "" : entry.name.slice(dot);
    // One push per matching extension, as upstream's nested loop does.
    for (const wanted of extensions) if (ext === wanted) files.push(join(dir, entry.name));
  }
  return { files, entries: names };
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
  const files = await confFiles(pluginConfPath, [".conf"]).catch((error: unknown) => {
    throw new ConfError(
      `failed to read plugin config files in ${pluginConfPath}: ${messageOf(error)}`,
      { cause: error },
    );
  });
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
 * `networkConfFromFile` of a file of a directory just listed: `siblings`, the folded names of
 * that directory's entries ({@link confDirListing}), or undefined. A network named by none of
 * them has no drop-in directory to read (its readdir could only fail with ENOENT, which gives
 * no plugins), so a directory of 1,000 lists is not 1,000 readdirs more.
 */
export async function networkConfFromFileIn(
  filename: string,
  siblings: ReadonlySet<string> | undefined,
): Promise<NetworkConfigList> {
  const bytes = await readConfFile(filename);
  const conf = networkConfFromBytes(bytes);
  if (
    !conf.loadOnlyInlinedPlugins &&
    isPathSafeName(conf.name) &&
    // A name over NAME_MAX is in no listing, but Go's readdir of it fails: so must ours.
    (siblings === undefined ||
      siblings.has(foldName(conf.name)) ||
      Buffer.byteLength(conf.name) > 255)
  ) {
    const plugins = await networkPluginConfsFromFiles(dirname(filename), conf.name);
    conf.plugins.push(...plugins);
  }
  if (conf.plugins.length === 0) {
    // Not necessarily a problem for the caller, but they asked to load this network.
    throw new ConfError("no plugin configs found");
  }
  return conf;
}

export async function confFromFile(filename: string): Promise<PluginConfig> {
  return networkPluginConfFromBytes(await readConfFile(filename));
}
