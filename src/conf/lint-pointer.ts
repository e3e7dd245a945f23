/**
 * JSON Pointers (RFC 6901) for lint findings: building them, and the stable order findings
 * are reported in.
 */

/** One reference token, escaped: `~` as `~0`, `/` as `~1`. */
export function escapeToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** One reference token, unescaped. */
export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** A pointer from unescaped tokens (`[]` is the whole document, `""`). */
export function pointerOf(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join("");
}

/** The escaped tokens of a pointer (`""` has none). */
export function tokensOf(pointer: string): string[] {
  return pointer === "" ? [] : pointer.slice(1).split("/");
}

const index = /^(0|[1-9]\d*)$/;

/**
 * Document order as far as JSON allows: token by token, array indices (and integer-like keys)
 * by number, other tokens by code unit, a parent before its children.
 */
export function comparePointers(a: string, b: string): number {
  const x = tokensOf(a);
  const y = tokensOf(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] === y[i]) continue;
    if (index.test(x[i]) && index.test(y[i])) return Number(x[i]) - Number(y[i]);
    return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length;
}
