/**
 * Go's `strconv.Quote` (what `fmt`'s `%q` prints for a string).
 *
 * Upstream's error texts quote names with `%q` (`plugin type="noop" failed (add): ...`,
 * `failed to set network "x" cached result: ...`); runtimes match on those strings, so the
 * quoting must be Go's, not JSON's: printable Unicode stays as is, the C escapes are used for
 * control characters, and everything else is `\xNN`, `\uNNNN` or `\UNNNNNNNN`.
 */

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const shortEscapes: Record<number, string> = {
  7: "\\a",
  8: "\\b",
  12: "\\f",
  10: "\\n",
  13: "\\r",
  9: "\\t",
  11: "\\v",
};

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

function escapeRune(cp: number, ch: string): string {
  if (cp === 0x22) return '\\"';
  if (cp === 0x5c) return "\\\\";
  if (printable.test(ch)) return ch;
  const short = shortEscapes[cp];
  if (short !== undefined) return short;
  if (cp < 0x20 || cp === 0x7f) return `\\x${hex(cp, 2)}`;
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\U${hex(cp, 8)}`;
}

/**
 * Quotes `s` as Go's `strconv.Quote`. A lone surrogate (which a Go string cannot hold) is
 * printed as the replacement character Go's decoder would have produced.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0) ?? 0xfffd;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    out += escapeRune(cp, String.fromCodePoint(cp));
  }
  return `${out}"`;
}
