/**
 * Go-compatible JSON encoding: plugins and the result cache are shared with Go runtimes, and
 * upstream's tests assert plugin stdin byte for byte, so this writes what Go's encoding/json
 * writes (map keys sorted by UTF-8 bytes, structs in field order, HTML-safe escaping, float64
 * formatting, base64 for byte slices).
 */

import { UnsupportedValueError } from "../errors/go.js";
import { goJSONText, hasGoJSONText } from "../internal/go-json-text.js";
import { type GoMarshaler, RawJSON, toGoJSON } from "../internal/go-marshal.js";
import { escapeChar, quoteString } from "../internal/json-string.js";

export { type GoMarshaler, RawJSON, toGoJSON } from "../internal/go-marshal.js";
export { quoteString } from "../internal/json-string.js";

import { parseJSON } from "./parse.js";

const structMarker = Symbol("libcni.goStruct");

/**
 * JSON text this encoder wrote (compact, escaped, its keys in their final order): embedded as
 * is, without the scan a {@link RawJSON} gets, so a large fragment costs one copy.
 */
export class EncodedJSON extends RawJSON {}

/**
 * Marks a plain object as a Go struct: its keys are written in insertion order (Go's field
 * order) instead of sorted. Apply `omitempty` by leaving keys out or setting them `undefined`.
 */
export function goStruct<T extends object>(fields: T): T {
  Object.defineProperty(fields, structMarker, { value: true, enumerable: false });
  return fields;
}

/** Go's `json.Marshal`: compact, map keys sorted by UTF-8 bytes, HTML-safe escaping. */
export function marshal(value: unknown): string {
  return encode(value, false);
}

/**
 * What Go writes for the value marshalled, decoded into an `interface{}` and marshalled again
 * (upstream's cache record does that to its result), in one pass.
 */
export function marshalAsMap(value: unknown): string {
  return encode(value, true);
}

/** Go's `json.MarshalIndent`: `marshal`, then `indent` with the given prefix and indent. */
export function marshalIndent(value: unknown, prefix = "", indentText = "    "): string {
  return indent(marshal(value), prefix, indentText);
}

/**
 * A container being written. The encoder keeps these on its own stack rather than recursing,
 * so a value nested 10,000 levels deep (what Go's decoder accepts) encodes as any other.
 */
interface Frame {
  /** An array's elements, or undefined for an object. */
  items: readonly unknown[] | undefined;
  /** An object's entries, in the order they are written. */
  entries: [string, unknown][];
  next: number;
  /** True once a member was written (undefined entries are skipped). */
  wrote: boolean;
  /** The objects that leave the cycle check once this container is written. */
  owners: object[];
}

const noEntries: [string, unknown][] = [];

/** A scalar's text; undefined for an object or null (handled by the caller). */
function scalarText(value: unknown, asMap: boolean): string | undefined {
  switch (typeof value) {
    case "string":
      return quoteString(value);
    case "number":
      return formatNumber(value);
    case "boolean":
      return value ? "true" : "false";
    case "bigint":
      // Through interface{}, a 64-bit integer comes back as a float64.
      return asMap ? formatNumber(Number(value)) : value.toString();
    case "undefined":
      return "null";
    case "object":
      return value === null ? "null" : undefined;
    default:
      throw new UnsupportedValueError(`json: unsupported type: ${typeof value}`);
  }
}

