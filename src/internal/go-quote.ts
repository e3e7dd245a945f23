/**
 * Go's `%q` verb (`strconv.Quote`), which upstream's error texts embed and runtimes match on.
 * `JSON.stringify` escapes differently (it keeps U+00A0 and DEL, writes `\u001b` for Go's
 * `\x1b`), and a plugin's output is bytes, each byte that is not valid UTF-8 written `\xNN`.
 */
import { decodeRune, utf8Encode } from "./bytes.js";

// Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");

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

/** Go's `fmt.Sprintf("%q", string(b))`. */
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
  return goQuoteBytes(utf8Encode(text));
}

/** Go's `%q` of a `[]string`: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(" ")}]`;
}

/**
 * Go's `strconv.QuoteRune` (`%q` of a rune): `'a'`, `'\''`, `'"'`, `'\n'`, `'\x00'`. It is also
 * what encoding/json's scanner calls `quoteChar` when it names a byte in a syntax error.
 */
export function goQuoteRune(codePoint: number): string {
  if (codePoint === 0x27) return "'\\''";
  if (codePoint === 0x22) return "'\"'";
  return `'${goQuote(String.fromCodePoint(codePoint)).slice(1, -1)}'`;
}
