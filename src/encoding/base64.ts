/**
 * Go's `base64.StdEncoding.Decode`, as encoding/json applies it to a `[]byte` field (the cache
 * record's `config`): Node's decoder skips invalid characters and missing padding, and a record
 * Go refuses (`illegal base64 data at input byte N`) must be refused here too.
 */
import { CorruptInputError } from "../errors/go.js";

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const decodeMap = new Int16Array(256).fill(-1);
for (let i = 0; i < alphabet.length; i++) decodeMap[alphabet.charCodeAt(i)] = i;

const PAD = 0x3d; // '='
const isNewline = (c: number | undefined): boolean => c === 0x0a || c === 0x0d;

/** Decodes standard padded base64 exactly as Go does (CR and LF ignored), or throws. */
export function decodeStdBase64(src: Uint8Array): Uint8Array {
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const quantum = [0, 0, 0, 0];
    let dlen = 4;
    let j = 0;
    let trailing: CorruptInputError | undefined;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Uint8Array.from(out);
        throw new CorruptInputError(si - j);
      }
      const c = src[si++];
      const v = decodeMap[c];
      if (v >= 0) {
        quantum[j] = v;
        continue;
      }
      if (isNewline(c)) {
        j--;
        continue;
      }
      if (c !== PAD || j < 2) throw new CorruptInputError(si - 1);
      if (j === 2) {
        // "==" is expected; the first "=" is consumed.
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) throw new CorruptInputError(src.length);
        if (src[si] !== PAD) throw new CorruptInputError(si - 1);
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = new CorruptInputError(si);
      dlen = j;
      break;
    }
    const bits = (quantum[0] << 18) | (quantum[1] << 12) | (quantum[2] << 6) | quantum[3];
    const bytes = [(bits >> 16) & 0xff, (bits >> 8) & 0xff, bits & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing) throw trailing;
    if (dlen < 4) return Uint8Array.from(out);
  }
}
