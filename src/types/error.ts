/**
 * The CNI error type (upstream `types.Error`) and the spec's error codes.
 *
 * A plugin reports failure as `{"code","msg","details"}` on stdout; the runtime side turns that
 * into a `CNIError`. The class is branded with a registry symbol so that `instanceof` holds even
 * when two copies of this library are loaded in one process (a runtime and a plugin helper
 * bundled separately, say), as undici does for its errors.
 */

/** Code 0: an unknown error. */
export const ErrUnknown = 0;
/** Code 1: the plugin does not support the configuration's CNI version. */
export const ErrIncompatibleCNIVersion = 1;
/** Code 2: the configuration holds a field the plugin does not support. */
export const ErrUnsupportedField = 2;
/** Code 3: the container is unknown or does not exist. */
export const ErrUnknownContainer = 3;
/** Code 4: a CNI_* environment variable is missing or invalid. */
export const ErrInvalidEnvironmentVariables = 4;
/** Code 5: an I/O failure, such as reading stdin. */
export const ErrIOFailure = 5;
/** Code 6: the configuration or another input could not be decoded. */
export const ErrDecodingFailure = 6;
/** Code 7: the network configuration is invalid. */
export const ErrInvalidNetworkConfig = 7;
/** Code 8: the network namespace is invalid. */
export const ErrInvalidNetNS = 8;
/** Code 11: a transient condition; try again later. */
export const ErrTryAgainLater = 11;
/** Code 50: the plugin is not available (STATUS). */
export const ErrPluginNotAvailable = 50;
/** Code 51: the plugin has limited connectivity (STATUS). */
export const ErrLimitedConnectivity = 51;
/** Code 999: an internal error, such as an untyped error thrown by a plugin callback. */
export const ErrInternal = 999;

import { goStruct, marshalIndent, toGoJSON } from "../encoding/json.js";

const brand = Symbol.for("libcni.CNIError");

/** The spec's error object, as a plugin prints it. */
export interface CNIErrorJSON {
  /** The error code. */
  code: number;
  /** The short message. */
  msg: string;
  /** Longer details; absent when empty. */
  details?: string;
}

/** Options carried by a CNIError beyond the wire fields. */
export interface CNIErrorOptions {
  /** The underlying error, kept for diagnostics. */
  cause?: unknown;
}

/**
 * A CNI error: `code`, `msg` and `details`, as the spec's error object.
 * Its `message` is upstream's `Error()`: msg, then "; " + details when there are details.
 */
export class CNIError extends Error {
  /** The spec's error code (`ErrUnknown` … `ErrInternal`, or a plugin's own code above 99). */
  readonly code: number;
  /** The short message (the wire's `msg`). */
  readonly msg: string;
  /** Longer details, "" when there are none (the wire's `details`, omitted when empty). */
  readonly details: string;

  constructor(code: number, msg: string, details = "", options: CNIErrorOptions = {}) {
    super(
      details === "" ? msg : `${msg}; ${details}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "CNIError";
    this.code = code;
    this.msg = msg;
    this.details = details;
    Object.defineProperty(this, brand, { value: true });
  }

  /** True for a CNIError from this copy of the library or another (a registry-symbol brand). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // Subclasses keep the ordinary prototype check; only CNIError itself answers by brand.
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class instanceof was asked about
    if (this !== CNIError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === "object" && value !== null && brand in value;
  }

  /** The wire form, in Go's field order, `details` omitted when empty. */
  toJSON(): CNIErrorJSON {
    return goStruct({
      code: this.code,
      msg: this.msg,
      details: this.details === "" ? undefined : this.details,
    });
  }

  /** Go's encoding of the error: the wire form in struct field order. */
  [toGoJSON](): unknown {
    return this.toJSON();
  }

  /** The error as upstream's `Print` writes it: 4-space indented JSON, without a newline. */
  print(): string {
    return marshalIndent(this);
  }
}

/** True when `value` is a CNIError, from this copy of the library or another. */
export function isCNIError(value: unknown): value is CNIError {
  return value instanceof CNIError;
}
