/** invoke: finding and running plugins. */
import { isTimeoutReason } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { LibcniError } from "./base.js";
import { CNIError } from "./types.js";

/** FindInPath could not be asked: no plugin name, a name with a `/`, or no directories. */
export class PluginLookupError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_LOOKUP";
}

/** No directory of the path holds the plugin. */
export class PluginNotFoundError extends PluginLookupError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_NOT_FOUND";
  /** The plugin's name (its `type`). */
  readonly plugin: string;
  /** The directories searched, in order. */
  readonly paths: readonly string[];
  constructor(plugin: string, paths: readonly string[]) {
    super(`failed to find plugin ${goQuote(plugin)} in path [${paths.join(" ")}]`);
    this.plugin = plugin;
    this.paths = Object.freeze([...paths]);
  }
}

/** How a plugin run ended, as carried by a {@link PluginExecError}. */
export interface PluginExecDetails {
  /** The plugin executable that was run. */
  pluginPath: string;
  /** Its exit code, when it exited. */
  exitCode?: number;
  /** The signal that ended it (`SIGTERM`, `SIGKILL`, ...), when a signal did. */
  signal?: string;
  /** Everything it wrote to stdout (up to the output cap). */
  stdout: Uint8Array;
  /** Everything it wrote to stderr (up to the output cap). */
  stderr: Uint8Array;
  /** True when the run was stopped because the caller's AbortSignal fired. */
  aborted?: boolean;
  /** The underlying error: the spawn error, the abort reason, a decode error. */
  cause?: unknown;
}

/**
 * A plugin run that failed: `code`, `msg` and `details` are the plugin's own when it printed an
 * error object, else upstream's `netplugin failed ...` texts with code 0.
 */
export class PluginExecError extends CNIError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_EXEC";
  /** The plugin executable that was run. */
  readonly pluginPath: string;
  /** Its exit code, when it exited. */
  readonly exitCode: number | undefined;
  /** The signal that ended it, when a signal did. */
  readonly signal: string | undefined;
  /** What it wrote to stdout. */
  readonly stdout: Uint8Array;
  /** What it wrote to stderr. */
  readonly stderr: Uint8Array;
  /** True when the caller aborted the run. */
  readonly aborted: boolean;

  constructor(code: number, msg: string, details: string, info: PluginExecDetails) {
    super(code, msg, details, { cause: info.cause });
    this.pluginPath = info.pluginPath;
    this.exitCode = info.exitCode;
    this.signal = info.signal;
    this.stdout = info.stdout;
    this.stderr = info.stderr;
    this.aborted = info.aborted ?? false;
  }
}

/** A plugin run stopped because the caller's AbortSignal fired; `cause` is the signal's reason. */
export class PluginAbortedError extends PluginExecError {
  static override readonly id: string = "LIBCNI_ERR_PLUGIN_ABORTED";
  /** True when the signal's reason is a timeout (`AbortSignal.timeout()`). */
  readonly timedOut: boolean;
  constructor(code: number, msg: string, details: string, info: PluginExecDetails) {
    super(code, msg, details, { ...info, aborted: true });
    this.timedOut = isTimeoutReason(info.cause);
  }
}

export { isTimeoutReason };
