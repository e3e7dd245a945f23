/**
 * The spec versions a test iterates over (upstream's `testutils.AllSpecVersions`), taken from
 * libcni/version's list so the two never disagree, and what each version has (upstream's
 * `testutils.SpecVersionHas*`): `allSpecVersions.filter(specVersionHasCheck)`.
 *
 * Unlike upstream's, whose version comparison error is dropped (a mistyped version is "false"
 * and its tests are silently skipped), each of these throws `parseVersion`'s VersionError for a
 * version that does not parse. As upstream's, "" is 0.1.0 (a config without `cniVersion`).
 */
import { all, greaterThanOrEqualTo } from "../version/index.js";

/** Every CNI spec version, oldest first: 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0. */
export const allSpecVersions: readonly string[] = Object.freeze([...all.supportedVersions()]);

/**
 * True when the version's results give each IP address a `version` field: 0.3.0 to 0.4.0
 * (before, `ip4`/`ip6`; 1.0.0 dropped it). Upstream `testutils.SpecVersionHasIPVersion`.
 */
export function specVersionHasIPVersion(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.3.0") && !greaterThanOrEqualTo(version, "1.0.0");
}

/** True from 0.4.0, which has CHECK. Upstream `testutils.SpecVersionHasCHECK`. */
export function specVersionHasCheck(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.4.0");
}

/** True from 1.1.0, which has GC. Upstream `testutils.SpecVersionHasGC`. */
export function specVersionHasGC(version: string): boolean {
  return greaterThanOrEqualTo(version, "1.1.0");
}

/** True from 1.1.0, which has STATUS. Upstream `testutils.SpecVersionHasSTATUS`. */
export function specVersionHasStatus(version: string): boolean {
  return greaterThanOrEqualTo(version, "1.1.0");
}

/**
 * True from 0.3.0, which has plugin chaining (conf lists, `prevResult`). Upstream
 * `testutils.SpecVersionHasChaining`.
 */
export function specVersionHasChaining(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.3.0");
}

/**
 * True from 0.3.0, whose results can hold more IP addresses of a family (an `ips` list, not
 * one `ip4` and one `ip6`). Upstream `testutils.SpecVersionHasMultipleIPs`.
 */
export function specVersionHasMultipleIPs(version: string): boolean {
  return greaterThanOrEqualTo(version, "0.3.0");
}
