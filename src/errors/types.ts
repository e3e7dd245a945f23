/** types: the CNI error (the spec's error object), results, addresses, CNI_ARGS. */
import { messageOf } from "../internal/error-message.js";
import { RawJSON, toGoJSON } from "../internal/go-marshal.js";
import { goQuote } from "../internal/go-quote.js";
import { quoteString } from "../internal/json-string.js";
import { LibcniError, type LibcniErrorJSON, type LibcniErrorOptions } from "./base.js";

/** The spec's error object, as a plugin prints it. */
export interface CNIErrorJSON {
  /** The error code. */
  code: number;
  /** The short message. */
  msg: string;
  /** Longer details; absent when empty. */
  details?: string;
}

/** A CNI error (upstream `types.Error`), the spec's error object; `message` is its `Error()`. */
export class CNIError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CNI";
  /** The spec's error code (`ErrUnknown` ... `ErrInternal`, or a plugin's own code above 99). */
  readonly code: number;
  /** The short message (the wire's `msg`). */
  readonly msg: string;
  /** Longer details, "" when there are none (the wire's `details`, omitted when empty). */
  readonly details: string;

  constructor(code: number, msg: string, details = "", options: LibcniErrorOptions = {}) {
    super(details === "" ? msg : `${msg}; ${details}`, options);
    this.code = code;
    this.msg = msg;
    this.details = details;
  }

  /**
   * Every library error's JSON, `details` omitted when empty as on the wire, so a decoder of the
   * spec's error object reads it; the exact wire bytes are `print()`'s.
   */
  override toJSON(): LibcniErrorJSON & CNIErrorJSON {
    const json = super.toJSON() as LibcniErrorJSON & CNIErrorJSON;
    if (this.details === "") delete json.details;
    return json;
  }

  /** Go's encoding of the error: the wire form, in struct field order. */
  [toGoJSON](): RawJSON {
    return new RawJSON(this.printWith("", ""));
  }

  /** The error as upstream's `Print` writes it: 4-space indented JSON, without a newline. */
  print(): string {
    return this.printWith("\n    ", "\n");
  }

  private printWith(field: string, end: string): string {
    const sep = field === "" ? ":" : ": ";
    let out = `{${field}"code"${sep}${this.code},${field}"msg"${sep}${quoteString(this.msg)}`;
    if (this.details !== "") out += `,${field}"details"${sep}${quoteString(this.details)}`;
    return `${out}${end}}`;
  }
}

/** True when `value` is a CNIError, from this copy of the library or another. */
export function isCNIError(value: unknown): value is CNIError {
  return value instanceof CNIError;
}

/** No result type handles this version (upstream `unsupported CNI result version "X"`). */
export class UnsupportedResultVersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RESULT_VERSION_UNSUPPORTED";
  /** The version asked for. */
  readonly version: string;
  constructor(version: string) {
    super(`unsupported CNI result version ${goQuote(version)}`);
    this.version = version;
  }
}

/** The JSON's `cniVersion` is not one the chosen result type supports. */
export class ResultVersionMismatchError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RESULT_VERSION_MISMATCH";
  constructor(
    /** The versions the result type supports. */
    readonly supported: readonly string[],
    /** The version found in the JSON. */
    readonly version: string,
  ) {
    super(
      `result type supports [${supported.join(" ")}] but unmarshalled CNIVersion is ${goQuote(version)}`,
    );
  }
}

/** A result cannot be converted: no converter between the versions, or nothing to hold. */
export class ConversionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RESULT_CONVERSION";
}

/** `DecodeVersion` failed: the JSON is malformed (the cause holds Go's decoding error). */
export class DecodeVersionError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_DECODE_VERSION";
  constructor(cause: unknown) {
    super(`decoding version from network config: ${messageOf(cause)}`, { cause });
  }
}

/** An IP address or CIDR could not be parsed (`invalid CIDR address: x`). */
export class ParseError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_PARSE";
  constructor(
    /** What was being parsed ("IP address", "CIDR address"). */
    readonly type: string,
    /** The text that failed to parse. */
    readonly text: string,
  ) {
    super(`invalid ${type}: ${text}`);
  }
}

/** A CNI_ARGS string could not be loaded (invalid pair, bad value, unknown arguments). */
export class ArgsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_ARGS";
}

/** Upstream `UnmarshalableArgsError`: the spec names a type that cannot read text. */
export class UnmarshalableArgsError extends ArgsError {
  static override readonly id: string = "LIBCNI_ERR_ARGS_UNMARSHALABLE";
}
