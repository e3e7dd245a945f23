// Go's strings.ToLower, rune by rune (conf's boolean fields, CNI_ARGS' booleans).
import { describe, expect, it } from "vitest";
import { goToLower } from "../../src/internal/go-lower.js";

describe("goToLower (strings.ToLower)", () => {
  it("uses the simple one-to-one mapping, rune by rune", () => {
    expect(goToLower("TRUE")).toBe("true");
    // JavaScript's full mapping gives "i̇stanbul" and a final sigma; Go gives these.
    expect(goToLower("İSTANBUL")).toBe("istanbul");
    expect(goToLower("ΣΑΣ")).toBe("σασ");
    expect(goToLower("\u212a")).toBe("k");
  });
});
