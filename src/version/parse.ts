/**
 * Version strings: upstream's `ParseVersion`, `GreaterThan` and `GreaterThanOrEqualTo`
 * (pkg/version/plugin.go), with Go's `strconv.Atoi` rules and upstream's error texts.
 */

import { InvalidArgumentError } from "../errors/base.js";
import { VersionError } from "../errors/version.js";
import { messageOf } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";

/** A parsed version: `[major, minor, micro]`. */
export type VersionTuple = readonly [major: number, minor: number, micro: number];

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Go's `strconv.Atoi` on a 64-bit platform: an optional sign, then ASCII digits (leading zeros
 * allowed), within int64. A bigint, so that comparisons stay exact beyond 2^53 as Go's are.
 */
function atoi(part: string): bigint {
  const fail = (why: string) => new VersionError(`strconv.Atoi: parsing ${goQuote(part)}: ${why}`);
  // Go's ParseUint fails at the first digit past uint64, before a bad character after it.
  const digits = /^[+-]?0*(\d*)/.exec(part)?.[1] ?? "";
  const early = digits.length > 20 || (digits.length === 20 && digits > "18446744073709551615");
  if (!early && !/^[+-]?[0-9]+$/.test(part)) throw fail("invalid syntax");
  // More than 19 significant digits cannot fit in int64; deciding that before BigInt keeps a
  // huge hostile version string linear-time, as Go's Atoi is.
  const value = part.replace(/^[+-]?0*/, "").length > 19 ? undefined : BigInt(part);
  if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
    throw fail("value out of range");
  }
  return value;
}

const partNames = ["major", "minor", "micro"] as const;

/**
 * Parses a version like `"1.0.0"` into `[major, minor, micro]`, as upstream `ParseVersion`:
 * `""` is 0.1.0, missing parts are 0 (`"1"` = 1.0.0), each part is Go's `strconv.Atoi` (`"+1"`,
 * `"01"`, `"-42"` pass). Throws upstream's texts, the strconv error kept as `cause`.
 */
export function parseVersion(version: string): VersionTuple {
  const [major, minor, micro] = parseExact(version);
  // Parts beyond 2^53 become the nearest double here; comparisons use the exact values.
  return [Number(major), Number(minor), Number(micro)];
}

/** `parseVersion` with exact int64 parts. */
function parseExact(version: string): readonly [bigint, bigint, bigint] {
  if (typeof version !== "string") {
    throw new InvalidArgumentError("version", `version must be a string, got ${typeof version}`);
  }
  if (version === "") return [0n, 1n, 0n];
  const parts = version.split(".");
  if (parts.length >= 4) {
    throw new VersionError(`invalid version ${goQuote(version)}: too many parts`);
  }
  const out = [0n, 0n, 0n];
  parts.forEach((part, i) => {
    try {
      out[i] = atoi(part);
    } catch (err) {
      const text = `failed to convert ${partNames[i]} version part ${goQuote(part)}`;
      throw new VersionError(`${text}: ${messageOf(err)}`, { cause: err });
    }
  });
  return [out[0], out[1], out[2]];
}

/**
 * Compares two versions numerically (`"1"` equals `"1.0.0"`): negative when `a` is older.
 * Throws `parseVersion`'s error, the first argument checked first.
 */
export function compareVersions(a: string, b: string): number {
  const first = parseExact(a);
  const second = parseExact(b);
  for (let i = 0; i < 3; i++) if (first[i] !== second[i]) return first[i] < second[i] ? -1 : 1;
  return 0;
}

/** Upstream `GreaterThanOrEqualTo`; throws `parseVersion`'s error (upstream returns it). */
export function greaterThanOrEqualTo(version: string, otherVersion: string): boolean {
  return compareVersions(version, otherVersion) >= 0;
}

/** Upstream `GreaterThan`; throws `parseVersion`'s error (upstream returns it). */
export function greaterThan(version: string, otherVersion: string): boolean {
  return compareVersions(version, otherVersion) > 0;
}
