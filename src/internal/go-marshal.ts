/**
 * The hooks of Go's marshaling protocol, shared by the encoder and the types that choose their
 * own encoding (results, the CNI error): a leaf module, so neither depends on the other.
 */

/**
 * Go's `json.Marshaler`: the encoder encodes what the method returns in the value's place. A
 * registry symbol, so that two copies of the library encode each other's values alike.
 */
export const toGoJSON: unique symbol = Symbol.for("libcni.toGoJSON");

/** A value with its own Go encoding (Go's `json.Marshaler`). */
export interface GoMarshaler {
  /** The value to encode in this one's place (Go's `MarshalJSON`, before the bytes). */
  [toGoJSON](): unknown;
}

/** A pre-encoded JSON fragment, embedded as is (compacted), as Go's `json.RawMessage`. */
export class RawJSON {
  /** The fragment's JSON text. */
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
