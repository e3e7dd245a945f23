/**
 * The library's error model, in one module (undici's `lib/core/errors.js` is the model).
 *
 * - Every error a public function throws is a {@link LibcniError}: one `catch` tells the
 *   library's errors from a bug.
 * - Each class has a stable string identifier, `id` (`LIBCNI_ERR_PLUGIN_NOT_FOUND`, ...), on the
 *   class and on each instance; the README's error table lists them. `name` is the class name.
 * - `instanceof` answers by a registry-symbol brand, so it holds for an error made by another
 *   copy of the package in the same process (a runtime and a plugin helper bundled apart).
 * - `code` is the spec's numeric CNI error code, on {@link CNIError} and its subclasses only
 *   (Go's `types.Error.Code`); an OS errno name is `errno`, never `code`.
 * - What an error wraps is the standard `cause`, as Go's `%w`: `err.cause` is what
 *   `errors.Unwrap(err)` returns in Go.
 *
 * The classes of each area live below, grouped; the modules that throw them import them from here.
 */

const brandKey = Symbol.for("libcni.error.ids");

interface Branded {
  readonly [brandKey]: readonly string[];
}

function idsOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const ids = (value as Partial<Branded>)[brandKey];
  return Array.isArray(ids) ? ids : undefined;
}

/** The ids of `cls` and of every library class above it, most derived first. */
function classIds(cls: unknown): string[] {
  const ids: string[] = [];
  for (let c = cls; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, "id")) ids.push((c as unknown as { id: string }).id);
  }
  return ids;
}

/** Options every library error takes. */
export interface LibcniErrorOptions {
  /** The underlying error (Go's `%w` operand). */
  cause?: unknown;
}

/** The base of every error the library throws. */
export class LibcniError extends Error {
  /** The stable identifier of this class. */
  static readonly id: string = "LIBCNI_ERR";
  /** The stable identifier of the error's class (see the README's error table). */
  readonly id: string;

  constructor(message: string, options: LibcniErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const cls = new.target;
    const ids = classIds(cls);
    this.id = ids[0] ?? LibcniError.id;
    this.name = cls.name;
    Object.defineProperty(this, brandKey, { value: ids });
  }

  /**
   * True for an error of this class made by this copy of the library or another. A subclass
   * without an `id` of its own (a caller's subclass) keeps the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof LibcniError !== "function" || !Object.hasOwn(LibcniError, "id")) {
      return Function.prototype[Symbol.hasInstance].call(LibcniError, value);
    }
    const ids = idsOf(value);
    if (ids === undefined) return false;
    return ids.includes((LibcniError as unknown as { id: string }).id);
  }
}

/** The message of any thrown value, as Go's `err.Error()`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An error that wraps another with context, as Go's `fmt.Errorf("<context>: %w", err)`:
 * `<context>: <cause's message>`, with `cause` the wrapped error.
 */
export class WrappedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_WRAPPED";
  constructor(context: string, cause: unknown) {
    super(`${context}: ${messageOf(cause)}`, { cause });
  }
}

// ---------------------------------------------------------------------------------------------
// Hardening (issue 12): the cache read path.

/**
 * A cache record that cannot be one: not a regular file (a symlink, a FIFO, a device, a
 * socket, a directory) or larger than the cap. DEL and CHECK treat it as a corrupt record (no
 * cache; DEL removes the entry, never what a link points at); the getters throw this.
 */
export class CorruptCacheRecordError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_RECORD_CORRUPT";
  /** The record's path. */
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`cache record ${path} ${reason}`);
    this.path = path;
  }
}

/** `read cached network "<n>" config has wrong kind: <kind>` (upstream's text). */
export class CachedConfigKindError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHED_CONFIG_WRONG_KIND";
  /** The record's `kind`. */
  readonly kind: string;
  constructor(quotedNetName: string, kind: string) {
    super(`read cached network ${quotedNetName} config has wrong kind: ${kind}`);
    this.kind = kind;
  }
}
