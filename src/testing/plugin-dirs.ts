/**
 * Where the CNI plugins of this machine are: upstream's `/opt/cni/bin` is only where the
 * project's release tarballs go; Debian and Ubuntu install `containernetworking-plugins` to
 * `/usr/lib/cni`, Fedora and RHEL to `/usr/libexec/cni`. A test that hard-codes one of them
 * fails on the others.
 */
import { access, constants } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { assertIterable, assertOptions } from "../errors/base.js";
import { MissingPluginsError } from "../errors/testing.js";
import { isDirectory } from "../internal/fs.js";

/** The distributions' plugin dirs, in the order they are tried after CNI_PATH. */
export const wellKnownPluginDirs: readonly string[] = [
  "/opt/cni/bin",
  "/usr/lib/cni",
  "/usr/libexec/cni",
];

/** Options of {@link findPluginDirs}. */
export interface FindPluginDirsOptions {
  /** The environment CNI_PATH is read from. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** The dirs tried after CNI_PATH's. Default {@link wellKnownPluginDirs}. */
  candidates?: readonly string[];
}

/**
 * The plugin dirs that exist here, CNI_PATH's entries first (as a runtime's CNI_PATH would
 * name them), then `/opt/cni/bin`, `/usr/lib/cni` and `/usr/libexec/cni`; each once, in that
 * order. Empty when there are none: {@link requirePlugins} fails with what to install.
 */
export async function findPluginDirs(options: FindPluginDirsOptions = {}): Promise<string[]> {
  assertOptions(options);
  const env = options.env ?? process.env;
  const fromEnv = (env.CNI_PATH ?? "").split(delimiter).filter((dir) => dir !== "");
  const candidates = [...fromEnv, ...(options.candidates ?? wellKnownPluginDirs)];
  const found: string[] = [];
  for (const dir of new Set(candidates)) if (await isDirectory(dir)) found.push(dir);
  return found;
}

/** True when `plugin` is an executable of one of `dirs`. */
async function installed(plugin: string, dirs: readonly string[]): Promise<boolean> {
  for (const dir of dirs) {
    try {
      await access(join(dir, plugin), constants.X_OK);
      return true;
    } catch {}
  }
  return false;
}

/**
 * The plugin dirs ({@link findPluginDirs}) when every plugin of `plugins` is in one of them;
 * otherwise throws, so a test fails and says what to install rather than skipping.
 * @throws MissingPluginsError naming the plugins missing, the dirs searched and the packages;
 *   InvalidArgumentError for `plugins` that is one name (a string), and for options not an object.
 */
export async function requirePlugins(
  plugins: readonly string[],
  options: FindPluginDirsOptions = {},
): Promise<string[]> {
  assertIterable(plugins, "plugins", "a list of plugin names, not one name");
  const dirs = await findPluginDirs(options);
  const missing: string[] = [];
  for (const plugin of plugins) if (!(await installed(plugin, dirs))) missing.push(plugin);
  if (missing.length > 0) {
    const searched = dirs.length > 0 ? dirs.join(", ") : "no plugin dir exists";
    throw new MissingPluginsError(
      `CNI plugins not found: ${missing.join(", ")} (searched: ${searched}; set CNI_PATH, or ` +
        "install them: Debian/Ubuntu containernetworking-plugins, Fedora containernetworking-plugins, " +
        "or github.com/containernetworking/plugins/releases into /opt/cni/bin)",
      missing,
      dirs,
    );
  }
  return dirs;
}
