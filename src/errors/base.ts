/** The base of the error model (./index.ts); the errors and argument guard all areas share. */
import { messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { durationProblem } from "../internal/timer-limit.js";

const brandKey = Symbol.for("libcni.error.ids");

function idsOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const ids = (value as { [brandKey]?: unknown })[brandKey];
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

/**
 * What `JSON.stringify` writes of a library error (docs/errors.md): never the stack, as a log
 * line says what failed, not where in the library.
 */
export interface LibcniErrorJSON {
  /** The class name. */
  name: string;
  /** The stable identifier of the class (docs/errors.md). */
  id: string;
  /** The message, as `error.message`. */
  message: string;
  /** The cause, summarised (a library error as its own JSON, at most 8 levels deep). */
  cause?: unknown;
  /** The fields of the error's class. */
  [field: string]: unknown;
}

/** The most bytes of a byte field (a plugin's `stdout`) an error's JSON carries. */
const maxJSONBytes = 4096;
/** The most causes (and nested errors) an error's JSON follows, so a cycle ends. */
const maxCauseDepth = 8;

/** Fields every error's JSON writes first, or never (`stack`), or last (`cause`). */
const ownJSONKeys = new Set(["name", "id", "message", "stack", "cause"]);

function bytesText(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, maxJSONBytes));
  return bytes.length > maxJSONBytes ? `${text}\u2026 (${bytes.length} bytes)` : text;
}

/** True for an object JSON writes key by key that may hold errors (not a class instance). */
function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * How deep the error JSON being written is: `JSON.stringify` calls `toJSON` synchronously, so
 * one counter serves every nested call, a subclass's own `toJSON` included, and a cycle ends.
 */
let nesting = 0;

function deeper<T, U>(fn: () => T, tooDeep: () => U): T | U {
  if (nesting >= maxCauseDepth) return tooDeep();
  nesting++;
  try {
    return fn();
  } finally {
    nesting--;
  }
}

// Deeper than a cause is followed: said, not written (a cycle would make JSON throw).
const tooDeep = (): string => "\u2026";

/** A field's value as the error's JSON holds it: errors summarised, bytes as text. */
function fieldJSON(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Uint8Array) return bytesText(value);
  if (value instanceof Error || idsOf(value) !== undefined) return causeJSON(value);
  if (Array.isArray(value)) return deeper(() => value.map(fieldJSON), tooDeep);
  if (typeof (value as { toJSON?: unknown }).toJSON === "function" || !isPlainObject(value)) {
    return value;
  }
  return deeper(() => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fieldJSON(v);
    return out;
  }, tooDeep);
}

/** Node's fields of a system error, kept in a summary when present. */
const systemErrorKeys = ["code", "errno", "syscall", "path", "dest"] as const;

/** The summary of a cause, or of an error held in a field. */
function causeJSON(cause: unknown): unknown {
  if (typeof cause !== "object" || cause === null) return messageOf(cause);
  const text = (): string => messageOf(cause);
  const toJSON = (cause as { toJSON?: unknown }).toJSON;
  if (idsOf(cause) !== undefined && typeof toJSON === "function") {
    return deeper(() => toJSON.call(cause) as unknown, text);
  }
  if (!(cause instanceof Error)) return messageOf(cause);
  const e = cause as Error & Record<string, unknown>;
  return deeper(() => {
    const out: Record<string, unknown> = {
      name: typeof e.name === "string" ? e.name : "Error",
      message: messageOf(cause),
    };
    for (const key of systemErrorKeys) {
      const v = e[key];
      if (typeof v === "string" || typeof v === "number") out[key] = v;
    }
    if (Array.isArray(e.errors)) out.errors = e.errors.map(causeJSON);
    if (e.cause !== undefined) out.cause = causeJSON(e.cause);
    return out;
  }, text);
}

