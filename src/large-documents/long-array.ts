/**
 * Parsing a large document (a result near the 16 MiB output cap, the cache record holding it)
 * without one JavaScript object per entry of its long lists: `JSON.parse` of hundreds of
 * thousands of routes takes several times the text's bytes and one uninterruptible stall. The
 * top levels are parsed as usual; each long array of objects is kept as its source bytes plus
 * each entry's byte range, an entry parsed only when it is read.
 *
 * Only what it reads exactly as `parseJSON` takes this path: any surprise (a syntax error, a
 * number beyond float64's range, deep nesting) gives `undefined`, and the caller parses the
 * whole document for Go's error. Every entry is parsed once here (and dropped), so a document
 * this accepts is one `parseJSON` accepts.
 */
import { isSpace, parseJSON, setOwn } from "../encoding/parse.js";
import { utf8Decode } from "../internal/bytes.js";
import { attempt } from "../internal/error-message.js";
import { Slices } from "./slices.js";

/** An array kept as text: this many entries at least (a shorter one is parsed as usual). */
export const longArrayMinLength = 1024;

/** Deeper than this inside an entry, the whole document takes `parseJSON` (Go's depth rule). */
const maxEntryDepth = 512;

/** `bytes[start, end)` as text: latin1 when ASCII (the common case, no decoder call), else UTF-8. */
function decodeRange(source: Buffer, start: number, end: number, ascii: boolean): string {
  return ascii ? source.toString("latin1", start, end) : utf8Decode(source.subarray(start, end));
}

/** A long JSON array of objects, kept as its source bytes and the byte range of each entry. */
export class LongJSONArray {
  /** @internal */
  constructor(
    private readonly source: Buffer,
    /** start, end (exclusive) of entry i at 2i, 2i+1; the high bit of start marks non-ASCII. */
    private readonly bounds: Uint32Array,
  ) {}

  /** The number of entries. */
  get length(): number {
    return this.bounds.length / 2;
  }

  /** Entry `i` parsed as `parseJSON` parses it inside the document (a fresh value per call). */
  parse(i: number): unknown {
    const start = this.bounds[2 * i];
    const ascii = (start & nonAsciiBit) === 0;
    return parseJSON(decodeRange(this.source, start & ~nonAsciiBit, this.bounds[2 * i + 1], ascii));
  }

  /** Every entry parsed: what `parseJSON` of the whole document holds in this array's place. */
  materialize(): unknown[] {
    const out = new Array<unknown>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.parse(i);
    return out;
  }
}

// Offsets fit in 31 bits: documents here are under 16 MiB (and the caller checks 2 GiB).
const nonAsciiBit = 0x8000_0000;

/** Thrown inside the parser to leave the fast path; never leaves this module. */
const giveUp = Symbol("not for the fast path");

