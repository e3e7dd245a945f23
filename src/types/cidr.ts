/**
 * Networks as Go's `net.IPNet` (an address and a mask, each a byte slice) and upstream's
 * `types.IPNet` JSON form: the CIDR string. Unlike `net.ParseCIDR`, upstream's
 * `types.ParseCIDR` keeps the host bits: a result's `address` is the interface's own address.
 */
import { InvalidArgumentError } from "../errors/base.js";
import { ParseError } from "../errors/types.js";
import {
  copyIP,
  hexString,
  IPv4len,
  IPv6len,
  ipTo4,
  ipToString,
  isV4Mapped,
  newIP,
  parseIP,
} from "./ip.js";

/** Go's `net.IPNet`: `ip` (4 or 16 bytes) and `mask` (4 or 16 bytes). Empty = Go's zero value. */
export interface IPNet {
  /** The address, host bits included. */
  ip: Uint8Array;
  /** The network mask. */
  mask: Uint8Array;
}

/**
 * A network the library made (parsed, decoded or copied), which `JSON.stringify` writes as its
 * CIDR text, as upstream's `types.IPNet` marshals. The Go encoder never calls `toJSON`.
 */
class IPNetValue implements IPNet {
  constructor(
    public ip: Uint8Array,
    public mask: Uint8Array,
  ) {}
  toJSON(): string {
    return ipNetToString(this);
  }
}

/** Upstream's copy of a `types.IPNet`: the address and mask copied. */
export function copyIPNet(n: IPNet): IPNet {
  // A result built in JavaScript may lack the field or a part of it: Go's zero values then.
  return new IPNetValue(n?.ip ? copyIP(n.ip) : newIP(0), n?.mask?.slice() ?? new Uint8Array(0));
}

/** Go's zero `net.IPNet{}`: what a missing `address` or `dst` decodes to; prints as "<nil>". */
export function zeroIPNet(): IPNet {
  return new IPNetValue(newIP(0), new Uint8Array(0));
}

/** Go's `net.CIDRMask(ones, bits)`: `ones` leading 1 bits out of `bits` (32 or 128). */
export function cidrMask(ones: number, bits: number): Uint8Array {
  if ((bits !== 8 * IPv4len && bits !== 8 * IPv6len) || ones < 0 || ones > bits) {
    throw new InvalidArgumentError("ones", `invalid mask /${ones} of ${bits} bits`);
  }
  const mask = new Uint8Array(bits / 8);
  // Each byte takes its share of the ones: 8 while they last, the rest, then none.
  for (let i = 0; i < mask.length; i++) mask[i] = 0xff00 >> Math.min(Math.max(ones - 8 * i, 0), 8);
  return mask;
}

function simpleMaskLength(mask: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    let v = mask[i];
    if (v === 0xff) {
      n += 8;
      continue;
    }
    // A partial byte must be ones then zeros, and every later byte zero.
    while (v & 0x80) {
      n++;
      v = (v << 1) & 0xff;
    }
    if (v !== 0) return -1;
    for (let j = i + 1; j < mask.length; j++) if (mask[j] !== 0) return -1;
    break;
  }
  return n;
}

/** Go's `networkNumberAndMask`: the address and mask brought to the same length, or undefined. */
function networkNumberAndMask(n: IPNet): [Uint8Array, Uint8Array] | undefined {
  const ip = ipTo4(n.ip) ?? n.ip;
  if (ip.length !== IPv4len && ip.length !== IPv6len) return undefined;
  const m = n.mask;
  if (m.length === IPv4len) return ip.length === IPv4len ? [ip, m] : undefined;
  if (m.length !== IPv6len) return undefined;
  return [ip, ip.length === IPv4len ? m.subarray(12) : m];
}

/**
 * Go's `IPNet.String()`, host bits kept: an IPv4-mapped address with a 16-byte mask prints as
 * IPv4, a non-canonical mask in hex, Go's zero value "<nil>".
 */
export function ipNetToString(n: IPNet): string {
  const { ip, mask } = (n ?? {}) as Partial<IPNet>; // as copyIPNet: Go's zero value, "<nil>"
  if (ip == null || mask == null) return "<nil>";
  if (mask.length === IPv4len && (ip.length === IPv4len || isV4Mapped(ip))) {
    // The common IPv4 case without the views networkNumberAndMask makes (same text).
    const o = ip.length - IPv4len;
    const addr = `${ip[o]}.${ip[o + 1]}.${ip[o + 2]}.${ip[o + 3]}`;
    const ones = simpleMaskLength(mask);
    return ones === -1 ? `${addr}/${hexString(mask)}` : `${addr}/${ones}`;
  }
  const nm = networkNumberAndMask(n);
  if (!nm) return "<nil>";
  const [number, m] = nm;
  const l = simpleMaskLength(m);
  return l === -1 ? `${ipToString(number)}/${hexString(m)}` : `${ipToString(number)}/${l}`;
}

/** Go's `dtoi` on the prefix length: decimal digits only, leading zeros allowed. */
function parsePrefixLength(s: string): number | undefined {
  if (!/^[0-9]+$/.test(s)) return undefined;
  let n = 0;
  for (const c of s) {
    n = n * 10 + (c.charCodeAt(0) - 0x30);
    if (n >= 0xffffff) return undefined;
  }
  return n;
}

/** Upstream's `types.ParseCIDR` (host bits kept); throws `ParseError` for what is not a CIDR. */
export function parseCIDR(s: string): IPNet {
  const slash = s.indexOf("/");
  const addr = s.slice(0, slash);
  const ip = slash < 0 ? undefined : parseIP(addr);
  // A dotted quad is IPv4 (32 bits); anything written with colons, mapped or not, is 128.
  const bits = addr.includes(":") ? 128 : 32;
  const ones = ip && parsePrefixLength(s.slice(slash + 1));
  if (ip === undefined || ones === undefined || ones > bits) {
    throw new ParseError("CIDR address", s);
  }
  return new IPNetValue(ip, cidrMask(ones, bits));
}
