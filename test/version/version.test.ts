import { describe, expect, it } from "vitest";
import { all, current, legacy, versionsStartingFrom } from "../../src/version/version.js";

describe("known versions", () => {
  it("implements spec 1.1.0", () => {
    expect(current()).toBe("1.1.0");
  });

  it("lists every version oldest first", () => {
    expect(all.supportedVersions()).toEqual([
      "0.1.0",
      "0.2.0",
      "0.3.0",
      "0.3.1",
      "0.4.0",
      "1.0.0",
      "1.1.0",
    ]);
    expect(all.encode()).toBe(
      '{"cniVersion":"1.1.0","supportedVersions":["0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]}\n',
    );
  });

  it("has 0.1.0 and 0.2.0 as legacy", () => {
    expect(legacy.supportedVersions()).toEqual(["0.1.0", "0.2.0"]);
  });

  it("cannot be altered by a caller", () => {
    all.supportedVersions().pop();
    expect(all.supportedVersions()).toHaveLength(7);
  });
});

describe("versionsStartingFrom (upstream 'computes a list of versions correctly')", () => {
  it("computes a list of versions correctly", () => {
    expect(versionsStartingFrom("0.3.1").supportedVersions()).toEqual([
      "0.3.1",
      "0.4.0",
      "1.0.0",
      "1.1.0",
    ]);
  });

  it("includes every version from the first and only the last from the last", () => {
    expect(versionsStartingFrom("0.1.0").supportedVersions()).toEqual(all.supportedVersions());
    expect(versionsStartingFrom("1.1.0").supportedVersions()).toEqual(["1.1.0"]);
  });

  it.each([
    "1.2.0",
    "0.3",
    "",
    "v1.0.0",
    "1.0.0 ",
  ])("throws for the unknown version %j (upstream panics)", (v) => {
    expect(() => versionsStartingFrom(v)).toThrow(
      `unknown CNI version ${JSON.stringify(v)}: known versions are ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0" "1.1.0"]`,
    );
  });
});
