/**
 * The base of the error model: {@link LibcniError} with its `instanceof` brand, the message of
 * any thrown value, and the two errors of every area (a wrapped error, an invalid argument).
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
  /** The stable identifier of the error's class (docs/errors.md lists them). */
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
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about
    return isInstance(this, value);
  }
}

function isInstance(cls: unknown, value: unknown): boolean {
  if (typeof cls !== "function" || !Object.hasOwn(cls, "id")) {
    return Function.prototype[Symbol.hasInstance].call(cls, value);
  }
  const ids = idsOf(value);
  return ids?.includes((cls as unknown as { id: string }).id) === true;
}

/**
 * The message of any thrown value, as Go's `err.Error()`. Never throws: a call may reject with
 * anything a custom Exec threw (a null-prototype object does not print), and wrapping or
 * describing it must not change what the caller gets.
 */
export function messageOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "(a value that cannot be printed)";
  }
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

/**
 * A value given to a public function does not have the shape or range it must have (a
 * JavaScript caller passing `ifname` where `ifName` is expected, a negative timeout, an empty
 * cache key). `argument` names the offending value's path (`rt.ifName`).
 */
export class InvalidArgumentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_INVALID_ARGUMENT";
  /** The path of the offending value, as the caller wrote it (`rt.ifName`, `gcArgs.validAttachments[0]`). */
  readonly argument: string;
  constructor(argument: string, message: string, options: LibcniErrorOptions = {}) {
    super(message, options);
    this.argument = argument;
  }
}
