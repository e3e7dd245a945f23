/**
 * Decoding JSON values into Go structs, with Go's rules: keys match case-insensitively (an
 * exact match preferred, the last duplicate winning), unknown keys are ignored, `null` leaves a
 * field at its zero value, and a value of the wrong type is an error that names the field as
 * Go's `UnmarshalTypeError` does. Each struct is described once; its JSON Schema is compiled
 * with ajv on first use and validates the key-folded value.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

/** How one field of a Go struct is typed. `goType` overrides the Go type named in errors. */
export type FieldSchema = (
  | { type: "string" | "bool" | "int" | "uint" | "float" | "any" | "raw" }
  | { type: "array"; items: FieldSchema }
  | { type: "map"; values: FieldSchema }
  | { type: "struct"; struct: StructSchema; goName: string }
) & { goType?: string };

/** A Go struct: its fields by JSON key. */
export interface StructSchema {
  fields: Record<string, FieldSchema>;
}

/** A decoder for one struct type, built once by `defineStruct`. */
export interface StructDecoder<T> {
  /** The Go type name used in error messages. */
  readonly goName: string;
  /** Decodes a parsed JSON value, throwing `UnmarshalTypeError` on a wrong type. */
  decode(value: unknown): T;
}

/** Go's `json.UnmarshalTypeError`, with its message. */
export class UnmarshalTypeError extends Error {
  /** The JSON value's kind, as Go names it ("string", "number 1.5", ...). */
  readonly value: string;
  /** The Go type it could not be stored in. */
  readonly goType: string;
  /** The dotted field path from the root struct ("" at the top level). */
  readonly field: string;
  constructor(value: string, goType: string, struct: string, field: string) {
    super(
      field === ""
        ? `json: cannot unmarshal ${value} into Go value of type ${goType}`
        : `json: cannot unmarshal ${value} into Go struct field ${bareName(struct)}.${field} of type ${goType}`,
    );
    this.name = "UnmarshalTypeError";
    this.value = value;
    this.goType = goType;
    this.field = field;
  }
}

// Go names the struct without its package ("PluginConf"), and the type with it ("types.IPAM").
function bareName(goName: string): string {
  return goName.slice(goName.lastIndexOf(".") + 1);
}

let ajv: Ajv | undefined;

/** Describes a Go struct once; the returned decoder applies Go's decoding rules. */
export function defineStruct<T>(goName: string, schema: StructSchema): StructDecoder<T> {
  const root: FieldSchema = { type: "struct", struct: schema, goName };
  let validate: ValidateFunction | undefined;
  return {
    goName,
    decode(value: unknown): T {
      const folded = fold(value, root);
      ajv ??= new Ajv({ allErrors: false, strict: true });
      validate ??= ajv.compile(toJSONSchema(root));
      if (!validate(folded)) {
        throw toTypeError(validate.errors?.[0], folded, root, goName);
      }
      return folded as T;
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Rewrites struct keys to their canonical JSON names, drops unknown keys and null fields. */
function fold(value: unknown, schema: FieldSchema): unknown {
  switch (schema.type) {
    case "struct": {
      if (!isObject(value)) return value;
      const { fields } = schema.struct;
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const name = Object.hasOwn(fields, key) ? key : foldKey(key, fields);
        if (name === undefined) continue;
        const field = fields[name];
        if (item === null && field.type !== "raw") {
          // Go: null is a no-op for values, and sets maps, slices and interfaces to nil.
          if (field.type === "array" || field.type === "map" || field.type === "any")
            delete out[name];
          continue;
        }
        out[name] = fold(item, field);
      }
      return out;
    }
    case "array":
      return Array.isArray(value) ? value.map((item) => foldElement(item, schema.items)) : value;
    case "map":
      if (!isObject(value)) return value;
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, foldElement(v, schema.values)]),
      );
    case "int":
    case "uint":
      // A Go integer has no negative zero: "-0" decodes to 0.
      return Object.is(value, -0) ? 0 : value;
    default:
      return value;
  }
}

// A null slice or map element becomes the element type's zero value, as in Go.
function foldElement(value: unknown, schema: FieldSchema): unknown {
  return value === null ? zeroValue(schema) : fold(value, schema);
}

function zeroValue(schema: FieldSchema): unknown {
  switch (schema.type) {
    case "string":
      return "";
    case "bool":
      return false;
    case "int":
    case "uint":
    case "float":
      return 0;
    default:
      // Slices, maps, interfaces and (pointers to) structs: null stays null. For a struct the
      // decoder then rejects it, where Go would store a nil pointer that callers dereference.
      return null;
  }
}

function foldKey(key: string, fields: Record<string, FieldSchema>): string | undefined {
  const folded = foldASCII(key);
  if (folded === undefined) return undefined;
  for (const name of Object.keys(fields)) {
    if (name.toLowerCase() === folded) return name;
  }
  return undefined;
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

type JSONSchema = Record<string, unknown>;

function toJSONSchema(schema: FieldSchema): JSONSchema {
  switch (schema.type) {
    case "string":
      return { type: "string" };
    case "bool":
      return { type: "boolean" };
    case "int":
      return { type: "integer" };
    case "uint":
      return { type: "integer", minimum: 0 };
    case "float":
      return { type: "number" };
    case "any":
    case "raw":
      return {};
    case "array":
      return { type: "array", items: toJSONSchema(schema.items) };
    case "map":
      return { type: "object", additionalProperties: toJSONSchema(schema.values) };
    case "struct":
      return {
        type: "object",
        properties: Object.fromEntries(
          Object.entries(schema.struct.fields).map(([k, f]) => [k, toJSONSchema(f)]),
        ),
      };
  }
}

function goTypeName(schema: FieldSchema): string {
  if (schema.goType) return schema.goType;
  switch (schema.type) {
    case "bool":
    case "int":
    case "uint":
    case "string":
      return schema.type;
    case "float":
      return "float64";
    case "any":
    case "raw":
      return "interface {}";
    case "array":
      return `[]${goTypeName(schema.items)}`;
    case "map":
      return `map[string]${goTypeName(schema.values)}`;
    case "struct":
      return schema.goName;
  }
}

function jsonKind(value: unknown, schema: FieldSchema): string {
  if (typeof value === "number") {
    return schema.type === "int" || schema.type === "uint" ? `number ${value}` : "number";
  }
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value === "object" ? "object" : "string";
}

/** Walks the schema along ajv's instance path to name the field and struct as Go does. */
function toTypeError(
  error: ErrorObject | undefined,
  data: unknown,
  root: FieldSchema,
  goName: string,
): UnmarshalTypeError {
  const segments = (error?.instancePath ?? "")
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  let schema = root;
  let value = data;
  let struct = goName;
  const fieldPath: string[] = [];
  for (const segment of segments) {
    value = (value as Record<string, unknown>)[segment];
    if (schema.type === "struct") {
      struct = schema.goName;
      fieldPath.push(segment);
      schema = schema.struct.fields[segment];
    } else if (schema.type === "array") {
      schema = schema.items;
    } else if (schema.type === "map") {
      schema = schema.values;
    }
  }
  return new UnmarshalTypeError(
    jsonKind(value, schema),
    goTypeName(schema),
    struct,
    fieldPath.join("."),
  );
}
