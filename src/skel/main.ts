/** The plugin's main (upstream `skel.PluginMainFuncs`). */

import { errnoCode } from "../internal/errno.js";
import type { PluginInfo } from "../version/index.js";
import { type PluginMainOptions, pluginMainWithError } from "./dispatch.js";
import { stdioErrorText, writeAll } from "./io.js";
import { formatError } from "./print.js";
import type { CNIFuncs } from "./types.js";

/** `PluginMainOptions` plus the exit function, injectable so tests can run `pluginMain`. */
export interface PluginMainExitOptions extends PluginMainOptions {
  /** Ends the process with the code (default `process.exit`). */
  exit?: (code: number) => void;
}

/**
 * The whole main of a CNI plugin: `pluginMainWithError`, then on error `{"code","msg","details"}`
 * printed to stdout and exit 1, else exit 0. With no CNI_COMMAND, `about` (recommended:
 * `"CNI plugin <name> v<version>"`) and the supported versions go to stderr. Exiting explicitly
 * matches a Go main returning: a timer or socket left open does not keep the plugin alive.
 *
 * @example
 * await pluginMain({ add, del, check }, pluginSupports("1.0.0", "1.1.0"), "CNI plugin demo v1");
 */
export async function pluginMain(
  funcs: CNIFuncs,
  versionInfo: PluginInfo,
  about: string,
  options: PluginMainExitOptions = {},
): Promise<void> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  // A callback's own write to a stdout nobody reads (EPIPE) is also the stream's "error" event:
  // heard here, or it is an uncaught exception (skel's writes report their own failure).
  (stdout as Partial<NodeJS.EventEmitter>).on?.("error", () => {});
  const error = await pluginMainWithError(funcs, versionInfo, about, options);
  if (error) {
    try {
      await writeAll(stdout, formatError(error));
    } catch (printFailure) {
      // A stream that VERSION's failed write destroyed fails again as that write did (Go's does).
      const destroyed = errnoCode(printFailure) === "ERR_STREAM_DESTROYED";
      const failure = destroyed ? (error.cause ?? printFailure) : printFailure;
      const text = `Error writing error JSON to stdout: ${stdioErrorText(failure, "write")}\n`;
      await writeAll(stderr, text).catch(() => {});
    }
  }
  // An empty write completes after every earlier write on the same stream.
  await Promise.all([writeAll(stdout, ""), writeAll(stderr, "")]).catch(() => {});
  exit(error ? 1 : 0);
}
