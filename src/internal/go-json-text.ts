/**
 * A fast path of the encoder for values with a large, fixed shape (results of 500k routes): the
 * value writes its own JSON text, without the tree of objects `toGoJSON` builds. The text must
 * be exactly the generic path's; `undefined` means "use the generic path" (an unexpected shape).
 * `asMap` asks for the bytes `marshalAsMap` writes (keys sorted at every level).
 */
export const goJSONText: unique symbol = Symbol.for("libcni.goJSONText");

export interface GoJSONText {
  [goJSONText](asMap: boolean): string | undefined;
}

export function hasGoJSONText(value: object): value is GoJSONText {
  return typeof (value as Partial<GoJSONText>)[goJSONText] === "function";
}
