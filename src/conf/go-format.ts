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
