/**
 * NODE_DEBUG sections matched as Node's debuglog matches them, for runtimes whose debuglog has
 * no `enabled` (Bun): comma-separated, case-insensitive, `*` as a wildcard.
 */
import { describe, expect, it } from "vitest";
import { debugSectionOn } from "../../src/internal/diagnostics.js";

describe("debugSectionOn", () => {
  it("finds the section as Node does", () => {
    for (const on of ["libcni", "LIBCNI", "http,libcni", " libcni ", "lib*", "*", "net,*cni"]) {
      expect(debugSectionOn("libcni", on), on).toBe(true);
    }
    for (const off of [undefined, "", "libcn", "libcni2", "http", "lib.ni", "xlibcni"]) {
      expect(debugSectionOn("libcni", off), String(off)).toBe(false);
    }
  });
});
