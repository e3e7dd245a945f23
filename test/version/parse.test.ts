import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { InvalidArgumentError, VersionError } from "../../src/errors/index.js";
import {
  compareVersions,
  greaterThan,
  greaterThanOrEqualTo,
  parseVersion,
} from "../../src/version/parse.js";

describe("parseVersion (upstream Describe ParseVersion)", () => {
  it("parses a valid version correctly", () => {
    expect(parseVersion("1.2.3")).toEqual([1, 2, 3]);
  });

  it("parses an empty string as v0.1.0", () => {
    expect(parseVersion("")).toEqual([0, 1, 0]);
  });

  it.each([
    "asdfasdf",
    "asdf.",
    ".asdfas",
    "asdf.adsf.",
    "0.",
    "..",
    "1.2.3.4.5",
  ])("returns an error for malformed version %j", (v) => {
    expect(() => parseVersion(v)).toThrow(Error);
  });

  it("fills missing parts with 0", () => {
    expect(parseVersion("1")).toEqual([1, 0, 0]);
    expect(parseVersion("1.2")).toEqual([1, 2, 0]);
  });

  it("accepts what Go's strconv.Atoi accepts", () => {
    expect(parseVersion("+1")).toEqual([1, 0, 0]);
    expect(parseVersion("01")).toEqual([1, 0, 0]);
    expect(parseVersion("-42")).toEqual([-42, 0, 0]);
    expect(parseVersion("1.+2.-3")).toEqual([1, 2, -3]);
    expect(parseVersion("+0.-0.00")).toEqual([0, 0, 0]);
    expect(parseVersion("9223372036854775807")).toEqual([2 ** 63, 0, 0]);
    expect(parseVersion("-9223372036854775808")).toEqual([-(2 ** 63), 0, 0]);
  });

  // Every message below was produced by upstream's ParseVersion under Go 1.19.
  it.each([
    [
      "1.0.0-rc1",
      'failed to convert micro version part "0-rc1": strconv.Atoi: parsing "0-rc1": invalid syntax',
    ],
    ["1.2.3.4", 'invalid version "1.2.3.4": too many parts'],
    ["1.2.3.4.5", 'invalid version "1.2.3.4.5": too many parts'],
    ["0.", 'failed to convert minor version part "": strconv.Atoi: parsing "": invalid syntax'],
    ["..", 'failed to convert major version part "": strconv.Atoi: parsing "": invalid syntax'],
    ["1..2", 'failed to convert minor version part "": strconv.Atoi: parsing "": invalid syntax'],
    [
      "asdf",
      'failed to convert major version part "asdf": strconv.Atoi: parsing "asdf": invalid syntax',
    ],
    ["+", 'failed to convert major version part "+": strconv.Atoi: parsing "+": invalid syntax'],
    ["-", 'failed to convert major version part "-": strconv.Atoi: parsing "-": invalid syntax'],
    [" 1", 'failed to convert major version part " 1": strconv.Atoi: parsing " 1": invalid syntax'],
    ["1 ", 'failed to convert major version part "1 ": strconv.Atoi: parsing "1 ": invalid syntax'],
    [
      "1_0",
      'failed to convert major version part "1_0": strconv.Atoi: parsing "1_0": invalid syntax',
    ],
    [
      "0x10",
      'failed to convert major version part "0x10": strconv.Atoi: parsing "0x10": invalid syntax',
    ],
    ["é.1", 'failed to convert major version part "é": strconv.Atoi: parsing "é": invalid syntax'],
    ["１", 'failed to convert major version part "１": strconv.Atoi: parsing "１": invalid syntax'],
    ["٣", 'failed to convert major version part "٣": strconv.Atoi: parsing "٣": invalid syntax'],
    [
      "\t.1",
      'failed to convert major version part "\\t": strconv.Atoi: parsing "\\t": invalid syntax',
    ],
    [
      "\x7f",
      'failed to convert major version part "\\x7f": strconv.Atoi: parsing "\\x7f": invalid syntax',
    ],
    [
      "\u200b",
      'failed to convert major version part "\\u200b": strconv.Atoi: parsing "\\u200b": invalid syntax',
    ],
    [
      'a"b\\',
      'failed to convert major version part "a\\"b\\\\": strconv.Atoi: parsing "a\\"b\\\\": invalid syntax',
    ],
    ["😀", 'failed to convert major version part "😀": strconv.Atoi: parsing "😀": invalid syntax'],
    [
      "9223372036854775808",
      'failed to convert major version part "9223372036854775808": strconv.Atoi: parsing "9223372036854775808": value out of range',
    ],
    [
      "-9223372036854775809",
      'failed to convert major version part "-9223372036854775809": strconv.Atoi: parsing "-9223372036854775809": value out of range',
    ],
    [
      "99999999999999999999.0",
      'failed to convert major version part "99999999999999999999": strconv.Atoi: parsing "99999999999999999999": value out of range',
    ],
    // Go's ParseUint meets the overflow before the bad character (checked against Go 1.19).
    ...[
      ["99999999999999999999x", "value out of range"],
      ["18446744073709551615x", "invalid syntax"],
      ["18446744073709551616x", "value out of range"],
      ["9999999999999999999x", "invalid syntax"],
      ["-99999999999999999999x", "value out of range"],
      ["+000018446744073709551616x", "value out of range"],
      ["x99999999999999999999999", "invalid syntax"],
    ].map(([v, why]) => [
      v,
      `failed to convert major version part "${v}": strconv.Atoi: parsing "${v}": ${why}`,
    ]),
  ])("rejects %j with Go's text", (v, message) => {
    expect(() => parseVersion(v)).toThrow(new VersionError(message));
  });

  it("refuses a version that is not a string with a typed error (a JavaScript caller's)", () => {
    for (const bad of [undefined, null, 1]) {
      expect(() => parseVersion(bad as unknown as string)).toThrow(InvalidArgumentError);
    }
  });

  it("handles leading zeros and huge parts without losing the int64 bounds", () => {
    expect(parseVersion(`${"0".repeat(50)}7.1`)).toEqual([7, 1, 0]);
    expect(parseVersion(`-${"0".repeat(30)}9223372036854775808`)).toEqual([-(2 ** 63), 0, 0]);
    expect(() => parseVersion(`+${"0".repeat(30)}9223372036854775808`)).toThrow(
      /value out of range/,
    );
  });

  it("refuses a huge part by its digit count, never converting it (Go's Atoi is linear too)", () => {
    const huge = "9".repeat(100_000);
    // Converting all those digits to a BigInt is what would make this slow: the part is
    // refused before any conversion, so BigInt never sees more than int64's 19 digits and a sign.
    const bigInt = vi.spyOn(globalThis, "BigInt");
    try {
      expect(() => parseVersion(huge)).toThrow(
        new VersionError(
          `failed to convert major version part "${huge}": strconv.Atoi: parsing "${huge}": value out of range`,
        ),
      );
      expect(() => parseVersion(`1.${"0".repeat(100)}${huge}`)).toThrow(/: value out of range$/);
      expect(parseVersion("9223372036854775807.1")).toEqual([2 ** 63, 1, 0]);
      expect(bigInt).toHaveBeenCalled();
      for (const [arg] of bigInt.mock.calls) expect(String(arg).length).toBeLessThanOrEqual(20);
    } finally {
      bigInt.mockRestore();
    }
  });

  it("keeps the strconv error as the cause", () => {
    let caught: unknown;
    try {
      parseVersion("1.x");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(VersionError);
    expect((caught as Error).cause).toEqual(
      new VersionError('strconv.Atoi: parsing "x": invalid syntax'),
    );
  });

  const part = fc.integer({ min: -1_000_000, max: 1_000_000 });

  it("round-trips any three integers, however signed or zero-padded (property)", () => {
    const spelled = fc.tuple(part, fc.constantFrom("", "+", "0", "00"), fc.boolean());
    fc.assert(
      fc.property(fc.array(spelled, { minLength: 1, maxLength: 3 }), (parts) => {
        const text = parts
          .map(([n, prefix]) => {
            if (n < 0) return `-${prefix.replace("+", "")}${-n}`;
            return `${prefix}${n}`;
          })
          .join(".");
        const expected = [0, 0, 0].map((zero, i) => (i < parts.length ? parts[i][0] : zero));
        expect(parseVersion(text)).toEqual(expected);
      }),
    );
  });

  it("accepts a part exactly when it is [+-]?[0-9]+ (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6, unit: "binary-ascii" }), (p) => {
        if (p.includes(".")) return;
        const ok = /^[+-]?[0-9]+$/.test(p);
        if (ok) expect(parseVersion(`1.${p}`)[1]).toBe(Number.parseInt(p, 10));
        else expect(() => parseVersion(`1.${p}`)).toThrow(/^failed to convert minor version part/);
      }),
    );
  });
});

