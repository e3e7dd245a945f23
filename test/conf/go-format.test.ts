/**
 * The Go formatting helpers behind upstream's messages: %T, %q and strings.ToLower. Expected
 * values were printed by Go.
 */
import { describe, expect, it } from "vitest";
import { goTypeName } from "../../src/conf/go-format.js";
import { goPathErrorText } from "../../src/internal/errno.js";
import { goQuote } from "../../src/internal/go-quote.js";

describe("goTypeName (%T of a decoded JSON value)", () => {
  it("names each JSON kind as Go's interface{} decoding types it", () => {
    expect(goTypeName(null)).toBe("<nil>");
    expect(goTypeName("s")).toBe("string");
    expect(goTypeName(1.5)).toBe("float64");
    expect(goTypeName(false)).toBe("bool");
    expect(goTypeName([])).toBe("[]interface {}");
    expect(goTypeName({})).toBe("map[string]interface {}");
  });
});

describe("goQuote (strconv.Quote)", () => {
  it("escapes as Go does", () => {
    expect(goQuote("plain")).toBe(`"plain"`);
    expect(goQuote(`a"b\\c`)).toBe(`"a\\"b\\\\c"`);
    expect(goQuote("\x07\b\f\n\r\t\v")).toBe(`"\\a\\b\\f\\n\\r\\t\\v"`);
    expect(goQuote("\x00\x1b\x7f")).toBe(`"\\x00\\x1b\\x7f"`);
    expect(goQuote("\u00a0\u2028\u200b")).toBe(`"\\u00a0\\u2028\\u200b"`);
    expect(goQuote("é😀<>&")).toBe(`"é😀<>&"`);
    expect(goQuote("\u{e0001}")).toBe(`"\\U000e0001"`);
    // A lone surrogate is U+FFFD once a Go string, which is printable.
    expect(goQuote("\ud800")).toBe(`"\ufffd"`);
  });
});

describe("goPathErrorText (*os.PathError)", () => {
  const err = (code: string, syscall: string, message = `${code}: x, ${syscall} '/p'`) =>
    Object.assign(new Error(message), { code, syscall });

  it("uses Go's operation and errno wording", () => {
    expect(goPathErrorText(err("ENOENT", "open"), "/p")).toBe("open /p: no such file or directory");
    expect(goPathErrorText(err("EISDIR", "read"), "/p")).toBe("read /p: is a directory");
    expect(goPathErrorText(err("EACCES", "scandir"), "/p")).toBe("open /p: permission denied");
    expect(goPathErrorText(err("ENOTDIR", "scandir"), "/p")).toBe("readdirent /p: not a directory");
    expect(goPathErrorText(err("ELOOP", "open"), "/p")).toBe(
      "open /p: too many levels of symbolic links",
    );
  });

  it("falls back to Node's description for an errno it does not know", () => {
    expect(
      goPathErrorText(
        err("EXDEV", "open", "EXDEV: cross-device link not permitted, open '/p'"),
        "/p",
      ),
    ).toBe("open /p: cross-device link not permitted");
  });
});
