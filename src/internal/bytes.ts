/**
 * UTF-8 conversions with Go's semantics: Go replaces each invalid byte with U+FFFD, where the
 * WHATWG decoder replaces a "maximal subpart" (one U+FFFD for a truncated three-byte sequence,
 * where Go writes two), so the slow path decodes as Go does.
 */

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Encodes a string as UTF-8; lone surrogates become U+FFFD, as Go's encoder writes them. */
export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Decodes UTF-8 bytes, replacing each invalid byte with U+FFFD exactly as Go's decoder does. */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return decodeLikeGo(bytes);
  }
}

function decodeLikeGo(bytes: Uint8Array): string {
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const [codePoint, width] = decodeRune(bytes, i);
    out += String.fromCodePoint(codePoint < 0 ? 0xfffd : codePoint);
    i += width;
  }
  return out;
}

/**
 * Go's utf8.DecodeRune: a code point and its width, or -1 and width 1 for an invalid byte
 * (Go returns RuneError; -1 lets a caller tell that from a real U+FFFD).
 */
export function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c0 = b[i];
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number, lo = 0x80, hi = 0xbf): number => {
    const c = b[i + k];
    return c !== undefined && c >= lo && c <= hi ? c & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(1);
    if (c1 >= 0) return [((c0 & 0x1f) << 6) | c1, 2];
  } else if (c0 >= 0xe0 && c0 <= 0xef) {
    const c1 = cont(1, c0 === 0xe0 ? 0xa0 : 0x80, c0 === 0xed ? 0x9f : 0xbf);
    const c2 = c1 >= 0 ? cont(2) : -1;
    if (c2 >= 0) return [((c0 & 0x0f) << 12) | (c1 << 6) | c2, 3];
  } else if (c0 >= 0xf0 && c0 <= 0xf4) {
    const c1 = cont(1, c0 === 0xf0 ? 0x90 : 0x80, c0 === 0xf4 ? 0x8f : 0xbf);
    const c2 = c1 >= 0 ? cont(2) : -1;
    const c3 = c2 >= 0 ? cont(3) : -1;
    if (c3 >= 0) return [((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3, 4];
  }
  return [-1, 1];
}

/** The bytes of a string, or the bytes given. */
export function toBytes(input: string | Uint8Array): Uint8Array {
  return typeof input === "string" ? utf8Encode(input) : input;
}
