/**
 * Go's `net` helpers that upstream's tests call (`net.IPv4Mask`, `IPMask.Size`,
 * `net.ParseCIDR`, `IP.Mask`, `IP.Equal`), for the tests that mirror them. The library has no use for
 * them, so they live here, built on its public address functions.
 */
import { cidrMask, parseCIDR } from "../../src/types/cidr.js";
import type { IPNet } from "../../src/types/index.js";
import { ipTo4 } from "../../src/types/ip.js";

/** Go's `net.IPv4Mask(a, b, c, d)`: a 4-byte mask. */
export function ipv4Mask(a: number, b: number, c: number, d: number): Uint8Array {
  return Uint8Array.from([a, b, c, d]);
}

/**
 * Go's `IPMask.Size()`: `[ones, bits]` of a canonical mask, `[0, 0]` for a non-canonical one
 * (ones not leading).
 */
export function maskSize(mask: Uint8Array): [number, number] {
  let ones = 0;
  while (ones < mask.length * 8 && (mask[ones >> 3] & (0x80 >> (ones & 7))) !== 0) ones++;
  const canonical = cidrMask(ones, mask.length * 8);
  return canonical.every((b, i) => b === mask[i]) ? [ones, mask.length * 8] : [0, 0];
}

/** Go's `IP.Mask(mask)`: the network number, or undefined when lengths do not fit. */
export function ipMask(ip: Uint8Array, mask: Uint8Array): Uint8Array | undefined {
  let addr = ip;
  let m = mask;
  if (m.length === 16 && addr.length === 4 && m.subarray(0, 12).every((b) => b === 0xff)) {
    m = m.subarray(12);
  }
  if (m.length === 4 && addr.length === 16) addr = ipTo4(addr) ?? addr;
  if (addr.length !== m.length) return undefined;
  return addr.map((b, i) => b & m[i]);
}

/**
 * Go's `net.ParseCIDR`: the address (16-byte form) and its network, host bits cleared.
 * Throws `ParseError` like `parseCIDR`.
 */
export function parseNetworkCIDR(s: string): { ip: Uint8Array; network: IPNet } {
  const { ip, mask } = parseCIDR(s);
  return { ip, network: { ip: ipMask(ip, mask) ?? ip, mask } };
}

/** Go's `IP.Equal`: the same address, whatever the byte form (4 or 16 bytes). */
export function ipEqual(a: Uint8Array, b: Uint8Array): boolean {
  const x = ipTo4(a) ?? a;
  const y = ipTo4(b) ?? b;
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
