/**
 * Helpers of the result decoders: upstream's IPConfig and Route have their own `UnmarshalJSON`,
 * a nested `json.Unmarshal` whose type errors Go re-labels with the outer field.
 */
import { UnmarshalTypeError } from "../errors/go.js";
import { jsonKind } from "../internal/json-kind.js";
import { type IPNet, parseCIDR, zeroIPNet } from "./cidr.js";
import { ipUnmarshalText } from "./ip.js";

/** Runs a nested decode and re-labels a type error with the outer struct and field. */
export function inField<T>(struct: string, field: string, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof UnmarshalTypeError) {
      throw new UnmarshalTypeError(error.value, error.goType, struct, field);
    }
    throw error;
  }
}

/**
 * Upstream `types.IPNet.UnmarshalJSON` for a field: absent is Go's zero value; `null` is the
 * empty string, which fails to parse; a non-string is a type error against `string`.
 */
export function decodeIPNet(raw: unknown, struct: string, field: string): IPNet {
  if (raw === undefined) return zeroIPNet();
  if (raw === null) return parseCIDR("");
  if (typeof raw !== "string") throw new UnmarshalTypeError(jsonKind(raw), "string", struct, field);
  return parseCIDR(raw);
}

/** `net.IP` from an already type-checked optional string field: absent or "" is nil. */
export function decodeIP(raw: unknown): Uint8Array | undefined {
  if (typeof raw !== "string") return undefined;
  const ip = ipUnmarshalText(raw);
  return ip.length === 0 ? undefined : ip;
}

/**
 * The decoder of an entry of a list of Go pointers with their own `UnmarshalJSON`. A `null`
 * (a nil pointer, on which upstream's converters panic) is rejected.
 */
export function listItemDecoder<T>(
  field: string,
  goType: string,
  decode: (value: unknown) => T,
): (item: unknown) => T {
  return (item) => {
    if (item === null) throw new UnmarshalTypeError("null", goType, "Result", field);
    return inField("Result", field, () => decode(item));
  };
}
