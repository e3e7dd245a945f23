/**
 * A fast path of the encoder for values with a large, fixed shape (results of 500k routes):
 * the value writes its own JSON text directly, without the tree of plain objects its
 * `toGoJSON` builds for the generic encoder. The text must be exactly what the generic path
 * writes; `undefined` means "use the generic path" (a value of an unexpected shape).
 */

/** The hook: `asMap` asks for the bytes `marshalAsMap` writes (keys sorted at every level). */
export const goJSONText: unique symbol = Symbol.for("libcni.goJSONText");

/** A value that can write its own JSON text. */
export interface GoJSONText {
  [goJSONText](asMap: boolean): string | undefined;
}

/** True when `value` implements the fast path. */
export function hasGoJSONText(value: object): value is GoJSONText {
  return typeof (value as Partial<GoJSONText>)[goJSONText] === "function";
}
