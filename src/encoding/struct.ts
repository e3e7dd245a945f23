/**
 * Decoding JSON values into Go structs described once as a schema, with Go's rules: keys match
 * case-insensitively (an exact match preferred), unknown keys are ignored, `null` leaves a field
 * at its zero value, a wrong type is Go's `UnmarshalTypeError`. Fields are visited in document
 * order, as Go's decoder does, so the error is Go's first one.
 */

import { UnmarshalTypeError } from "../errors/go.js";
import { isJSONObject, jsonKind } from "../internal/json-kind.js";
import { setOwn } from "./parse.js";

/** How one field of a Go struct is typed. `goType` overrides the Go type named in errors. */
export type FieldSchema = (
  | { type: "string" | "bool" | "int" | "uint" | "any" | "raw" }
  | { type: "array"; items: FieldSchema }
  | { type: "map"; values: FieldSchema }
  /** `pointer`: a Go `*T`, whose null is nil (kept as null) rather than a zero struct. */
  | { type: "struct"; struct: StructSchema; goName: string; pointer?: boolean }
) & { goType?: string };

/** A Go struct: its fields by JSON key, and at the top level the Go type a type error names. */
export interface StructSchema {
  fields: Record<string, FieldSchema>;
  goType?: string;
}

/**
 * Describes a Go struct once; the returned decoder applies Go's decoding rules to a parsed JSON
 * value (a top-level `null` leaves the struct at its zero value, `{}`), throwing
 * `UnmarshalTypeError` on a wrong type. `goName` is named in field errors, `schema.goType`
 * (default `goName`) in a top-level one: Go names an anonymous struct "" in the first and by
 * its literal type in the second.
 */
export function defineStruct<T>(
  goName: string,
  schema: StructSchema,
): { decode(value: unknown): T } {
  const root: FieldSchema = { type: "struct", struct: schema, goName, goType: schema.goType };
  return {
    decode: (value) => decodeValue(value === null ? {} : value, root, { struct: goName }) as T,
  };
}

/**
 * Where a value sits: the innermost struct's Go name and the field, linked to its parent's
 * place. The dotted path is built only for an error (a result's 500k routes would otherwise
 * copy a path array per field).
 */
interface Place {
  struct: string;
  up?: Place;
  name?: string;
}

function pathOf(place: Place): string {
  const names: string[] = [];
  for (let p: Place | undefined = place; p !== undefined; p = p.up) {
    if (p.name !== undefined) names.push(p.name);
  }
  return names.reverse().join(".");
}

function decodeValue(value: unknown, schema: FieldSchema, place: Place): unknown {
  switch (schema.type) {
    case "struct":
      return decodeStruct(value, schema, place);
    case "array":
      if (!Array.isArray(value)) throw typeError(value, schema, place);
      return value.map((item) => decodeElement(item, schema.items, place));
    case "map": {
      if (!isJSONObject(value)) throw typeError(value, schema, place);
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        setOwn(out, key, decodeElement(item, schema.values, place));
      }
      return out;
    }
    case "string":
      if (typeof value !== "string") throw typeError(value, schema, place);
      return value;
    case "bool":
      if (typeof value !== "boolean") throw typeError(value, schema, place);
      return value;
    case "int":
    case "uint":
      // Go's int64 and uint64 ("-0" is no uint); a double at a bound may stand for the last one.
      if (
        typeof value !== "number" ||
        !Number.isInteger(value) ||
        (schema.type === "int"
          ? Math.abs(value) > 2 ** 63
          : value < 0 || Object.is(value, -0) || value > 2 ** 64)
      ) {
        throw typeError(value, schema, place);
      }
      // A Go integer has no negative zero: "-0" decodes to 0.
      return value === 0 ? 0 : value;
    case "any":
    case "raw":
      return value;
  }
}

function decodeStruct(
  value: unknown,
  schema: Extract<FieldSchema, { type: "struct" }>,
  place: Place,
): Record<string, unknown> {
  if (!isJSONObject(value)) throw typeError(value, schema, place);
  const { fields } = schema.struct;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const name = Object.hasOwn(fields, key) ? key : foldKey(key, fields);
    if (name === undefined) continue;
    const field = fields[name];
    if (item === null) {
      // Go: null is a no-op for values, and sets maps, slices, pointers and interfaces to nil.
      if (field.type === "raw") out[name] = null;
      else if (field.type === "array" || field.type === "map" || field.type === "any")
        delete out[name];
      continue;
    }
    out[name] = decodeValue(item, field, { struct: schema.goName, up: place, name });
  }
  return out;
}

// A null slice or map element becomes the element type's zero value, as in Go.
function decodeElement(item: unknown, schema: FieldSchema, place: Place): unknown {
  return item === null ? zeroValue(schema) : decodeValue(item, schema, place);
}

/** The zero values that are not nil (slices, maps, pointers and interfaces are: null). */
const zeroValues: Partial<Record<FieldSchema["type"], unknown>> = {
  string: "",
  bool: false,
  int: 0,
  uint: 0,
};

function zeroValue(schema: FieldSchema): unknown {
  if (schema.type === "struct") return schema.pointer ? null : {};
  return zeroValues[schema.type] ?? null;
}

function foldKey(key: string, fields: Record<string, FieldSchema>): string | undefined {
  const folded = foldASCII(key);
  if (folded === undefined) return undefined;
  return Object.keys(fields).find((name) => name.toLowerCase() === folded);
}

/** True when `key`, another key than `name`, is decoded into the field `name` (Go's folding). */
export function foldsToOtherKey(key: string, name: string): boolean {
  return key !== name && foldASCII(key) === name.toLowerCase();
}

/**
 * Case-folds a key for matching against ASCII field names as Go does: ASCII letters fold,
 * and so do the two non-ASCII runes whose simple fold is ASCII, the Kelvin sign (k) and the
 * long s (s). Any other non-ASCII rune cannot match an ASCII name.
 */
function foldASCII(key: string): string | undefined {
  let out = "";
  for (const ch of key) {
    if (ch === "\u212a") out += "k";
    else if (ch === "\u017f") out += "s";
    else if (ch.charCodeAt(0) < 0x80) out += ch.toLowerCase();
    else return undefined;
  }
  return out;
}

function typeError(value: unknown, schema: FieldSchema, place: Place): UnmarshalTypeError {
  return new UnmarshalTypeError(
    jsonKind(value, schema.type === "int" || schema.type === "uint"),
    goTypeName(schema),
    place.struct,
    pathOf(place),
  );
}

function goTypeName(schema: FieldSchema): string {
  if (schema.goType) return schema.goType;
  switch (schema.type) {
    case "any":
    case "raw":
      return "interface {}";
    case "array":
      return `[]${goTypeName(schema.items)}`;
    case "map":
      return `map[string]${goTypeName(schema.values)}`;
    case "struct":
      return schema.goName;
    default:
      // bool, int, uint, string: Go's names.
      return schema.type;
  }
}
