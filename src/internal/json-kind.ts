/**
 * Go's name for the kind of a JSON value, as encoding/json's `UnmarshalTypeError.Value`. With
 * `integerTarget` (a Go int or uint), a number is named with its text, `"number 1.5"`, as Go
 * does when the literal does not parse as that integer type.
 */
export function jsonKind(value: unknown, integerTarget = false): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") {
    return integerTarget ? `number ${Object.is(value, -0) ? "-0" : value}` : "number";
  }
  if (typeof value === "boolean") return "bool";
  return typeof value === "string" ? "string" : "object";
}

/** True for what JSON calls an object: not null, not an array (the library's one such test). */
export function isJSONObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
