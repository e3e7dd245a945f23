/**
 * Go's `unicode.IsSpace`, exactly: JavaScript's `\s` is a different set (it includes U+FEFF and
 * omits U+0085). This is Unicode's White_Space property, stable since Unicode 6.3, checked
 * against Go 1.19 by enumerating every code point.
 */

/** The code points for which Go's `unicode.IsSpace` returns true, in ascending order. */
export const GO_SPACE_CODE_POINTS: readonly number[] = Object.freeze([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

const spaceSet: ReadonlySet<number> = new Set(GO_SPACE_CODE_POINTS);

/** True when the code point is whitespace by Go's `unicode.IsSpace`. */
export function isGoSpace(codePoint: number): boolean {
  return spaceSet.has(codePoint);
}
