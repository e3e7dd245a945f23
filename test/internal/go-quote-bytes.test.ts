/** Go's %q over bytes, as upstream's plugin errors quote stdout and stderr. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { goQuote, goQuoteBytes } from "../../src/internal/go-quote.js";

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

/** Go's strconv.Unquote for the escapes Quote writes, back to bytes. */
function unquote(q: string): Uint8Array {
  const out: number[] = [];
  const body = q.slice(1, -1);
  const simple: Record<string, number> = {
    a: 7,
    b: 8,
    f: 12,
    n: 10,
    r: 13,
    t: 9,
    v: 11,
    '"': 0x22,
    "\\": 0x5c,
  };
  for (let i = 0; i < body.length; ) {
    if (body[i] !== "\\") {
      const cp = body.codePointAt(i) ?? 0;
      const ch = String.fromCodePoint(cp);
      out.push(...new TextEncoder().encode(ch));
      i += ch.length;
      continue;
    }
    const kind = body[i + 1];
    if (kind in simple) {
      out.push(simple[kind]);
      i += 2;
    } else if (kind === "x") {
      out.push(Number.parseInt(body.slice(i + 2, i + 4), 16));
      i += 4;
    } else {
      const width = kind === "u" ? 4 : 8;
      const cp = Number.parseInt(body.slice(i + 2, i + 2 + width), 16);
      out.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
      i += 2 + width;
    }
  }
  return new Uint8Array(out);
}

describe("goQuoteBytes properties", () => {
  it("round-trips any bytes through Go's unquoting", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        expect(unquote(goQuoteBytes(b))).toEqual(b);
      }),
    );
  });

  it("round-trips any string's UTF-8", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (s) => {
        const b = new TextEncoder().encode(s);
        expect(unquote(goQuoteBytes(b))).toEqual(b);
      }),
    );
  });

  it("writes only printable characters between the quotes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const q = goQuoteBytes(b);
        expect(q.startsWith('"') && q.endsWith('"')).toBe(true);
        const controls = [...q].filter((c) => (c.codePointAt(0) ?? 0) < 0x20 || c === "\x7f");
        expect(controls).toEqual([]);
      }),
    );
  });
});
