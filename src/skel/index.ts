/**
 * skel: the plugin side of CNI (upstream `pkg/skel`). A plugin calls `pluginMain` with its
 * callbacks; skel reads the CNI_* environment and the config on stdin, checks them and the
 * versions as upstream does, calls the verb's callback with an abort signal that fires on
 * SIGTERM, and reports errors as the spec requires.
 * @module
 */

import { pluginMainWithError } from "./dispatch.js";
import { pluginMain } from "./main.js";

export { type PluginMainOptions, pluginMainWithError } from "./dispatch.js";
export type { Environment } from "./env.js";
export type { StdinSource } from "./io.js";
export { type PluginMainExitOptions, pluginMain } from "./main.js";
export { printResult } from "./print.js";
export type { CmdArgs, CNIFuncs, OutputStream, PluginCallback, PluginContext } from "./types.js";

/** Upstream's name for `pluginMain` (`skel.PluginMainFuncs`). */
export const pluginMainFuncs: typeof pluginMain = pluginMain;

/** Upstream's name for `pluginMainWithError` (`skel.PluginMainFuncsWithError`). */
export const pluginMainFuncsWithError: typeof pluginMainWithError = pluginMainWithError;
