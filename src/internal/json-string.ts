/**
 * Go's encoding/json string quoting: HTML-safe (`<`, `>`, `&`, U+2028, U+2029 as `\u` escapes),
 * `\b` and `\f` short as Go 1.22+, lone surrogates as U+FFFD. A leaf module, so that the
 * error classes can print the spec's error object without the whole encoder.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters Go escapes
const needsEscape = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;
const hex = "0123456789abcdef";

/** Quotes a string as Go's encoder does (HTML-safe, lone surrogates as U+FFFD). */
export function quoteString(s: string): string {
  if (!needsEscape.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i] + s[i + 1];
        i++;
      } else {
        out += "\ufffd";
      }
      continue;
    }
    out += escapeChar(c) ?? s[i];
  }
  return `${out}"`;
}

/** Go's escape for one UTF-16 unit, or undefined when it is written as is. */
export function escapeChar(c: number): string | undefined {
  switch (c) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return "\\\\";
    case 0x0a:
      return "\\n";
    case 0x0d:
      return "\\r";
    case 0x09:
      return "\\t";
    // Go 1.22 and later write \b and \f in short form.
    case 0x08:
      return "\\b";
    case 0x0c:
      return "\\f";
  }
  if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
    return `\\u${hex[c >> 12]}${hex[(c >> 8) & 15]}${hex[(c >> 4) & 15]}${hex[c & 15]}`;
  }
  return undefined;
}
