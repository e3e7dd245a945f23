/** conf: reading, parsing and loading configuration files. */
import { messageOf } from "../internal/error-message.js";
import { LibcniError } from "./base.js";

/** A configuration could not be read, parsed or built. The message is upstream's text. */
export class ConfError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CONF";
}

/** Configuration files exist in `dir`, but none names the network (upstream `NotFoundError`). */
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

/** The directory holds no configuration file or does not exist (upstream `NoConfigsFoundError`). */
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
 * A failure tied to one file of a directory being loaded. Upstream returns the bare parse error,
 * leaving an operator to guess which file is broken; `cause` is that error, unchanged.
 */
export class ConfFileError extends ConfError {
  static override readonly id: string = "LIBCNI_ERR_CONF_FILE";
  /** The file being loaded. */
  readonly file: string;

  constructor(file: string, message: string, cause?: unknown) {
    super(message, { cause });
    this.file = file;
  }

  /**
   * Names `file` after upstream's text, so a caller matching on that still matches; a
   * ConfFileError already names the more precise file (a drop-in plugin file of a list).
   */
  static wrap(file: string, error: unknown): ConfFileError {
    if (error instanceof ConfFileError) return error;
    return new ConfFileError(file, `${messageOf(error)} (file ${file})`, error);
  }
}