function errorJSON(error: LibcniError): LibcniErrorJSON {
  const out: LibcniErrorJSON = { name: error.name, id: error.id, message: messageOf(error) };
  for (const [key, value] of Object.entries(error)) {
    if (!ownJSONKeys.has(key)) out[key] = fieldJSON(value);
  }
  if (error.cause !== undefined) out.cause = causeJSON(error.cause);
  return out;
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

  /** What `JSON.stringify(error)` writes ({@link LibcniErrorJSON}); never throws. */
  toJSON(): LibcniErrorJSON {
    try {
      return errorJSON(this);
    } catch {
      return { name: this.name, id: this.id, message: messageOf(this) };
    }
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
  return idsOf(value)?.includes((cls as unknown as { id: string }).id) === true;
}

/** An error that wraps another with context, as Go's `fmt.Errorf("<context>: %w", err)`. */
export class WrappedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_WRAPPED";
  constructor(context: string, cause: unknown) {
    super(`${context}: ${messageOf(cause)}`, { cause });
  }
}

/** A value given to a public function does not have the shape or range it must have. */
export class InvalidArgumentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_INVALID_ARGUMENT";
  /** The path of the offending value, as the caller wrote it (`rt.ifName`, `gcArgs.validAttachments[0]`). */
  readonly argument: string;
  constructor(argument: string, message: string, options: LibcniErrorOptions = {}) {
    super(message, options);
    this.argument = argument;
  }
}

/** How a value reads in a message: its JavaScript kind. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof Uint8Array) return "a Uint8Array";
  const t = typeof value;
  return t === "object" ? "an object" : t === "undefined" ? "undefined" : `a ${t}`;
}

/** A JavaScript caller's value of the wrong type (api's argument guards, runtime's pod check). */
export function wrongTypeError(path: string, expected: string, value: unknown, hint = "") {
  return new InvalidArgumentError(path, `${path} must be ${expected}, got ${kindOf(value)}${hint}`);
}

/** The key of `obj` spelled as `key` but for case or a trailing "s" (`ifname`, `network`). */
export function nearKey(obj: object, key: string): string | undefined {
  const wanted = key.toLowerCase();
  const near = (k: string) => k.toLowerCase() === wanted || `${k.toLowerCase()}s` === wanted;
  return Object.keys(obj).find((k) => k !== key && near(k));
}

/**
 * Refuses a key spelled as one of `keys` but for case (`cachedir`, `pluginNetNS`, `network`):
 * ignored, it would mean the default cache, the host's namespace, every network.
 */
export function assertSpelled(obj: object, keys: readonly string[], path: string): void {
  for (const key of keys) {
    const near = Object.hasOwn(obj, key) ? undefined : nearKey(obj, key);
    if (near === undefined) continue;
    const message = `${path} has ${JSON.stringify(near)}: the field is spelled ${JSON.stringify(key)}`;
    throw new InvalidArgumentError(`${path}.${key}`, message);
  }
}

/**
 * Asserts a duration option when it is given (`undefined` is the option's default): an integer
 * from `min` (1 for a limit that cannot be zero) to `MAX_TIMER_MS` (internal/timer-limit.ts),
 * else an InvalidArgumentError naming the option as `subject` (`RawExec option graceMs`).
 */
export function assertDuration(
  argument: string,
  value: unknown,
  { subject = argument, min = 0 }: { subject?: string; min?: 0 | 1 } = {},
): void {
  if (value === undefined) return;
  const problem = durationProblem(value, min);
  if (problem !== undefined) throw new InvalidArgumentError(argument, `${subject} ${problem}`);
}

/** An options argument: an object (`null` was a TypeError), its `durations` checked as above. */
export function assertOptions(options: unknown, ...durations: string[]): void {
  if (!isJSONObject(options)) throw wrongTypeError("options", "an options object", options);
  for (const key of durations) assertDuration(key, options[key]);
}

/** A list argument: one string is an Iterable<string> to TypeScript, its characters the items. */
export function assertIterable(value: unknown, argument: string, expected: string): void {
  if (typeof value === "string" || typeof Object(value)[Symbol.iterator] !== "function") {
    throw wrongTypeError(argument, expected, value);
  }
}
