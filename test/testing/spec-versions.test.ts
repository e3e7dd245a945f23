/**
 * The spec-version predicates of libcni/testing against upstream's testutils
 * (containernetworking/plugins pkg/testutils/testing.go): the same answer for every spec
 * version; a version that does not parse throws instead of reading as false.
 */
import { describe, expect, it } from "vitest";
import { VersionError } from "../../src/errors/index.js";
import * as testing from "../../src/testing/index.js";

const { allSpecVersions, specVersionHasCheck, specVersionHasGC, specVersionHasStatus } = testing;
const { specVersionHasChaining, specVersionHasIPVersion, specVersionHasMultipleIPs } = testing;

// Upstream's answers, version by version (its SpecVersionHasIPVersion is a list of three).
const upstream: Record<string, (v: string) => boolean> = {
  specVersionHasIPVersion: (v) => ["0.3.0", "0.3.1", "0.4.0"].includes(v),
  specVersionHasCheck: (v) => allSpecVersions.indexOf(v) >= allSpecVersions.indexOf("0.4.0"),
  specVersionHasGC: (v) => v === "1.1.0",
  specVersionHasStatus: (v) => v === "1.1.0",
  specVersionHasChaining: (v) => allSpecVersions.indexOf(v) >= allSpecVersions.indexOf("0.3.0"),
  specVersionHasMultipleIPs: (v) => allSpecVersions.indexOf(v) >= allSpecVersions.indexOf("0.3.0"),
};

const predicates = {
  specVersionHasIPVersion,
  specVersionHasCheck,
  specVersionHasGC,
  specVersionHasStatus,
  specVersionHasChaining,
  specVersionHasMultipleIPs,
};

describe("specVersionHas*", () => {
  it.each(Object.keys(predicates))("%s answers as upstream's for every spec version", (name) => {
    const predicate = predicates[name as keyof typeof predicates];
    const expected = allSpecVersions.map((v) => [v, upstream[name](v)]);
    expect(allSpecVersions.map((v) => [v, predicate(v)])).toEqual(expected);
  });

  it("filters the version matrix without a hand-written list", () => {
    expect(allSpecVersions.filter(specVersionHasCheck)).toEqual(["0.4.0", "1.0.0", "1.1.0"]);
    expect(allSpecVersions.filter(specVersionHasGC)).toEqual(["1.1.0"]);
    expect(allSpecVersions.filter(specVersionHasStatus)).toEqual(["1.1.0"]);
    expect(allSpecVersions.filter(specVersionHasIPVersion)).toEqual(["0.3.0", "0.3.1", "0.4.0"]);
    expect(allSpecVersions.filter((v) => !specVersionHasChaining(v))).toEqual(["0.1.0", "0.2.0"]);
  });

  it('reads "" as 0.1.0 (a config without cniVersion), as upstream', () => {
    for (const predicate of Object.values(predicates)) expect(predicate("")).toBe(false);
  });

  it("throws VersionError for a version that does not parse, where upstream says false", () => {
    for (const predicate of Object.values(predicates)) {
      expect(() => predicate("1.0.0-rc1")).toThrow(VersionError);
      expect(() => predicate("1.1.0.0")).toThrow('invalid version "1.1.0.0": too many parts');
    }
  });

  it("compares numerically: a later version has what 1.1.0 has", () => {
    expect(specVersionHasStatus("1.2.0")).toBe(true);
    expect(specVersionHasGC("1.10.0")).toBe(true);
    expect(specVersionHasIPVersion("1.2.0")).toBe(false);
  });
});
