/**
 * IP addresses as Go's `net.IP`: a byte slice of 4 or 16 bytes (0 bytes = nil), parsed as Go's
 * `net.ParseIP` (since Go 1.22 `netip.ParseAddr`: IPv4 in its 16-byte mapped form, no leading
 * zeros in octets, no zones) and printed as `net.IP.String()`, so that what Go prints, this
 * library prints.
 */
import { UnsupportedValueError } from "../errors/go.js";
import { ParseError } from "../errors/types.js";

export const IPv4len = 4;
export const IPv6len = 16;

/**
 * An address the library made (parsed, decoded or copied), which `JSON.stringify` writes as its
 * text, as Go's `MarshalText` ("" for nil), so results log readably. The Go encoder never
 * calls `toJSON`.
 */
class IPAddress extends Uint8Array {
  toJSON(): string {
    return this.length === 0 ? "" : ipToString(this);
  }
}

/** A new zeroed address of `length` bytes (0 is Go's nil `net.IP`). */
export function newIP(length: number): Uint8Array {
  return new IPAddress(length);
}

/** A copy of `ip`, which `JSON.stringify` writes as its text (an address of the library's). */
export function copyIP(ip: Uint8Array): Uint8Array {
  return new IPAddress(ip);
}

/** Go's `net.IPv4(a, b, c, d)`: the 16-byte IPv4-mapped form. */
export function ipv4(a: number, b: number, c: number, d: number): Uint8Array {
  // Written byte by byte: a result of 500k routes makes one per address.
  const ip = new IPAddress(IPv6len);
  ip[10] = 0xff;
  ip[11] = 0xff;
  ip[12] = a;
  ip[13] = b;
  ip[14] = c;
  ip[15] = d;
  return ip;
}

/** True for `::ffff:a.b.c.d`. */
export function isV4Mapped(ip: Uint8Array): boolean {
  if (ip.length !== IPv6len || ip[10] !== 0xff || ip[11] !== 0xff) return false;
  for (let i = 0; i < 10; i++) if (ip[i] !== 0) return false;
  return true;
}

/** Go's `net.ParseIP`: the 16-byte form of an IPv4 or IPv6 address, or `undefined` (Go's nil). */
export function parseIP(s: string): Uint8Array | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ".") {
      const fields = parseIPv4Fields(s);
      return fields && ipv4(fields[0], fields[1], fields[2], fields[3]);
    }
    if (c === ":") return parseIPv6(s);
    if (c === "%") return undefined;
  }
  return undefined;
}

/** The four octets of a dotted-decimal IPv4 address (netip rules), or undefined. */
function parseIPv4Fields(s: string): number[] | undefined {
  const fields: number[] = [];
  let val = 0;
  let digits = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) {
      if (digits === 1 && val === 0) return undefined; // leading zero
      val = val * 10 + (c - 0x30);
      digits++;
      if (val > 255) return undefined;
    } else if (c === 0x2e) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === ".") return undefined;
      if (fields.length === 3) return undefined;
      fields.push(val);
      val = 0;
      digits = 0;
    } else {
      return undefined;
    }
  }
  if (fields.length < 3) return undefined;
  fields.push(val);
  return fields;
}

const hexValue = (c: number): number => {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
};

/** netip's IPv6 parser; a zone (`%eth0`) makes the address invalid for `net.ParseIP`. */
function parseIPv6(input: string): Uint8Array | undefined {
  if (input.includes("%")) return undefined;
  let s = input;
  const ip = new IPAddress(IPv6len);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ":" && s[1] === ":") {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const v = hexValue(s.charCodeAt(off));
      if (v < 0) break;
      if (off > 3) return undefined; // more than 4 hex digits
      acc = acc * 16 + v;
    }
    if (off === 0) return undefined;
    if (off < s.length && s[off] === ".") {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const fields = parseIPv4Fields(s);
      if (!fields) return undefined;
      ip.set(fields, i);
      s = "";
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ":" || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    ip.fill(0, ellipsis, ellipsis + n);
  } else if (ellipsis >= 0) {
    return undefined; // "::" must stand for at least one zero group
  }
  return ip;
}

/** Go's `IP.To4()`: the 4-byte form of an IPv4 or IPv4-mapped address, else undefined. */
export function ipTo4(ip: Uint8Array): Uint8Array | undefined {
  if (ip.length === IPv4len) return ip;
  if (isV4Mapped(ip)) return ip.subarray(12, 16);
  return undefined;
}

const hexDigits = "0123456789abcdef";

/** Lower-case hex of the bytes, as Go's `hexString`. */
export function hexString(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += hexDigits[b >> 4] + hexDigits[b & 15];
  return out;
}

/** Go's `net.IP.String()`: "<nil>" for an empty address, "?" + hex for a bad length. */
export function ipToString(ip: Uint8Array): string {
  if (ip.length === 0) return "<nil>";
  if (ip.length !== IPv4len && ip.length !== IPv6len) return `?${hexString(ip)}`;
  if (ip.length === IPv4len) return `${ip[0]}.${ip[1]}.${ip[2]}.${ip[3]}`;
  // No view of the last four bytes: printing is on the path of every address of a result.
  if (isV4Mapped(ip)) return `${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((ip[i] << 8) | ip[i + 1]);
  // The longest run of two or more zero groups (the first of equal runs) becomes "::".
  let zeroStart = -1;
  let zeroEnd = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
      zeroStart = i;
      zeroEnd = j;
    }
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += "::";
      i = zeroEnd;
      if (i >= 8) break;
    } else if (i > 0) {
      out += ":";
    }
    out += groups[i].toString(16);
  }
  return out;
}

/** Go's `net.IP.MarshalText`: "" for an empty address; a bad length fails as Go's marshal does. */
export function ipMarshalText(ip: Uint8Array): string {
  if (ip.length === 0) return "";
  if (ip.length !== IPv4len && ip.length !== IPv6len) {
    throw new UnsupportedValueError(
      `json: error calling MarshalText for type net.IP: address ${hexString(ip)}: invalid IP address`,
    );
  }
  return ipToString(ip);
}

/** Go's `net.IP.UnmarshalText`: "" is nil; anything else parses or throws `ParseError`. */
export function ipUnmarshalText(text: string): Uint8Array {
  if (text === "") return new IPAddress(0);
  const ip = parseIP(text);
  if (!ip) throw new ParseError("IP address", text);
  return ip;
}
