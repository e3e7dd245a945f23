/**
 * The spec versions a test iterates over (upstream's `testutils.AllSpecVersions`), taken from
 * libcni/version's list so the two never disagree, and what each version has (upstream's
 * `testutils.SpecVersionHas*`), so a version matrix needs no hand-written filter:
 *
 * ```ts
 * for (const ver of allSpecVersions.filter(specVersionHasCheck)) { ... }
 * ```
 *
 * Unlike upstream's, whose version comparison error is dropped (a mistyped version is "false"
 * and its tests are silently skipped), these throw `parseVersion`'s VersionError for a version
 * that does not parse. As upstream's, "" is 0.1.0 (a config without `cniVersion`).
 */
import { all, greaterThanOrEqualTo } from "../version/index.js";

/** Every CNI spec version, oldest first: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0. */
export const allSpecVersions: readonly string[] = Object.freeze([...all.supportedVersions()]);

/**
 * True when the spec version's results give each IP address a `version` field ("4" or "6"):
 * 0.3.0 to 0.4.0 (0.1.0 and 0.2.0 have `ip4`/`ip6` instead, 1.0.0 dropped the field). Upstream
 * `testutils.SpecVersionHasIPVersion`.
 * @throws VersionError when `version` does not parse.
 */
export function specVersionHasIPVersion(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.3.0") && !greaterThanOrEqualTo(version, "1.0.0");
}

/**
 * True when the spec version has the CHECK verb (0.4.0 and later). Upstream
 * `testutils.SpecVersionHasCHECK`.
 * @throws VersionError when `version` does not parse.
 */
export function specVersionHasCheck(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.4.0");
}

/**
 * True when the spec version has the GC verb (1.1.0 and later). Upstream
 * `testutils.SpecVersionHasGC`.
 * @throws VersionError when `version` does not parse.
 */
export function specVersionHasGC(version: string): boolean {
  return greaterThanOrEqualTo(version, "1.1.0");
}

/**
 * True when the spec version has the STATUS verb (1.1.0 and later). Upstream
 * `testutils.SpecVersionHasSTATUS`.
 * @throws VersionError when `version` does not parse.
 */
export function specVersionHasStatus(version: string): boolean {
  return greaterThanOrEqualTo(version, "1.1.0");
}

/**
 * True when the spec version has plugin chaining: network configuration lists, `prevResult`
 * (0.3.0 and later). Upstream `testutils.SpecVersionHasChaining`.
 * @throws VersionError when `version` does not parse.
 */
export function specVersionHasChaining(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.3.0");
}

/**
 * True when the spec version's results can hold more than one IP address of a family (0.3.0
 * and later: an `ips` list instead of one `ip4` and one `ip6`). Upstream
 * `testutils.SpecVersionHasMultipleIPs`.
 * @throws VersionError when `version` does not parse.
 */
export function specVersionHasMultipleIPs(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.3.0");
}
