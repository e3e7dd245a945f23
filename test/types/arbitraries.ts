/**
 * fast-check generators of results in every family, built only from values that survive the
 * JSON round trip (optional strings absent or non-empty, addresses in Go's parsed form).
 */
import fc from "fast-check";
import {
  type DNS,
  type Interface040,
  type Interface100,
  type IPConfig020,
  type IPConfig040,
  type IPConfig100,
  type IPNet,
  parseCIDR,
  parseIP,
  Result020,
  Result040,
  Result100,
  type Route,
} from "../../src/types/index.js";

const text = fc.string({ unit: "binary", minLength: 1, maxLength: 12 });
const optionalText = fc.option(text, { nil: undefined });
const list = fc.option(fc.array(text, { minLength: 1, maxLength: 3 }), { nil: undefined });

/** Keys set to undefined are removed, so deep equality with decoded values holds. */
function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}

const v4 = fc
  .tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 }))
  .map(([a, p]) => parseCIDR(`${a}/${p}`));
const v6 = fc
  .tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 }))
  .map(([a, p]) => parseCIDR(`${a}/${p}`));
/** An IPv4 or IPv6 network with host bits, in Go's parsed form. */
export const ipNet: fc.Arbitrary<IPNet> = fc.oneof(v4, v6);
const gateway = fc.option(
  fc.oneof(fc.ipV4(), fc.ipV6()).map((s) => parseIP(s) ?? new Uint8Array(0)),
  { nil: undefined },
);
const positive = fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined });
const natural = fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined });

/** A DNS with only round-trippable values. */
export const dns: fc.Arbitrary<DNS> = fc
  .record({ nameservers: list, domain: optionalText, search: list, options: list })
  .map(compact);

/** A route with every field possibly set. */
export const route: fc.Arbitrary<Route> = fc
  .record({
    dst: ipNet,
    gw: gateway,
    mtu: positive,
    advmss: positive,
    priority: positive,
    table: natural,
    scope: natural,
  })
  .map(compact);

/** A 1.x interface. */
export const interface100: fc.Arbitrary<Interface100> = fc
  .record({
    name: fc.string({ unit: "binary", maxLength: 12 }),
    mac: optionalText,
    mtu: positive,
    sandbox: optionalText,
    socketPath: optionalText,
    pciID: optionalText,
  })
  .map(compact);

const ipConfig100: fc.Arbitrary<IPConfig100> = fc
  .record({ interface: natural, address: ipNet, gateway })
  .map(compact);

/** A 1.0.0 or 1.1.0 result. */
export const result100: fc.Arbitrary<Result100> = fc
  .record({
    cniVersion: fc.constantFrom("1.0.0", "1.1.0"),
    interfaces: fc.array(interface100, { maxLength: 3 }),
    ips: fc.array(ipConfig100, { maxLength: 4 }),
    routes: fc.array(route, { maxLength: 3 }),
    dns,
  })
  .map((init) => new Result100(init));

const interface040: fc.Arbitrary<Interface040> = fc
  .record({
    name: fc.string({ unit: "binary", maxLength: 12 }),
    mac: optionalText,
    sandbox: optionalText,
  })
  .map(compact);

/** A 0.4.0 IP configuration whose version matches its address family. */
const ipConfig040: fc.Arbitrary<IPConfig040> = fc
  .record({ interface: natural, address: ipNet, gateway })
  .map((c) =>
    compact({ version: c.address.ip.length === 16 && isMapped(c.address.ip) ? "4" : "6", ...c }),
  );

function isMapped(ip: Uint8Array): boolean {
  return ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;
}

/** A 0.3.0, 0.3.1 or 0.4.0 result with consistent IP versions. */
export const result040: fc.Arbitrary<Result040> = fc
  .record({
    cniVersion: fc.constantFrom("0.3.0", "0.3.1", "0.4.0"),
    interfaces: fc.array(interface040, { maxLength: 3 }),
    ips: fc.array(ipConfig040, { maxLength: 4 }),
    routes: fc.array(route, { maxLength: 3 }),
    dns,
  })
  .map((init) => new Result040(init));

/** A 0.2.0 IP configuration of one family whose routes (dst and gw only) are of that family. */
function ipConfig020(family: 4 | 6): fc.Arbitrary<IPConfig020> {
  const net = family === 4 ? v4 : v6;
  const gw = fc.option(
    (family === 4 ? fc.ipV4() : fc.ipV6()).map((s) => parseIP(s) ?? new Uint8Array(0)),
    { nil: undefined },
  );
  const familyRoute = fc.record({ dst: net, gw }).map(compact);
  return fc
    .record({
      ip: net,
      gateway: gw,
      routes: fc.option(fc.array(familyRoute, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    })
    .map(compact);
}

/** A 0.1.0 or 0.2.0 result with at least one IP. */
export const result020: fc.Arbitrary<Result020> = fc
  .record({
    cniVersion: fc.constantFrom("0.1.0", "0.2.0"),
    ip4: fc.option(ipConfig020(4), { nil: undefined }),
    ip6: fc.option(ipConfig020(6), { nil: undefined }),
    dns,
  })
  .filter((r) => r.ip4 !== undefined || r.ip6 !== undefined)
  .map((init) => new Result020(compact(init)));
