/**
 * Go-compatible JSON encoding.
 *
 * Plugins and the result cache are shared with Go runtimes on the same host, and upstream's
 * tests assert plugin stdin byte for byte, so this encoder writes what Go's encoding/json
 * writes: maps with keys sorted by UTF-8 bytes, structs in declaration order, HTML-safe string
 * escaping, float64 number formatting and base64 for byte slices.
 */

import { UnsupportedValueError } from "../errors.js";
import { type GoMarshaler, RawJSON, toGoJSON } from "../internal/go-marshal.js";
import { escapeChar, quoteString } from "../internal/json-string.js";

export { type GoMarshaler, RawJSON, toGoJSON } from "../internal/go-marshal.js";
export { quoteString } from "../internal/json-string.js";

const structMarker = Symbol("libcni.goStruct");

/**
 * Marks a plain object as a Go struct: its keys are written in insertion order (Go's field
 * order) instead of sorted. Apply `omitempty` by leaving keys out or setting them `undefined`.
 */
export function goStruct<T extends object>(fields: T): T {
  Object.defineProperty(fields, structMarker, { value: true, enumerable: false });
  return fields;
}

function isGoStruct(value: object): boolean {
  return (value as { [structMarker]?: boolean })[structMarker] === true;
}

function hasMarshaler(value: object): value is GoMarshaler {
  return typeof (value as Partial<GoMarshaler>)[toGoJSON] === "function";
}

/** Go's `json.Marshal`: compact, map keys sorted by UTF-8 bytes, HTML-safe escaping. */
export function marshal(value: unknown): string {
  const out: string[] = [];
  encodeValue(value, out, new Set());
  return out.join("");
}

/** Go's `json.MarshalIndent`: `marshal`, then `indent` with the given prefix and indent. */
export function marshalIndent(value: unknown, prefix = "", indentText = "    "): string {
  return indent(marshal(value), prefix, indentText);
}

function encodeValue(value: unknown, out: string[], seen: Set<object>): void {
  switch (typeof value) {
    case "string":
      out.push(quoteString(value));
      return;
    case "number":
      out.push(formatNumber(value));
      return;
    case "boolean":
      out.push(value ? "true" : "false");
      return;
    case "bigint":
      out.push(value.toString());
      return;
    case "undefined":
      out.push("null");
      return;
    case "object":
      break;
    default:
      throw new UnsupportedValueError(`json: unsupported type: ${typeof value}`);
  }
  if (value === null) {
    out.push("null");
    return;
  }
  if (seen.has(value)) {
    throw new UnsupportedValueError("json: unsupported value: encountered a cycle");
  }
  seen.add(value);
  try {
    encodeObject(value, out, seen);
  } finally {
    seen.delete(value);
  }
}

function encodeObject(value: object, out: string[], seen: Set<object>): void {
  if (hasMarshaler(value)) {
    encodeValue(value[toGoJSON](), out, seen);
  } else if (value instanceof RawJSON) {
    out.push(compact(value.text));
  } else if (value instanceof Uint8Array) {
    out.push(
      `"${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("base64")}"`,
    );
  } else if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      encodeValue(value[i], out, seen);
    }
    out.push("]");
  } else if (value instanceof Map) {
    encodeEntries(sortEntries([...value.entries()].map(([k, v]) => [String(k), v])), out, seen);
  } else {
    const entries = Object.entries(value);
    encodeEntries(isGoStruct(value) ? entries : sortEntries(entries), out, seen);
  }
}

function encodeEntries(entries: [string, unknown][], out: string[], seen: Set<object>): void {
  out.push("{");
  let first = true;
  for (const [key, item] of entries) {
    if (item === undefined) continue;
    if (!first) out.push(",");
    first = false;
    out.push(quoteString(key), ":");
    encodeValue(item, out, seen);
  }
  out.push("}");
}

function sortEntries(entries: [string, unknown][]): [string, unknown][] {
  return entries.sort((a, b) => compareUTF8(a[0], b[0]));
}

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
 * Formats a float64 as Go's encoder: the shortest representation that round-trips, in
 * exponent form below 1e-6 and from 1e21 (the same thresholds as JavaScript), with Go's
 * two-digit exponent trimmed to one ("1e-7", not "1e-07"), and negative zero kept.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) {
    throw new UnsupportedValueError(`json: unsupported value: ${goFloatName(n)}`);
  }
  if (Object.is(n, -0)) return "-0";
  return String(n);
}

function goFloatName(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  return n > 0 ? "+Inf" : "-Inf";
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

/**
 * Go's `json.Indent` over compact JSON: one element per line, nested by `indentText`, each new
 * line starting with `prefix`; empty objects and arrays stay `{}` and `[]`.
 */
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
