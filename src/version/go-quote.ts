/**
 * Go's `strconv.Quote` (what `fmt`'s `%q` prints for a string) and `%q` of a `[]string`.
 *
 * Upstream's error texts embed values with `%q` (`invalid version "1.2.3.4": too many parts`,
 * `plugin supports ["1.2.3" "4.3.2"]`), and `JSON.stringify` escapes differently (it keeps
 * U+00A0 and DEL, and writes `\u001b` where Go writes `\x1b`), so the Go rules are spelled out.
 */

/** Go's `unicode.IsPrint`: categories L, M, N, P, S and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const shortEscapes: ReadonlyMap<number, string> = new Map([
  [0x07, "\\a"],
  [0x08, "\\b"],
  [0x0c, "\\f"],
  [0x0a, "\\n"],
  [0x0d, "\\r"],
  [0x09, "\\t"],
  [0x0b, "\\v"],
]);

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

/**
 * Quotes a string as Go's `strconv.Quote`. A lone UTF-16 surrogate is treated as U+FFFD, which is
 * what it becomes when the string is encoded as UTF-8 for Go.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x22 || cp === 0x5c) {
      out += `\\${String.fromCodePoint(cp)}`;
    } else if (printable.test(String.fromCodePoint(cp))) {
      out += String.fromCodePoint(cp);
    } else {
      const short = shortEscapes.get(cp);
      if (short !== undefined) out += short;
      else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
      else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
      else out += `\\U${hex(cp, 8)}`;
    }
  }
  return `${out}"`;
}

/** Formats a string list as Go's `fmt.Sprintf("%q", []string{...})`: `["a" "b"]`. */
export function goQuoteList(list: readonly string[]): string {
  return `[${list.map(goQuote).join(" ")}]`;
}
