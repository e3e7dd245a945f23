/**
 * Go's `%q` verb (`strconv.Quote`) over bytes.
 *
 * Upstream's plugin errors quote the plugin's raw stdout or stderr with `%q`. Those are bytes,
 * not text: each byte that is not part of valid UTF-8 is written as `\xNN`, which a string-based
 * quote cannot reproduce, so this works on the bytes themselves.
 */

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");

/** Go's utf8.DecodeRune: the code point and its width, or -1 and width 1 for an invalid byte. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i];
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    const c = b[i + k];
    return c !== undefined && c >= lo && c <= hi ? c & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(1);
    if (c1 >= 0) return [((c0 & 0x1f) << 6) | c1, 2];
  } else if (c0 >= 0xe0 && c0 <= 0xef) {
    const c1 = cont(1, c0 === 0xe0 ? 0xa0 : 0x80, c0 === 0xed ? 0x9f : 0xbf);
    const c2 = c1 >= 0 ? cont(2) : -1;
    if (c2 >= 0) return [((c0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  } else if (c0 >= 0xf0 && c0 <= 0xf4) {
    const c1 = cont(1, c0 === 0xf0 ? 0x90 : 0x80, c0 === 0xf4 ? 0x8f : 0xbf);
    const c2 = c1 >= 0 ? cont(2) : -1;
    const c3 = c2 >= 0 ? cont(3) : -1;
    if (c3 >= 0) return [((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return [-1, 1];
}

const simpleEscapes: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  12: "\\f",
  10: "\\n",
  13: "\\r",
  9: "\\t",
  11: "\\v",
  34: '\\"',
  92: "\\\\",
};

function escapeRune(cp: number): string {
  const simple = simpleEscapes[cp];
  if (simple !== undefined) return simple;
  const ch = String.fromCodePoint(cp);
  if (printable.test(ch)) return ch;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/**
 * Go's `fmt.Sprintf("%q", string(b))`: a double-quoted Go string literal in which invalid
 * UTF-8 bytes appear as `\xNN` and non-printable runes as Go escapes.
 */
export function goQuoteBytes(bytes: Uint8Array): string {
  let out = '"';
  for (let i = 0; i < bytes.length; ) {
    const [cp, width] = decodeRune(bytes, i);
    out += cp < 0 ? `\\x${hex(bytes[i], 2)}` : escapeRune(cp);
    i += width;
  }
  return `${out}"`;
}

/** Go's `%q` of a string; a lone surrogate counts as the U+FFFD Go would have decoded. */
export function goQuote(text: string): string {
  return goQuoteBytes(new TextEncoder().encode(text));
}