/** Numeric comparison of the [major, minor, micro] tuples: the property's oracle. */
function tupleCompare(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return Math.sign(a[i] - b[i]);
  return 0;
}

describe("greaterThanOrEqualTo (upstream Describe GreaterThanOrEqualTo)", () => {
  it.each([
    ["1.2.34", "1.2.14"],
    ["2.5.4", "2.4.4"],
    ["1.2.3", "0.2.3"],
    ["0.4.0", "0.3.1"],
  ])("correctly compares %s and %s", (a, b) => {
    expect(greaterThanOrEqualTo(a, b)).toBe(true);
    expect(greaterThanOrEqualTo(b, a)).toBe(false);
  });

  it("returns true when versions are the same", () => {
    expect(greaterThanOrEqualTo("1.2.3", "1.2.3")).toBe(true);
  });

  it.each([
    ["1.2.34", "asdadf"],
    ["adsfad", "2.5.4"],
  ])("returns an error for malformed versions %j, %j", (a, b) => {
    expect(() => greaterThanOrEqualTo(a, b)).toThrow(/failed to convert major version part/);
  });

  it("compares numerically, not as strings", () => {
    expect(greaterThanOrEqualTo("0.10.0", "0.9.0")).toBe(true);
    expect(greaterThanOrEqualTo("1", "1.0.0")).toBe(true);
    expect(greaterThanOrEqualTo("", "0.1.0")).toBe(true);
    expect(greaterThanOrEqualTo("", "0.2.0")).toBe(false);
  });
});

