import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goQuote, goQuoteList } from "../../src/internal/go-quote.js";

describe("goQuote (Go strconv.Quote)", () => {
  // Expected values from Go 1.19's strconv.Quote.
  it.each([
    ["", '""'],
    ["abc", '"abc"'],
    ['a"b\\', '"a\\"b\\\\"'],
    ["\x07\b\f\n\r\t\v", '"\\a\\b\\f\\n\\r\\t\\v"'],
    ["\x00\x1b\x7f", '"\\x00\\x1b\\x7f"'],
    ["\u00a0\u00ad\u200b\u2028\ufeff", '"\\u00a0\\u00ad\\u200b\\u2028\\ufeff"'],
    ["é€１😀", '"é€１😀"'],
    ["\u{e0001}", '"\\U000e0001"'],
    ["\ud800", '"\ufffd"'],
  ])("quotes %j", (input, want) => {
    expect(goQuote(input)).toBe(want);
  });

  it("agrees with JSON.stringify on printable ASCII (property)", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
        }),
        (s) => {
          expect(goQuote(s)).toBe(JSON.stringify(s));
        },
      ),
    );
  });

  it("formats a list as %q of []string", () => {
    expect(goQuoteList([])).toBe("[]");
    expect(goQuoteList(["1.2.3", "4.3.2"])).toBe('["1.2.3" "4.3.2"]');
  });
});
