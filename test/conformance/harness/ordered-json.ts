/**
 * A tiny JSON tree that keeps what the comparison needs and `JSON.parse` loses: key order
 * (integer-like keys included) and each scalar's exact token text (so `\u0008` and `\b` stay
 * distinct). Deliberately independent of src/encoding: the harness must not judge the port
 * with the port's own encoder.
 */

/** A JSON value with its key order and token text kept. */
export type JNode =
  | { readonly t: "obj"; entries: JEntry[] }
  | { readonly t: "arr"; items: JNode[] }
  | { readonly t: "lit"; raw: string };

/** One object member: the raw key token, its decoded text, and the value. */
export interface JEntry {
  rawKey: string;
  key: string;
  value: JNode;
}

/** Thrown when the text is not JSON; callers then compare the text as it is. */
export class NotJSONError extends Error {}

/** Parses JSON text into a {@link JNode}, throwing {@link NotJSONError} on bad input. */
export function parseTree(text: string): JNode {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw new NotJSONError(`not JSON at ${i}`);
  };
  const str = (): string => {
    const start = i;
    if (text[i] !== '"') fail();
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    if (i >= text.length) fail();
    i++;
    return text.slice(start, i);
  };
  const value = (): JNode => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const entries: JEntry[] = [];
      ws();
      if (text[i] === "}") {
        i++;
        return { t: "obj", entries };
      }
      for (;;) {
        ws();
        const rawKey = str();
        ws();
        if (text[i] !== ":") fail();
        i++;
        entries.push({ rawKey, key: decodeString(rawKey), value: value() });
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return { t: "obj", entries };
        }
        fail();
      }
    }
    if (c === "[") {
      i++;
      const items: JNode[] = [];
      ws();
      if (text[i] === "]") {
        i++;
        return { t: "arr", items };
      }
      for (;;) {
        items.push(value());
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return { t: "arr", items };
        }
        fail();
      }
    }
    if (c === '"') return { t: "lit", raw: str() };
    const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 400));
    if (!m) fail();
    i += m![0].length;
    return { t: "lit", raw: m![0] };
  };
  const root = value();
  ws();
  if (i !== text.length) fail();
  return root;
}

/** Parses, or returns undefined when the text is not JSON. */
export function tryParseTree(text: string): JNode | undefined {
  try {
    return parseTree(text);
  } catch (e) {
    if (e instanceof NotJSONError) return undefined;
    throw e;
  }
}

/** The decoded text of a raw string token (lone surrogates kept as they are). */
export function decodeString(raw: string): string {
  return JSON.parse(raw) as string;
}

/** Writes the tree back: compact, or indented as Go's MarshalIndent(prefix "", indent). */
export function serializeTree(node: JNode, indent = "", depth = 0): string {
  const nl = indent === "" ? "" : `\n${indent.repeat(depth + 1)}`;
  const close = indent === "" ? "" : `\n${indent.repeat(depth)}`;
  const colon = indent === "" ? ":" : ": ";
  if (node.t === "lit") return node.raw;
  if (node.t === "arr") {
    if (node.items.length === 0) return "[]";
    return `[${node.items.map((v) => nl + serializeTree(v, indent, depth + 1)).join(",")}${close}]`;
  }
  if (node.entries.length === 0) return "{}";
  const parts = node.entries.map(
    (e) => `${nl}${e.rawKey}${colon}${serializeTree(e.value, indent, depth + 1)}`,
  );
  return `{${parts.join(",")}${close}}`;
}

/** The member `key` of an object node (last one wins, as in Go's decoder). */
export function member(node: JNode | undefined, key: string): JNode | undefined {
  if (node?.t !== "obj") return undefined;
  let found: JNode | undefined;
  for (const e of node.entries) if (e.key === key) found = e.value;
  return found;
}

/** The decoded value of a string literal node, else undefined. */
export function stringValue(node: JNode | undefined): string | undefined {
  if (node?.t !== "lit" || !node.raw.startsWith('"')) return undefined;
  return decodeString(node.raw);
}

/** Compares two strings by their UTF-8 bytes, as Go sorts map keys. */
export function compareUTF8(a: string, b: string): number {
  const ab = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  return Buffer.compare(ab, bb);
}

/** Sorts every object's members by key bytes, at every level (Go's map encoding). */
export function sortKeysDeep(node: JNode): JNode {
  if (node.t === "lit") return node;
  if (node.t === "arr") return { t: "arr", items: node.items.map(sortKeysDeep) };
  const entries = node.entries.map((e) => ({ ...e, value: sortKeysDeep(e.value) }));
  entries.sort((a, b) => compareUTF8(a.key, b.key));
  return { t: "obj", entries };
}

/** Rewrites every scalar token with `f` (keys included when `keys` is set). */
export function mapTokens(node: JNode, f: (raw: string) => string, keys = true): JNode {
  if (node.t === "lit") return { t: "lit", raw: f(node.raw) };
  if (node.t === "arr") return { t: "arr", items: node.items.map((v) => mapTokens(v, f, keys)) };
  return {
    t: "obj",
    entries: node.entries.map((e) => {
      const rawKey = keys ? f(e.rawKey) : e.rawKey;
      return { rawKey, key: decodeString(rawKey), value: mapTokens(e.value, f, keys) };
    }),
  };
}
