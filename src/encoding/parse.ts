/**
 * JSON decoding with Go's semantics: invalid UTF-8 becomes U+FFFD, nesting is limited to Go's
 * 10,000 levels, and a syntax error carries the text Go's scanner gives for it, since
 * upstream's error messages embed that text.
 */

import { JSONSyntaxError, UnmarshalTypeError } from "../errors/go.js";
import { toBytes, utf8Decode } from "../internal/bytes.js";
import { attempt } from "../internal/error-message.js";
import { goQuoteRune } from "../internal/go-quote.js";

/** Go's limit on nesting depth in encoding/json. */
export const maxNestingDepth = 10_000;

/**
 * Parses JSON text or UTF-8 bytes as Go's `json.Unmarshal` into an `interface{}`. Throws
 * `JSONSyntaxError`, or `UnmarshalTypeError` for a number beyond float64's range.
 */
export function parseJSON(input: string | Uint8Array): unknown {
  const text = typeof input === "string" ? input : utf8Decode(input);
  // Only a text this long can be nested past Go's limit; a plain count decides whether the
  // Go-exact scanner (slower) must name the error.
  if (text.length > maxNestingDepth && nestsTooDeep(text)) {
    const error = checkValid(toBytes(input));
    if (error) throw error;
  }
  const value: unknown = attempt(() => JSON.parse(text));
  if (value === undefined)
    throw checkValid(toBytes(input)) ?? new JSONSyntaxError("invalid JSON", 0);
  // Both checks below are rare cases; a cheap look at the text spares the walk otherwise.
  // A bare top-level number is left to the caller, whose type check Go applies first.
  if (typeof value === "object" && mayOverflow.test(text)) rejectOverflow(text);
  return loneSurrogateEscape.test(text) ? replaceLoneSurrogates(value) : value;
}

