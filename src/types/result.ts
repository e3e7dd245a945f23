/**
 * The `Result` interface every result version implements (upstream `types.Result`), and the
 * typed errors of creating and converting results.
 */
import { goQuote } from "../encoding/go-quote.js";
import type { GoMarshaler } from "../encoding/json.js";

/** A plugin's result in one CNI spec version (upstream `types.Result`). */
export interface Result extends GoMarshaler {
  /** The result's CNI version ("" until `getAsVersion` fills in the implemented version). */
  readonly cniVersion: string;
  /** Upstream `Version()`: the result's CNI version. */
  version(): string;
  /**
   * Upstream `GetAsVersion`: this result converted to `version` ("" means 0.1.0); the same
   * object when the version already matches. Throws `ConversionError` when it cannot be.
   */
  getAsVersion(version: string): Result;
  /** Upstream `Print`: the result as JSON indented by 4 spaces, with no trailing newline. */
  print(): string;
}

/** Formats a version list as Go's `%v` prints a `[]string`: "[0.3.0 0.3.1 0.4.0]". */
export function goStringList(list: readonly string[]): string {
  return `[${list.join(" ")}]`;
}

/** No result type handles this version (upstream `unsupported CNI result version "X"`). */
export class UnsupportedResultVersionError extends Error {
  /** The version asked for. */
  readonly version: string;
  constructor(version: string) {
    super(`unsupported CNI result version ${goQuote(version)}`);
    this.name = "UnsupportedResultVersionError";
    this.version = version;
  }
}

/**
 * The JSON's `cniVersion` is not one the chosen result type supports (upstream
 * `result type supports [..] but unmarshalled CNIVersion is "X"`).
 */
export class ResultVersionMismatchError extends Error {
  /** The versions the result type supports. */
  readonly supported: readonly string[];
  /** The version found in the JSON. */
  readonly version: string;
  constructor(supported: readonly string[], version: string) {
    super(
      `result type supports ${goStringList(supported)} but unmarshalled CNIVersion is ${goQuote(version)}`,
    );
    this.name = "ResultVersionMismatchError";
    this.supported = supported;
    this.version = version;
  }
}

/**
 * A result cannot be converted: no converter between the versions (`no converter for CNI
 * result version X to Y`) or nothing the target can hold (`cannot convert: no valid IP addresses`).
 */
export class ConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConversionError";
  }
}

/** `DecodeVersion` failed: the JSON is malformed (the cause holds Go's decoding error). */
export class DecodeVersionError extends Error {
  constructor(cause: Error) {
    super(`decoding version from network config: ${cause.message}`, { cause });
    this.name = "DecodeVersionError";
  }
}
