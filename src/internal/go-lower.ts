/** Go's case mapping where JavaScript's differs (conf's boolean fields, CNI_ARGS' booleans). */

/**
 * Go's `strings.ToLower`: the simple (one-to-one) lowercase mapping of each rune. JavaScript's
 * `toLowerCase` applies the full mapping, which turns U+0130 into two code points and a final
 * capital sigma into U+03C2; mapping rune by rune and keeping the first code point gives Go's
 * result.
 */
export function goToLower(s: string): string {
  let out = "";
  for (const ch of s) {
    const lower = ch.toLowerCase();
    out += String.fromCodePoint(lower.codePointAt(0) ?? 0xfffd);
  }
  return out;
}
