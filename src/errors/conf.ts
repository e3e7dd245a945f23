/**
 * conf: reading, parsing and loading configuration files.
 */

import { messageOf } from "../internal/error-message.js";
import { LibcniError } from "./base.js";

/** A configuration could not be read, parsed or built. The message is upstream's text. */
export class ConfError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CONF";
}

/**
 * Configuration files exist in `dir`, but none names the network `name`
 * (upstream `NotFoundError`): `no net configuration with name "<name>" in <dir>`.
 */
export class NotFoundError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_NOT_FOUND";
  /** The directory searched. */
  readonly dir: string;
  /** The network name looked for. */
  readonly networkName: string;

  constructor(dir: string, name: string) {
    // Go formats the name with %s between literal quotes, not %q: no escaping.
    super(`no net configuration with name "${name}" in ${dir}`);
    this.dir = dir;
    this.networkName = name;
  }
}

/**
 * The directory holds no configuration file at all, or does not exist
 * (upstream `NoConfigsFoundError`): `no net configurations found in <dir>`.
 */
export class NoConfigsFoundError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_NONE_FOUND";
  /** The directory searched. */
  readonly dir: string;

  constructor(dir: string) {
    super(`no net configurations found in ${dir}`);
    this.dir = dir;
  }
}

/**
 * A failure tied to one file found while loading a directory. Upstream returns the bare parse
 * error (`error parsing configuration list: unexpected end of JSON input`), which leaves an
 * operator guessing which of many files is broken; this names it. `cause` is the error
 * upstream would have returned, unchanged; `file` the path.
 */
export class ConfFileError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_FILE";
  /** The file being loaded. */
  readonly file: string;

  /**
   * @param file the file's path
   * @param message the full message; see {@link ConfFileError.wrap} for the usual form
   * @param cause the underlying error
   */
  constructor(file: string, message: string, cause?: unknown) {
    super(message, { cause });
    this.file = file;
  }

  /**
   * Names `file` in an error that does not already: `<message> (file <path>)`. The upstream
   * text stays the prefix, so a caller matching on it still matches. An error that is already a
   * ConfFileError (a drop-in plugin file inside a list, say) names the more precise file and
   * passes through unchanged.
   */
  static wrap(file: string, error: unknown): ConfFileError {
    if (error instanceof ConfFileError) return error;
    return new ConfFileError(file, `${messageOf(error)} (file ${file})`, error);
  }
}