function encode(root: unknown, asMap: boolean): string {
  let out = "";
  const seen = new Set<object>();
  const stack: Frame[] = [];
  const release = (owners: object[]): void => {
    for (const owner of owners) seen.delete(owner);
  };
  let value = root;
  for (;;) {
    // Write `value`: a scalar or leaf at once, a container by opening a frame.
    const owners: object[] = [];
    let text = scalarText(value, asMap);
    while (text === undefined) {
      const object = value as object;
      if (seen.has(object)) {
        throw new UnsupportedValueError("json: unsupported value: encountered a cycle");
      }
      seen.add(object);
      owners.push(object);
      if (hasGoJSONText(object)) {
        text = object[goJSONText](asMap);
        if (text !== undefined) break;
      }
      const marshaler = (object as Partial<GoMarshaler>)[toGoJSON];
      if (typeof marshaler !== "function") break;
      value = marshaler.call(object);
      text = scalarText(value, asMap);
    }
    if (text === undefined) {
      const object = value as object;
      if (object instanceof RawJSON) {
        if (asMap) text = encode(parseJSON(object.text), true);
        else text = object instanceof EncodedJSON ? object.text : compact(object.text);
      } else if (object instanceof Uint8Array) {
        text = `"${Buffer.from(object.buffer, object.byteOffset, object.byteLength).toString("base64")}"`;
      } else if (Array.isArray(object)) {
        out += "[";
        stack.push({ items: object, entries: noEntries, next: 0, wrote: false, owners });
      } else {
        const map = object instanceof Map;
        const entries: [string, unknown][] = map
          ? [...object.entries()].map(([k, v]) => [String(k), v])
          : Object.entries(object);
        if (map || asMap || !(structMarker in object)) entries.sort(byKey);
        out += "{";
        stack.push({ items: undefined, entries, next: 0, wrote: false, owners });
      }
    }
    if (text !== undefined) {
      out += text;
      release(owners);
    }
    // Find the next value to write, closing the containers that are done.
    let found = false;
    while (!found && stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.items !== undefined) {
        if (frame.next < frame.items.length) {
          if (frame.next > 0) out += ",";
          value = frame.items[frame.next++];
          found = true;
          continue;
        }
        out += "]";
      } else {
        const { entries } = frame;
        while (frame.next < entries.length && entries[frame.next][1] === undefined) frame.next++;
        if (frame.next < entries.length) {
          const [key, item] = entries[frame.next++];
          out += `${frame.wrote ? "," : ""}${quoteString(key)}:`;
          frame.wrote = true;
          value = item;
          found = true;
          continue;
        }
        out += "}";
      }
      stack.pop();
      release(frame.owners);
    }
    if (!found) return out;
  }
}

const byKey = (a: [string, unknown], b: [string, unknown]) => compareUTF8(a[0], b[0]);

/**
 * Orders strings by their UTF-8 bytes, as Go sorts map keys. UTF-16 order differs only where
 * a surrogate (half of an astral character, four UTF-8 bytes from 0xF0) meets a code unit in
 * U+E000..U+FFFF (three bytes up to 0xEF): there the surrogate sorts last.
 */
export function compareUTF8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      const xSurrogate = x <= 0xdfff;
      if (xSurrogate !== y <= 0xdfff) return xSurrogate ? 1 : -1;
    }
    return x - y;
  }
  return a.length - b.length;
}

/**
 * Formats a float64 as Go's encoder: the shortest round-trip form, exponents below 1e-6 and from
 * 1e21 as JavaScript's ("1e-7", where Go's strconv would write "1e-07"), `-0` kept.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) {
    const name = Number.isNaN(n) ? "NaN" : n > 0 ? "+Inf" : "-Inf";
    throw new UnsupportedValueError(`json: unsupported value: ${name}`);
  }
  if (Object.is(n, -0)) return "-0";
  return String(n);
}

/**
 * Go's `json.Compact` with HTML escaping, as applied to a `json.RawMessage`: whitespace outside
 * strings removed, `<` `>` `&` U+2028 U+2029 inside strings escaped. The input must be valid JSON.
 */
export function compact(text: string): string {
  let out = "";
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") {
        out += ch + text[i + 1];
        i++;
        continue;
      }
      if (ch === '"') inString = false;
      const c = ch.charCodeAt(0);
      out +=
        c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029 ? escapeChar(c) : ch;
      continue;
    }
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") continue;
    if (ch === '"') inString = true;
    out += ch;
  }
  return out;
}

/** Go's `json.Indent` over compact JSON; empty objects and arrays stay `{}` and `[]`. */
export function indent(compactText: string, prefix: string, indentText: string): string {
  let out = "";
  let depth = 0;
  let inString = false;
  const newline = (): string => `\n${prefix}${indentText.repeat(depth)}`;
  for (let i = 0; i < compactText.length; i++) {
    const ch = compactText[i];
    if (inString) {
      out += ch;
      if (ch === "\\") {
        out += compactText[i + 1];
        i++;
      } else if (ch === '"') {
        inString = false;
      }
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        out += ch;
        break;
      case "{":
      case "[": {
        const close = ch === "{" ? "}" : "]";
        if (compactText[i + 1] === close) {
          out += ch + close;
          i++;
        } else {
          depth++;
          out += ch + newline();
        }
        break;
      }
      case "}":
      case "]":
        depth--;
        out += newline() + ch;
        break;
      case ",":
        out += ch + newline();
        break;
      case ":":
        out += ": ";
        break;
      default:
        out += ch;
    }
  }
  return out;
}