describe("greaterThan (upstream 'version parsing')", () => {
  it("parses versions correctly", () => {
    expect(greaterThan("1.1.0", "1.1.1")).toBe(false);
    expect(greaterThan("1.1.1", "1.1.0")).toBe(true);
    expect(greaterThan("1.1.1", "1.1.1")).toBe(false);
  });

  it("rejects a malformed version in either position", () => {
    expect(() => greaterThan("1.0.0-rc1", "1.0.0")).toThrow(/micro version part "0-rc1"/);
    expect(() => greaterThan("1.0.0", "1.2.3.4")).toThrow(
      'invalid version "1.2.3.4": too many parts',
    );
  });

  it("stays exact beyond 2^53, as Go's int64 comparisons", () => {
    expect(greaterThan("9007199254740993", "9007199254740992")).toBe(true);
    expect(greaterThan("9223372036854775807", "9223372036854775806")).toBe(true);
  });
});

describe("comparisons agree with numeric tuple comparison (property)", () => {
  const tuple = fc.tuple(
    fc.integer({ min: -3, max: 20 }),
    fc.integer({ min: -3, max: 20 }),
    fc.integer({ min: -3, max: 20 }),
  );
  const text = (t: readonly number[]) => t.join(".");

  it("greaterThan, greaterThanOrEqualTo and compareVersions", () => {
    fc.assert(
      fc.property(tuple, tuple, (a, b) => {
        const want = tupleCompare(a, b);
        expect(Math.sign(compareVersions(text(a), text(b)))).toBe(want);
        expect(greaterThan(text(a), text(b))).toBe(want > 0);
        expect(greaterThanOrEqualTo(text(a), text(b))).toBe(want >= 0);
      }),
    );
  });

  it("is a total order: antisymmetric and consistent", () => {
    fc.assert(
      fc.property(tuple, tuple, (a, b) => {
        const ge = greaterThanOrEqualTo(text(a), text(b));
        const le = greaterThanOrEqualTo(text(b), text(a));
        expect(ge || le).toBe(true);
        expect(ge && le).toBe(tupleCompare(a, b) === 0);
        expect(greaterThan(text(a), text(b))).toBe(ge && !le);
      }),
    );
  });
});
