/**
 * IP and CIDR parsing and printing against Go (golden/addresses.json, produced with Go's
 * net.ParseIP / net.IP.String and upstream's types.ParseCIDR / IPNet JSON), then upstream's
 * own ParseCIDR and IPNet scenarios (types_test.go).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { InvalidArgumentError } from "../../src/errors/index.js";
import { cidrMask, ipNetToString, zeroIPNet } from "../../src/types/cidr.js";
import { ParseError, parseCIDR, parseIP } from "../../src/types/index.js";
import { IPv4len, ipTo4, ipToString, ipv4 } from "../../src/types/ip.js";
import { ipEqual, ipv4Mask, maskSize, parseNetworkCIDR } from "./go-net.js";

interface Golden {
  op: "ip" | "cidr";
  input: string;
  compact?: string;
  err?: string;
  ver?: string;
}

const goldens: Golden[] = JSON.parse(
  readFileSync(new URL("./golden/addresses.json", import.meta.url), "utf8"),
);

describe("net.ParseIP / IP.String goldens", () => {
  for (const g of goldens.filter((x) => x.op === "ip")) {
    it(JSON.stringify(g.input), () => {
      const ip = parseIP(g.input);
      if (g.err !== undefined) {
        expect(ip).toBeUndefined();
      } else {
        expect(ip).toBeDefined();
        expect(ip?.length).toBe(16);
        expect(ipToString(ip ?? new Uint8Array(0))).toBe(g.compact);
      }
    });
  }
});

describe("types.ParseCIDR goldens", () => {
  for (const g of goldens.filter((x) => x.op === "cidr")) {
    it(JSON.stringify(g.input), () => {
      if (g.err !== undefined) {
        expect(() => parseCIDR(g.input)).toThrow(new ParseError("CIDR address", g.input));
        expect(g.err).toBe(`invalid CIDR address: ${g.input}`);
        return;
      }
      const n = parseCIDR(g.input);
      expect(marshal(ipNetToString(n))).toBe(g.compact);
      expect(ipToString(n.ip)).toBe(g.ver);
    });
  }
});

describe("ParseCIDR (upstream types_test.go)", () => {
  it.each([
    ["1.2.3.4/24", "1.2.3.4", 24],
    ["2001:db8::/32", "2001:db8::", 32],
  ])("parses and stringifies %s", (input, expectedIP, expectedMask) => {
    const ipn = parseCIDR(input);
    expect(ipNetToString(ipn)).toBe(input);
    expect(ipToString(ipn.ip)).toBe(expectedIP);
    expect(maskSize(ipn.mask)[0]).toBe(expectedMask);
  });

  it("returns an error when given invalid inputs", () => {
    let caught: unknown;
    try {
      parseCIDR("1.2.3/45");
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ParseError);
    expect((caught as Error).message).toBe("invalid CIDR address: 1.2.3/45");
  });

  it("keeps the host bits where net.ParseCIDR clears them", () => {
    expect(ipNetToString(parseCIDR("10.2.3.1/24"))).toBe("10.2.3.1/24");
    const { ip, network } = parseNetworkCIDR("10.2.3.1/24");
    expect(ipToString(ip)).toBe("10.2.3.1");
    expect(ipNetToString(network)).toBe("10.2.3.0/24");
    expect(ipNetToString(parseNetworkCIDR("1111:dddd::aaaa/80").network)).toBe("1111:dddd::/80");
  });
});

describe("custom IPNet type (upstream types_test.go)", () => {
  it("marshals to JSON as a string and decodes back equal", () => {
    const ipn = { ip: parseIP("1.2.3.4") ?? new Uint8Array(0), mask: cidrMask(24, 32) };
    expect(marshal(ipNetToString(ipn))).toBe('"1.2.3.4/24"');
    expect(parseCIDR("1.2.3.4/24")).toEqual(ipn);
  });

  it("rejects a semantically invalid CIDR", () => {
    expect(() => parseCIDR("1.2.3.4/99")).toThrow("invalid CIDR address: 1.2.3.4/99");
  });
});

describe("Go net helpers", () => {
  it("prints Go's zero IPNet and bad addresses as Go does", () => {
    expect(ipNetToString(zeroIPNet())).toBe("<nil>");
    expect(ipToString(new Uint8Array(0))).toBe("<nil>");
    expect(ipToString(Uint8Array.from([1, 2, 3]))).toBe("?010203");
    expect(ipNetToString({ ip: ipv4(1, 2, 3, 4), mask: ipv4Mask(255, 0, 255, 0) })).toBe(
      "1.2.3.4/ff00ff00",
    );
    // A 16-byte IPv6 address with a 4-byte mask has no valid String form in Go.
    expect(
      ipNetToString({ ip: parseIP("2001::1") ?? new Uint8Array(0), mask: cidrMask(8, 32) }),
    ).toBe("<nil>");
  });

  it("To4, Equal and masks", () => {
    const mapped = ipv4(10, 0, 0, 1);
    expect([...(ipTo4(mapped) ?? [])]).toEqual([10, 0, 0, 1]);
    expect(ipTo4(parseIP("::1") ?? new Uint8Array(0))).toBeUndefined();
    expect(ipEqual(mapped, Uint8Array.from([10, 0, 0, 1]))).toBe(true);
    expect(ipEqual(mapped, ipv4(10, 0, 0, 2))).toBe(false);
    expect(maskSize(ipv4Mask(255, 255, 255, 0))).toEqual([24, 32]);
    expect(maskSize(ipv4Mask(255, 0, 255, 0))).toEqual([0, 0]);
    expect(cidrMask(0, 128)).toEqual(new Uint8Array(16));
    expect(cidrMask(12, 32)).toEqual(Uint8Array.from([255, 0xf0, 0, 0]));
    expect(() => cidrMask(33, 32)).toThrow(InvalidArgumentError);
    expect(() => cidrMask(33, 32)).toThrow("invalid mask /33 of 32 bits");
    expect(IPv4len).toBe(4);
  });
});
