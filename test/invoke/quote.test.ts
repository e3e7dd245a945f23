/** Go's %q over bytes, as upstream's plugin errors quote stdout and stderr. */
import { describe, expect, it } from "vitest";
import { goQuote, goQuoteBytes } from "../../src/invoke/quote.js";

const bytes = (...b: number[]): Uint8Array => new Uint8Array(b);

describe("goQuoteBytes", () => {
  it("escapes as strconv.Quote", () => {
    expect(goQuote("some stderr message")).toBe('"some stderr message"');
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote("\x07\b\f\n\r\t\v")).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
    expect(goQuote("\x00\x1b\x7f")).toBe('"\\x00\\x1b\\x7f"');
    expect(goQuote("héllo ✓ 日本")).toBe('"héllo ✓ 日本"');
    expect(goQuote("\u00a0\u200b\u2028")).toBe('"\\u00a0\\u200b\\u2028"');
    expect(goQuote("\u{e0001}")).toBe('"\\U000e0001"');
    expect(goQuote("😀")).toBe('"😀"');
  });

  it("writes invalid UTF-8 bytes as \\xNN, one per byte", () => {
    expect(goQuoteBytes(bytes(0x61, 0xff, 0x62))).toBe('"a\\xffb"');
    expect(goQuoteBytes(bytes(0xe2, 0x82))).toBe('"\\xe2\\x82"');
    expect(goQuoteBytes(bytes(0xed, 0xa0, 0x80))).toBe('"\\xed\\xa0\\x80"');
    // A correctly encoded U+FFFD is printable.
    expect(goQuoteBytes(bytes(0xef, 0xbf, 0xbd))).toBe('"\ufffd"');
  });

  it("quotes the empty string", () => {
    expect(goQuoteBytes(new Uint8Array())).toBe('""');
  });
});
