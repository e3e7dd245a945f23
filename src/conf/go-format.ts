/**
 * The bits of Go's `fmt` and `strings` that upstream's conf.go puts into its error messages:
 * `%T` of a decoded JSON value and `strings.ToLower` (`%q` is internal/go-quote.ts). Reproduced
 * so the messages are byte for byte upstream's.
 */

/**
 * Go's `%T` of a value decoded from JSON into `interface{}`: what upstream prints in
 * `invalid name type float64` and friends.
 */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return "<nil>";
  if (Array.isArray(value)) return "[]interface {}";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "float64";
    case "boolean":
      return "bool";
    default:
      return "map[string]interface {}";
  }
}

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