// Past float64's range a number needs 309 integer digits, less its exponent: an exponent of
// 100 or more, or (exponents below 100) a run of 210 digits, is worth a look.
const mayOverflow = /[eE]\+?0*[1-9]\d\d|\d{210}/;
// Strings are matched too, so that a number's text inside one (or in a key) is not taken.
const stringOrNumber = /"[^"\\]*(?:\\.[^"\\]*)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
// The texts of numbers that may be past the range, wherever they are (strings too).
const bigLiteral = /\d+(?:\.\d+)?[eE][+-]?\d+|\d{210,}(?:\.\d+)?/g;

/** The first match of the global `pattern` in `text` that `keep` holds for. */
function firstMatch(text: string, pattern: RegExp, keep: (match: string) => boolean) {
  for (const [match] of text.matchAll(pattern)) if (keep(match)) return match;
  return undefined;
}

/**
 * Go cannot store a number beyond float64's range: `cannot unmarshal number 1e400 ...`. Read
 * from the text, not the value: a later duplicate key hides a number from JSON.parse, not from
 * Go's decoder. Such a text is rare, and only then are strings told apart from numbers.
 */
function rejectOverflow(text: string): void {
  const infinite = (t: string) => t[0] !== '"' && !Number.isFinite(Number(t));
  if (firstMatch(text, bigLiteral, infinite) === undefined) return;
  const literal = firstMatch(text, stringOrNumber, infinite);
  if (literal !== undefined) throw new UnmarshalTypeError(`number ${literal}`, "float64", "", "");
}

// The walk below keeps its own stack: a value may nest 10,000 levels deep (Go's limit), deeper
// than the call stack allows a recursive walk.

const loneSurrogateEscape = /\\u[dD][89a-fA-F]/;
const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const fixString = (s: string): string => s.replace(loneSurrogate, "\ufffd");

/** Sets `target[key]` as an own data property, so that a key "__proto__" stays a key. */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * An object's keys fixed: the same object when none holds a lone surrogate, else a copy in
 * the same order (two keys that become equal keep the last value, as Go's map does).
 */
function fixKeys(value: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(value);
  if (keys.every((k) => fixString(k) === k)) return value;
  const out: Record<string, unknown> = {};
  for (const k of keys) setOwn(out, fixString(k), value[k]);
  return out;
}

/**
 * Go decodes an escaped lone surrogate (`"\ud800"`) as U+FFFD; V8 keeps it. The value is what
 * JSON.parse just made (no cycles, shared by nobody), so it is fixed in place.
 */
function replaceLoneSurrogates(root: unknown): unknown {
  if (typeof root === "string") return fixString(root);
  if (typeof root !== "object" || root === null) return root;
  const top = Array.isArray(root) ? root : fixKeys(root as Record<string, unknown>);
  const stack: (unknown[] | Record<string, unknown>)[] = [top];
  while (stack.length > 0) {
    const container = stack.pop() as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const item = container[key];
      if (typeof item === "string") {
        const fixed = fixString(item);
        if (fixed !== item) container[key] = fixed;
      } else if (typeof item === "object" && item !== null) {
        const fixed = Array.isArray(item) ? item : fixKeys(item as Record<string, unknown>);
        if (fixed !== item) container[key] = fixed;
        stack.push(fixed as Record<string, unknown>);
      }
    }
  }
  return top;
}

/** True when brackets outside strings nest deeper than Go allows. */
function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxNestingDepth) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** Go's syntax error for the bytes, or undefined when they are valid JSON. */
export function checkValid(bytes: Uint8Array): JSONSyntaxError | undefined {
  return new Scanner(bytes).run();
}

enum Ctx {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

export const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean =>
  isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

const spaceEndsInside =
  /^(in literal|in numeric|after decimal|in exponent|in string escape|in \\u)/;

/** A recursive-free port of the error paths of Go's encoding/json scanner. */
class Scanner {
  private pos = 0;
  private readonly stack: Ctx[] = [];

  constructor(private readonly b: Uint8Array) {}

  run(): JSONSyntaxError | undefined {
    try {
      this.value();
      for (;;) {
        this.skipSpace();
        if (this.stack.length === 0) {
          if (this.pos >= this.b.length) return undefined;
          this.fail("after top-level value");
        }
        if (this.afterValue()) this.value();
      }
    } catch (e) {
      if (e instanceof JSONSyntaxError) return e;
      throw e;
    }
  }

  private fail(context: string): never {
    if (this.pos >= this.b.length) {
      // Go feeds a space at the end of input: inside a literal, a number or an escape that
      // space is the invalid character; anywhere else the input just ended too soon.
      if (!spaceEndsInside.test(context)) {
        throw new JSONSyntaxError("unexpected end of JSON input", this.b.length);
      }
      throw new JSONSyntaxError(`invalid character ' ' ${context}`, this.b.length);
    }
    const c = this.b[this.pos];
    throw new JSONSyntaxError(`invalid character ${goQuoteRune(c)} ${context}`, this.pos + 1);
  }

  private peek(): number {
    return this.pos < this.b.length ? this.b[this.pos] : -1;
  }

  private skipSpace(): void {
    while (this.pos < this.b.length && isSpace(this.b[this.pos])) this.pos++;
  }

  /** Opens a container; one past Go's depth is its scanner's error at the bracket. */
  private push(ctx: Ctx, bracket: number): void {
    this.stack.push(ctx);
    if (this.stack.length > maxNestingDepth) {
      throw new JSONSyntaxError(
        `invalid character ${goQuoteRune(bracket)} exceeded max depth`,
        this.pos,
      );
    }
  }

  /**
   * Scans one value start; containers push a context and return, closed by afterValue. An
   * array's first element is scanned by looping here, not by recursion, so the call stack
   * stays flat whatever the nesting.
   */
  private value(): void {
    for (;;) {
      this.skipSpace();
      const c = this.peek();
      switch (c) {
        case 0x7b: // {
        case 0x5b: {
          const object = c === 0x7b;
          this.pos++;
          this.push(object ? Ctx.ObjectKey : Ctx.ArrayValue, c);
          this.skipSpace();
          if (this.peek() === (object ? 0x7d : 0x5d)) {
            this.pos++;
            this.stack.pop();
            return;
          }
          if (!object) continue;
          this.key();
          return;
        }
        case 0x22:
          this.string();
          return;
        case 0x74: // t
        case 0x66: // f
        case 0x6e: // n
          this.literal(c === 0x74 ? "true" : c === 0x66 ? "false" : "null");
          return;
        default:
          if (c === 0x2d || isDigit(c)) {
            this.number();
            return;
          }
          this.fail("looking for beginning of value");
      }
    }
  }

  private key(): void {
    this.skipSpace();
    if (this.peek() !== 0x22) this.fail("looking for beginning of object key string");
    this.string();
  }

  /**
   * After a complete value inside a container: a separator, a close, or an error. True when
   * a value must follow (the caller scans it).
   */
  private afterValue(): boolean {
    const top = this.stack.length - 1;
    const c = this.peek();
    switch (this.stack[top]) {
      case Ctx.ObjectKey:
        if (c !== 0x3a) this.fail("after object key");
        this.pos++;
        this.stack[top] = Ctx.ObjectValue;
        return true;
      case Ctx.ObjectValue:
        if (c === 0x2c) {
          this.pos++;
          this.stack[top] = Ctx.ObjectKey;
          this.key();
          return false;
        }
        if (c !== 0x7d) this.fail("after object key:value pair");
        this.pos++;
        this.stack.pop();
        return false;
      case Ctx.ArrayValue:
        if (c === 0x2c) {
          this.pos++;
          return true;
        }
        if (c !== 0x5d) this.fail("after array element");
        this.pos++;
        this.stack.pop();
        return false;
    }
    return false;
  }

  private string(): void {
    this.pos++; // opening quote
    for (;;) {
      const c = this.peek();
      if (c === -1) this.fail("in string literal");
      if (c === 0x22) {
        this.pos++;
        return;
      }
      if (c < 0x20) this.fail("in string literal");
      this.pos++;
      if (c === 0x5c) this.escape();
    }
  }

  private escape(): void {
    const c = this.peek();
    if ('bfnrt\\/"'.includes(String.fromCharCode(c)) && c !== -1) {
      this.pos++;
      return;
    }
    if (c !== 0x75) this.fail("in string escape code");
    this.pos++;
    for (let i = 0; i < 4; i++) {
      if (!isHex(this.peek())) this.fail("in \\u hexadecimal character escape");
      this.pos++;
    }
  }

  private literal(word: string): void {
    this.pos++;
    for (let i = 1; i < word.length; i++) {
      if (this.peek() !== word.charCodeAt(i)) {
        this.fail(`in literal ${word} (expecting ${goQuoteRune(word.charCodeAt(i))})`);
      }
      this.pos++;
    }
  }

  private number(): void {
    if (this.peek() === 0x2d) {
      this.pos++;
      if (!isDigit(this.peek())) this.fail("in numeric literal");
    }
    if (this.peek() === 0x30) this.pos++;
    else while (isDigit(this.peek())) this.pos++;
    if (this.peek() === 0x2e) {
      this.pos++;
      if (!isDigit(this.peek())) this.fail("after decimal point in numeric literal");
      while (isDigit(this.peek())) this.pos++;
    }
    const e = this.peek();
    if (e === 0x65 || e === 0x45) {
      this.pos++;
      const sign = this.peek();
      if (sign === 0x2b || sign === 0x2d) this.pos++;
      if (!isDigit(this.peek())) this.fail("in exponent of numeric literal");
      while (isDigit(this.peek())) this.pos++;
    }
  }
}
