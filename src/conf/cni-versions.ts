/**
 * Choosing a list's CNI version from `cniVersion` and `cniVersions` (upstream
 * `NetworkConfFromBytes`, the `cniVersions` block): the highest version this library
 * implements wins, so one file can serve runtimes of different ages.
 */

import { ConfError } from "../errors/conf.js";
// The version modules themselves: version/index.js would load every result type with them.
import { greaterThan } from "../version/parse.js";
import { current } from "../version/version.js";
import { wrapErrors } from "./bytes.js";
import { goTypeName } from "./go-format.js";

const prefix = "error parsing configuration list: ";

/**
 * Go's `slices.SortFunc` on at most 12 elements is an insertion sort; reproducing it keeps
 * the pick identical to upstream's even for entries that compare as equal versions but are
 * spelled differently ("1.0" and "1.0.0"), where upstream's comparator is inconsistent.
 */
function goInsertionSort(list: string[], cmp: (a: string, b: string) => number): void {
  for (let i = 1; i < list.length; i++) {
    for (let j = i; j > 0 && cmp(list[j], list[j - 1]) < 0; j--) {
      [list[j], list[j - 1]] = [list[j - 1], list[j]];
    }
  }
}

// Upstream's comparator: equal strings are equal, otherwise "greater" or else "less".
function upstreamCompare(a: string, b: string): number {
  if (a === b) return 0;
  return greaterThan(a, b) ? 1 : -1;
}

/**
 * Returns the list's CNI version: the highest of the `cniVersions` entries and `cniVersion`
 * that is not newer than `current()`, or `cniVersion` as written when none qualifies.
 *
 * @param rawVersions the decoded `cniVersions` value (must be an array of version strings)
 * @param cniVersion the decoded `cniVersion` ("" when absent)
 * @throws ConfError with upstream's message for a non-array, a non-string entry or an entry
 *   (or a `cniVersion`) that does not parse as a version.
 */
export function selectCNIVersion(rawVersions: unknown, cniVersion: string): string {
  if (!Array.isArray(rawVersions)) {
    // Upstream prints %T of the failed assertion's zero value, so always "[]interface {}".
    throw new ConfError(`${prefix}invalid type for cniVersions: []interface {}`);
  }
  const implemented = current();
  const candidates: string[] = [];
  rawVersions.forEach((entry: unknown, i) => {
    if (typeof entry !== "string") {
      throw new ConfError(`${prefix}invalid type for cniVersions index ${i}: ${goTypeName(entry)}`);
    }
    const invalid = `${prefix}invalid cniVersions entry ${entry} at index ${i}: `;
    // Entries newer than this implementation are skipped, not errors: a file may list them.
    if (!wrapErrors(invalid, () => greaterThan(entry, implemented))) candidates.push(entry);
  });
  if (cniVersion !== "") {
    const invalid = `${prefix}invalid cniVersion ${cniVersion}: `;
    if (!wrapErrors(invalid, () => greaterThan(cniVersion, implemented))) {
      candidates.push(cniVersion);
    }
  }
  goInsertionSort(candidates, upstreamCompare);
  return candidates.length > 0 ? candidates[candidates.length - 1] : cniVersion;
}
