/**
 * The errors thrown by configuration loading.
 *
 * Upstream returns untyped `fmt.Errorf` values plus two named types (`NotFoundError`,
 * `NoConfigsFoundError`) that callers match with `errors.As`. Here every failure is a
 * `ConfError` (so a caller can tell a configuration problem from a bug with one check), the two
 * named types are subclasses, and an underlying error (JSON syntax, a Go-style type error, an
 * OS error) is kept as `cause`, as Go's `%w` keeps it. The messages are upstream's text.
 *
 * Each class is branded with a registry symbol, as `CNIError` is, so `instanceof` holds across
 * two copies of the library in one process.
 */

const confBrand = Symbol.for("libcni.ConfError");
const notFoundBrand = Symbol.for("libcni.NotFoundError");
const noConfigsBrand = Symbol.for("libcni.NoConfigsFoundError");
const fileBrand = Symbol.for("libcni.ConfFileError");

function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === "object" && value !== null && brand in value;
}

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * Makes `instanceof cls` answer by brand, so an error from another copy of the library passes.
 * A subclass of `cls` (the caller's own) keeps the ordinary prototype check.
 */
function answerInstanceofByBrand(cls: ErrorClass, brand: symbol): void {
  Object.defineProperty(cls, Symbol.hasInstance, {
    value(this: unknown, value: unknown): boolean {
      if (this !== cls) return Function.prototype[Symbol.hasInstance].call(this, value);
      return hasBrand(value, brand);
    },
  });
}

/** Options for a ConfError. */
export interface ConfErrorOptions {
  /** The underlying error (Go's `%w` operand). */
  cause?: unknown;
}

/** A configuration could not be read, parsed or built. The message is upstream's text. */
export class ConfError extends Error {
  constructor(message: string, options: ConfErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ConfError";
    Object.defineProperty(this, confBrand, { value: true });
  }
}

/**
 * Configuration files exist in `dir`, but none names the network `name`
 * (upstream `NotFoundError`): `no net configuration with name "<name>" in <dir>`.
 */
export class NotFoundError extends ConfError {
  /** The directory searched. */
  readonly dir: string;
  /** The network name looked for. */
  readonly networkName: string;

  constructor(dir: string, name: string) {
    // Go formats the name with %s between literal quotes, not %q: no escaping.
    super(`no net configuration with name "${name}" in ${dir}`);
    this.name = "NotFoundError";
    this.dir = dir;
    this.networkName = name;
    Object.defineProperty(this, notFoundBrand, { value: true });
  }
}

/**
 * The directory holds no configuration file at all, or does not exist
 * (upstream `NoConfigsFoundError`): `no net configurations found in <dir>`.
 */
export class NoConfigsFoundError extends ConfError {
  /** The directory searched. */
  readonly dir: string;

  constructor(dir: string) {
    super(`no net configurations found in ${dir}`);
    this.name = "NoConfigsFoundError";
    this.dir = dir;
    Object.defineProperty(this, noConfigsBrand, { value: true });
  }
}

/**
 * A failure tied to one file found while loading a directory. Upstream returns the bare parse
 * error (`error parsing configuration list: unexpected end of JSON input`), which leaves an
 * operator guessing which of many files is broken; this names it. `cause` is the error
 * upstream would have returned, unchanged; `file` the path.
 */
export class ConfFileError extends ConfError {
  /** The file being loaded. */
  readonly file: string;

  /**
   * @param file the file's path
   * @param message the full message; see {@link ConfFileError.wrap} for the usual form
   * @param cause the underlying error
   */
  constructor(file: string, message: string, cause?: unknown) {
    super(message, { cause });
    this.name = "ConfFileError";
    this.file = file;
    Object.defineProperty(this, fileBrand, { value: true });
  }

  /**
   * Names `file` in an error that does not already: `<message> (file <path>)`. The upstream
   * text stays the prefix, so a caller matching on it still matches. An error that is already a
   * ConfFileError (a drop-in plugin file inside a list, say) names the more precise file and
   * passes through unchanged.
   */
  static wrap(file: string, error: unknown): ConfFileError {
    if (error instanceof ConfFileError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new ConfFileError(file, `${message} (file ${file})`, error);
  }
}

answerInstanceofByBrand(ConfError, confBrand);
answerInstanceofByBrand(NotFoundError, notFoundBrand);
answerInstanceofByBrand(NoConfigsFoundError, noConfigsBrand);
answerInstanceofByBrand(ConfFileError, fileBrand);
