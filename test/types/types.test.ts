/**
 * Upstream types/types_test.go: the Route type (JSON, errors, String), the Error type and the
 * "" conversion, plus DNS and GCAttachment helpers. Goldens from golden/encodings.json were
 * written by upstream's Go code.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { marshal, marshalIndent } from "../../src/encoding/json.js";
import { UnmarshalTypeError } from "../../src/errors/index.js";
import { cidrMask } from "../../src/types/cidr.js";
import { copyDNS, dnsToGo, isDNSEmpty } from "../../src/types/dns.js";
import { gcAttachmentToGo } from "../../src/types/gc.js";
import { CNIError, ParseError, type Route } from "../../src/types/index.js";
import { copyRoute, decodeRoute, routeToGo } from "../../src/types/route.js";
import { ip, testResult100 } from "./fixtures.js";

const golden: Record<string, string> = JSON.parse(
  readFileSync(new URL("./golden/encodings.json", import.meta.url), "utf8"),
);

function example(): Route {
  return {
    dst: { ip: ip("1.2.3.0"), mask: cidrMask(24, 32) },
    gw: ip("1.2.3.1"),
    mtu: 1500,
    advmss: 1340,
    priority: 100,
    table: 50,
    scope: 253,
  };
}

describe("custom Route type (upstream)", () => {
  it("marshals and unmarshals to JSON", () => {
    const json = marshal(routeToGo(example()));
    expect(json).toBe(
      '{"dst":"1.2.3.0/24","gw":"1.2.3.1","mtu":1500,"advmss":1340,"priority":100,"table":50,"scope":253}',
    );
    expect(decodeRoute(JSON.parse(json))).toEqual(example());
  });

  it("returns an error when the json data is not valid", () => {
    const bad = () => decodeRoute({ dst: "1.2.3.0/24", gw: "1.2.3.x" });
    expect(bad).toThrow(ParseError);
    expect(bad).toThrow("invalid IP address: 1.2.3.x");
  });

  it("matches Go's encoding of the same route", () => {
    const route: Route = {
      ...example(),
      dst: { ip: ip("15.5.6.0"), mask: cidrMask(24, 32) },
      gw: ip("15.5.6.8"),
    };
    expect(marshalIndent(routeToGo(route))).toBe(golden.route);
  });

  it("omits zero mtu/advmss/priority but keeps a zero table and scope", () => {
    const r: Route = {
      dst: { ip: ip("10.0.0.0"), mask: cidrMask(8, 32) },
      mtu: 0,
      table: 0,
      scope: 0,
    };
    expect(marshal(routeToGo(r))).toBe('{"dst":"10.0.0.0/8","table":0,"scope":0}');
    expect(decodeRoute({ dst: "10.0.0.0/8", table: 0, scope: 0 })).toEqual({
      dst: { ip: ip("10.0.0.0"), mask: cidrMask(8, 32) },
      table: 0,
      scope: 0,
    });
  });

  it("decodes like Go: case-insensitive keys, null and empty gateway as none, missing dst as <nil>", () => {
    expect(marshal(routeToGo(decodeRoute({ DST: "10.0.0.0/8", Gw: "", MTU: null })))).toBe(
      '{"dst":"10.0.0.0/8"}',
    );
    expect(marshal(routeToGo(decodeRoute({})))).toBe('{"dst":"\\u003cnil\\u003e"}');
    expect(() => decodeRoute({ dst: null })).toThrow("invalid CIDR address: ");
    expect(() => decodeRoute({ dst: 5 })).toThrow(
      "json: cannot unmarshal number into Go struct field route.dst of type string",
    );
    expect(() => decodeRoute({ gw: 5 })).toThrow(
      "json: cannot unmarshal number into Go struct field route.gw of type net.IP",
    );
    expect(() => decodeRoute([])).toThrow(UnmarshalTypeError);
  });

  it("copies deeply", () => {
    const original = example();
    const copy = copyRoute(original);
    copy.dst.ip[15] = 7;
    copy.gw![15] = 7;
    expect(original).toEqual(example());
    expect(copyRoute(original)).toEqual(original);
  });
});

describe("Error type (upstream)", () => {
  it("Error() is msg; details, or msg alone", () => {
    expect(new CNIError(1234, "some message", "some details").message).toBe(
      "some message; some details",
    );
    expect(new CNIError(1234, "some message", "").message).toBe("some message");
  });

  it("NewError sets every field, and prints as Go does", () => {
    const err = new CNIError(1234, "some message", "some details");
    expect([err.code, err.msg, err.details]).toEqual([1234, "some message", "some details"]);
    expect(marshalIndent(new CNIError(7, "bad <config>", "details & more"))).toBe(golden.error);
  });
});

describe("Result conversion (upstream)", () => {
  it("can create a CNIVersion '' (0.1.0) result", () => {
    const result = testResult100();
    result.cniVersion = "1.0.0";
    expect(result.getAsVersion("").version()).toBe("0.1.0");
  });
});

describe("DNS", () => {
  it("is empty only without any setting", () => {
    expect(isDNSEmpty({})).toBe(true);
    expect(isDNSEmpty({ nameservers: [], search: [], options: [], domain: "" })).toBe(true);
    expect(isDNSEmpty({ domain: "x" })).toBe(false);
    expect(isDNSEmpty({ options: ["a"] })).toBe(false);
  });

  it("encodes in struct order with omitempty and copies deeply", () => {
    const dns = { options: ["o"], domain: "d", nameservers: ["n"], search: [] };
    expect(marshal(dnsToGo(dns))).toBe('{"nameservers":["n"],"domain":"d","options":["o"]}');
    const copy = copyDNS(dns);
    copy.nameservers?.push("m");
    expect(dns.nameservers).toEqual(["n"]);
  });
});

describe("GCAttachment", () => {
  it("encodes containerID then ifname, neither omitted", () => {
    expect(marshal(gcAttachmentToGo({ containerID: "", ifname: "eth0" }))).toBe(
      '{"containerID":"","ifname":"eth0"}',
    );
  });
});
