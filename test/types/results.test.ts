/**
 * Upstream's result tests (types/020, 040 and 100 types_test.go), scenario for scenario, plus
 * golden bytes of each family's encoding (golden/encodings.json, written by upstream's Go code
 * with json.MarshalIndent, as Print does).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { UnmarshalTypeError } from "../../src/errors/index.js";
import { cidrMask } from "../../src/types/cidr.js";
import {
  ConversionError,
  createResultForVersion,
  implementedSpecVersion020,
  Result020,
  Result040,
  Result100,
} from "../../src/types/index.js";
import { ipConfig020ToGo } from "../../src/types/v020.js";
import { decodeIPConfig040, ipConfigToGo } from "../../src/types/v040.js";
import { decodeIPConfig100, interface100ToGo } from "../../src/types/v100.js";
import {
  ip,
  sameJSON,
  testJSON020,
  testResult020,
  testResult040,
  testResult100,
} from "./fixtures.js";

const golden: Record<string, string> = JSON.parse(
  readFileSync(new URL("./golden/encodings.json", import.meta.url), "utf8"),
);

describe("0.1.0/0.2.0 results (upstream types/020)", () => {
  it("correctly encodes a 0.2.0 Result", () => {
    const res = testResult020(implementedSpecVersion020);
    expect(sameJSON(marshal(res), testJSON020("0.2.0"))).toBe(true);
    expect(res.print()).toBe(testJSON020("0.2.0"));
    expect(res.print()).toBe(golden["020"]);
  });

  it("correctly encodes a 0.1.0 Result", () => {
    expect(testResult020("0.1.0").print()).toBe(testJSON020("0.1.0"));
  });

  it("converts a 0.2.0 result to 0.1.0", () => {
    const res010 = testResult020("0.2.0").getAsVersion("0.1.0");
    expect(res010).toBeInstanceOf(Result020);
    expect(res010.print()).toBe(testJSON020("0.1.0"));
  });

  it("converts a 0.1.0 result to 0.2.0", () => {
    const res020 = testResult020("0.1.0").getAsVersion("0.2.0");
    expect(res020.print()).toBe(testJSON020("0.2.0"));
  });

  it("creates a 0.1.0 result passing CNIVersion ''", () => {
    const res = createResultForVersion("", testJSON020(""));
    expect(res).toBeInstanceOf(Result020);
    expect(res.cniVersion).toBe("0.1.0");
  });

  it("always writes dns, as {} when empty", () => {
    expect(new Result020({ cniVersion: "0.1.0" }).print()).toBe(golden["020-empty"]);
    expect(marshal(new Result020({ cniVersion: "0.1.0" }))).toBe('{"cniVersion":"0.1.0","dns":{}}');
  });

  it("encodes an IP configuration in struct order", () => {
    const res = testResult020("0.2.0");
    expect(JSON.stringify(JSON.parse(marshal(ipConfig020ToGo(res.ip4!))), null, 4)).toBe(
      golden["020-ipconfig"],
    );
  });
});

describe("0.3.x/0.4.0 results (upstream types/040)", () => {
  it("correctly encodes a 0.3.x Result", () => {
    expect(testResult040().print()).toBe(golden["040"]);
  });

  it("correctly encodes a 0.1.0 Result", () => {
    const res = testResult040().getAsVersion("0.1.0");
    expect(res.print()).toBe(testJSON020("0.1.0"));
  });

  for (const withGateways of [true, false]) {
    it(`correctly round-trips a 0.2.0 Result ${withGateways ? "with" : "without"} route gateways`, () => {
      const res = testResult020(implementedSpecVersion020, withGateways);
      const newRes = Result040.fromResult(res);
      expect(newRes).toBeInstanceOf(Result040);
      const oldRes = newRes.getAsVersion("0.2.0");
      expect(marshal(oldRes)).toBe(marshal(res));
      if (!withGateways) expect(marshal(oldRes)).not.toContain('"gw"');
    });
  }

  it("correctly marshals and unmarshals interface index 0", () => {
    const ipc = {
      version: "4",
      interface: 0,
      address: { ip: ip("10.1.2.3"), mask: Uint8Array.from([255, 255, 255, 0]) },
    };
    const json = marshal(ipConfigToGo(ipc, ipc.version));
    expect(json).toBe('{"version":"4","interface":0,"address":"10.1.2.3/24"}');
    // Go's ParseCIDR gives a 4-byte mask for a dotted quad, as net.IPv4Mask does.
    expect(decodeIPConfig040(JSON.parse(json))).toEqual(ipc);
  });

  it("fails when downconverting a config to 0.2.0 that has no IPs", () => {
    const res = testResult040();
    res.ips = [];
    res.routes = [];
    expect(() => res.getAsVersion("0.2.0")).toThrow(ConversionError);
    expect(() => res.getAsVersion("0.2.0")).toThrow("cannot convert: no valid IP addresses");
  });

  it("returns an error when unmarshalling json fails", () => {
    expect(() => decodeIPConfig040({ address: 5 })).toThrow(UnmarshalTypeError);
    expect(() => decodeIPConfig040({ address: 5 })).toThrow(
      "json: cannot unmarshal number into Go struct field ipConfig.address of type string",
    );
  });

  it("correctly marshals a missing interface index", () => {
    const ipc = { version: "4", address: { ip: ip("10.1.2.3"), mask: cidrMask(24, 32) } };
    expect(marshal(ipConfigToGo(ipc, ipc.version))).toBe('{"version":"4","address":"10.1.2.3/24"}');
  });

  it("always writes dns, as {} when empty", () => {
    expect(new Result040({ cniVersion: "0.4.0" }).print()).toBe(golden["040-empty"]);
  });

  it("encodes an IP configuration in struct order", () => {
    const ipc = testResult040().ips[0];
    expect(JSON.stringify(JSON.parse(marshal(ipConfigToGo(ipc, ipc.version))), null, 4)).toBe(
      golden["040-ipconfig"],
    );
  });
});

describe("1.0.0/1.1.0 results (upstream types/100)", () => {
  it("correctly encodes a 1.1.0 Result, every key sorted", () => {
    expect(testResult100().print()).toBe(golden["100"]);
  });

  it("correctly converts a 1.0.0 Result to 1.1.0", () => {
    const trv1 = testResult100().getAsVersion("1.0.0");
    expect(trv1).toBeInstanceOf(Result100);
    expect(trv1.cniVersion).toBe("1.0.0");
    const trv11 = trv1.getAsVersion("1.1.0");
    expect(trv11).toEqual(testResult100());
  });

  it("correctly encodes a 0.1.0 Result", () => {
    expect(testResult100().getAsVersion("0.1.0").print()).toBe(testJSON020("0.1.0"));
  });

  it("correctly encodes a 0.4.0 Result", () => {
    const res = testResult100().getAsVersion("0.4.0");
    const expected = JSON.parse(golden["040"]);
    expected.cniVersion = "0.4.0";
    expect(res.print()).toBe(JSON.stringify(expected, null, 4));
  });

  it("correctly marshals and unmarshals interface index 0", () => {
    const ipc = { interface: 0, address: { ip: ip("10.1.2.3"), mask: cidrMask(24, 32) } };
    const json = marshal(ipConfigToGo(ipc));
    expect(json).toBe('{"interface":0,"address":"10.1.2.3/24"}');
    expect(decodeIPConfig100(JSON.parse(json))).toEqual(ipc);
  });

  it("returns an error when unmarshalling json fails", () => {
    expect(() => decodeIPConfig100({ address: 5 })).toThrow(/^json: cannot unmarshal/);
  });

  it("correctly marshals a missing interface index", () => {
    const ipc = { address: { ip: ip("10.1.2.3"), mask: cidrMask(24, 32) } };
    expect(marshal(ipConfigToGo(ipc))).toBe('{"address":"10.1.2.3/24"}');
  });

  it("drops an empty dns (upstream MarshalJSON through a map)", () => {
    expect(new Result100({ cniVersion: "1.0.0" }).print()).toBe(golden["100-empty"]);
    expect(marshal(new Result100({ cniVersion: "1.0.0" }))).toBe('{"cniVersion":"1.0.0"}');
  });

  it("encodes IP configurations and interfaces alone in struct order", () => {
    const res = testResult100();
    const indent = (v: object) => JSON.stringify(JSON.parse(marshal(v)), null, 4);
    expect(indent(ipConfigToGo(res.ips[0]))).toBe(golden["100-ipconfig"]);
    expect(indent(interface100ToGo(res.interfaces[0]))).toBe(golden["100-interface"]);
  });

  it("sorts keys inside an embedding map too (a prevResult)", () => {
    const conf = { cniVersion: "1.1.0", prevResult: testResult100(), name: "n" };
    const text = marshal(conf);
    expect(text.indexOf('"cniVersion"')).toBeLessThan(text.indexOf('"name"'));
    expect(text).toContain(`"prevResult":${marshal(testResult100())}`);
    expect(marshal(testResult100())).toBe(JSON.stringify(JSON.parse(golden["100"])));
  });
});

describe("getResult / fromResult (upstream GetResult, NewResultFromResult)", () => {
  it("converts any version to each family's implemented version", () => {
    expect(Result020.getResult(testResult100()).cniVersion).toBe("0.2.0");
    expect(Result040.getResult(testResult100()).cniVersion).toBe("0.4.0");
    expect(Result100.getResult(testResult020("0.1.0")).cniVersion).toBe("1.1.0");
    expect(Result100.fromResult(testResult040()).cniVersion).toBe("1.1.0");
  });

  it("getResult fills in an empty version, fromResult does not (as upstream)", () => {
    const empty = new Result100({ ips: testResult100().ips });
    expect(() => Result100.fromResult(empty)).toThrow(
      "no converter for CNI result version  to 1.1.0",
    );
    expect(Result100.getResult(empty).cniVersion).toBe("1.1.0");
    expect(empty.cniVersion).toBe("1.1.0");
  });

  it("getAsVersion returns the same object for the same version", () => {
    const res = testResult040();
    expect(res.getAsVersion("0.3.1")).toBe(res);
  });

  it("getAsVersion('') means 0.1.0 (upstream types_test.go)", () => {
    const res = testResult100();
    res.cniVersion = "1.0.0";
    expect(res.getAsVersion("").version()).toBe("0.1.0");
  });

  it("converted results share no mutable state with their source", () => {
    const src = testResult100();
    const copy = src.getAsVersion("1.0.0") as Result100;
    copy.interfaces[0].name = "changed";
    copy.ips[0].address.ip[15] = 99;
    copy.routes[0].dst.ip[0] = 99;
    copy.dns.nameservers?.push("9.9.9.9");
    expect(src).toEqual(testResult100());
  });

  it("refuses to convert a result whose version does not belong to its class", () => {
    const wrong = new Result040({ cniVersion: "1.0.0", ips: testResult040().ips });
    expect(() => wrong.getAsVersion("0.4.0")).toThrow(
      "no converter for CNI result version 1.0.0 to 0.4.0",
    );
  });
});