/** A growable list of entry bounds. */
class Bounds {
  private data = new Uint32Array(2048);
  length = 0;
  push(start: number, end: number): void {
    if (this.length + 2 > this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = start;
    this.data[this.length++] = end;
  }
  done(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

class Parser {
  pos = 0;
  private readonly slices = new Slices();
  // Set by the last `skipValue`: the value held a byte >= 0x80.
  private nonAscii = false;

  constructor(
    private readonly b: Buffer,
    private readonly kept: readonly (readonly string[])[],
    private readonly minLength: number,
  ) {}

  private isKept(path: readonly string[]): boolean {
    return this.kept.some((p) => p.length === path.length && p.every((k, i) => k === path[i]));
  }

  private leadsToKept(path: readonly string[]): boolean {
    return this.kept.some((p) => p.length > path.length && path.every((k, i) => k === p[i]));
  }

  private skipSpace(): void {
    while (this.pos < this.b.length && isSpace(this.b[this.pos])) this.pos++;
  }

  private expect(c: number): void {
    if (this.b[this.pos] !== c) throw giveUp;
    this.pos++;
  }

  /** From an opening quote to just past the closing one. */
  private skipString(): void {
    const b = this.b;
    let i = this.pos + 1;
    for (;;) {
      if (i >= b.length) throw giveUp;
      const c = b[i];
      if (c === 0x22) break;
      if (c === 0x5c) i++;
      else if (c >= 0x80) this.nonAscii = true;
      i++;
    }
    this.pos = i + 1;
  }

  /**
   * Past one value, without parsing it; its bytes are parsed by the caller. Brackets are
   * counted, not matched (the parse of the slice checks them).
   */
  private skipValue(): void {
    const b = this.b;
    this.nonAscii = false;
    let depth = 0;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c === 0x22) {
        this.skipString();
        if (depth === 0) return;
        continue;
      }
      if (c === 0x7b || c === 0x5b) {
        if (++depth > maxEntryDepth) throw giveUp;
      } else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) return; // the enclosing container's end: a scalar ends here
        if (--depth === 0) {
          this.pos++;
          return;
        }
      } else if (depth === 0 && (c === 0x2c || isSpace(c))) {
        return;
      } else if (c >= 0x80) {
        this.nonAscii = true;
      }
      this.pos++;
    }
    if (depth !== 0) throw giveUp;
  }

  /**
   * The value from `start` to here, parsed. A number beyond float64's range gives up: which
   * one Go names first is for the parse of the whole document to say.
   */
  private parsed(start: number): unknown {
    const text = decodeRange(this.b, start, this.pos, !this.nonAscii);
    const value = attempt(() => parseJSON(text));
    if (value === undefined || (typeof value === "number" && !Number.isFinite(value))) throw giveUp;
    return value;
  }

  /** An object at `path`: a member on the way to a kept array is read here, others parsed whole. */
  async object(path: readonly string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    this.expect(0x7b);
    this.skipSpace();
    if (this.b[this.pos] === 0x7d) {
      this.pos++;
      return out;
    }
    for (;;) {
      this.skipSpace();
      if (this.b[this.pos] !== 0x22) throw giveUp;
      const keyStart = this.pos;
      this.nonAscii = false;
      this.skipString();
      const key = this.parsed(keyStart) as string;
      this.skipSpace();
      this.expect(0x3a);
      this.skipSpace();
      setOwn(out, key, await this.member([...path, key]));
      this.skipSpace();
      const c = this.b[this.pos++];
      if (c === 0x7d) return out;
      if (c !== 0x2c) throw giveUp;
    }
  }

  private async member(path: readonly string[]): Promise<unknown> {
    const c = this.b[this.pos];
    if (c === 0x7b && this.leadsToKept(path)) return this.object(path);
    if (c === 0x5b && this.isKept(path)) return this.array();
    const start = this.pos;
    this.skipValue();
    return this.parsed(start);
  }

  /** An array: kept as text when long and of objects only, else parsed. */
  private async array(): Promise<unknown> {
    const open = this.pos;
    this.pos++;
    const bounds = new Bounds();
    let objects = true;
    this.skipSpace();
    if (this.b[this.pos] === 0x5d) {
      this.pos++;
      return [];
    }
    for (;;) {
      this.skipSpace();
      const start = this.pos;
      if (this.b[start] !== 0x7b) objects = false;
      this.skipValue();
      // Each entry is parsed once now, so that a syntax error is found where Go finds it.
      this.parsed(start);
      bounds.push(this.nonAscii ? (start | nonAsciiBit) >>> 0 : start, this.pos);
      if ((bounds.length & 2047) === 0) await this.slices.pauseIfDue();
      this.skipSpace();
      const c = this.b[this.pos++];
      if (c === 0x5d) break;
      if (c !== 0x2c) throw giveUp;
    }
    if (objects && bounds.length / 2 >= this.minLength) {
      return new LongJSONArray(this.b, bounds.done());
    }
    this.nonAscii = true; // unknown for the whole slice: decode it as UTF-8
    return this.parsed(open);
  }

  end(): void {
    this.skipSpace();
    if (this.pos !== this.b.length) throw giveUp;
  }
}

/** Where a long array may be kept: a path of exact keys from the top-level object. */
export type LongArrayPath = readonly string[];

/**
 * `bytes` (a JSON object) parsed with each long array of objects at one of `paths` kept as a
 * {@link LongJSONArray}; everything else is what `parseJSON` gives. Yields to the event loop
 * every few milliseconds of work. Undefined when the document is not for this path (not an
 * object, invalid, a number of doubtful range, deep nesting): parse it with `parseJSON`.
 */
export async function parseKeepingLongArrays(
  bytes: Uint8Array,
  paths: readonly LongArrayPath[],
  minLength = longArrayMinLength,
): Promise<Record<string, unknown> | undefined> {
  if (bytes.length >= nonAsciiBit) return undefined;
  const b = Buffer.isBuffer(bytes)
    ? bytes
    : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const parser = new Parser(b, paths, minLength);
  try {
    while (parser.pos < b.length && isSpace(b[parser.pos])) parser.pos++;
    if (b[parser.pos] !== 0x7b) return undefined;
    const value = await parser.object([]);
    parser.end();
    return value;
  } catch (error) {
    if (error === giveUp) return undefined;
    throw error;
  }
}

/** Each {@link LongJSONArray} of `value` at one of `paths`, with its path. */
export function longArraysOf(
  value: unknown,
  paths: readonly LongArrayPath[],
): { path: LongArrayPath; array: LongJSONArray }[] {
  const found: { path: LongArrayPath; array: LongJSONArray }[] = [];
  for (const path of paths) {
    let item: unknown = value;
    for (const key of path) {
      if (typeof item !== "object" || item === null || !Object.hasOwn(item, key)) {
        item = undefined;
        break;
      }
      item = (item as Record<string, unknown>)[key];
    }
    if (item instanceof LongJSONArray) found.push({ path, array: item });
  }
  return found;
}

/**
 * Replaces, in place, each {@link LongJSONArray} at one of `paths` with its entries parsed:
 * `value` becomes what `parseJSON` of the whole document gives.
 */
export function materializeLongArrays(value: unknown, paths: readonly LongArrayPath[]): void {
  for (const { path, array } of longArraysOf(value, paths)) {
    let parent = value as Record<string, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
    parent[path[path.length - 1]] = array.materialize();
  }
}
