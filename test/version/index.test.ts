import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as version from "../../src/version/index.js";

describe("libcni/version public API", () => {
  it("exports the contract's names", () => {
    const names = Object.keys(version).sort();
    expect(names).toEqual(
      [
        "ConfigDecoder",
        "ErrorIncompatible",
        "PluginDecoder",
        "PrevResultError",
        "Reconciler",
        "VersionError",
        "all",
        "configDecoder",
        "current",
        "decodePluginInfo",
        "greaterThan",
        "greaterThanOrEqualTo",
        "legacy",
        "newResult",
        "parsePrevResult",
        "parseVersion",
        "pluginSupports",
        "reconcile",
        "versionsStartingFrom",
      ].sort(),
    );
  });

  it("round-trips any non-empty version list through encode and decodePluginInfo (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 8 }),
        (list) => {
          const info = version.pluginSupports(...list);
          const decoded = version.decodePluginInfo(info.encode());
          // Lone surrogates cannot survive UTF-8, as in Go; everything else comes back as is (a
          // leading U+FEFF too: the model's decoder must not strip it as a BOM).
          const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
          const wellFormed = list.map((s) => utf8.decode(new TextEncoder().encode(s)));
          expect(decoded.supportedVersions()).toEqual(wellFormed);
          expect(decoded.encode()).toBe(version.pluginSupports(...wellFormed).encode());
        },
      ),
    );
  });

  it("reconcile accepts exactly the listed versions (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), fc.string(), (list, v) => {
        const err = version.reconcile(v, version.pluginSupports(...list));
        expect(err === undefined).toBe(list.includes(v));
        if (err) expect(err.supported).toEqual(list);
      }),
    );
  });

  it("every known version parses and the list is in ascending order", () => {
    const known = version.all.supportedVersions();
    for (let i = 1; i < known.length; i++) {
      expect(version.greaterThan(known[i], known[i - 1])).toBe(true);
    }
    expect(known.at(-1)).toBe(version.current());
  });
});
