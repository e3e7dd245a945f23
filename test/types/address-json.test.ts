/**
 * Issue 42: the addresses and networks of a result print as text with `JSON.stringify`, alone
 * or in a result's lists (a caller logging `result.ips`), while the Go-exact encoder
 * (src/encoding), which never calls `toJSON`, writes the same bytes as before.
 */
import { describe, expect, it } from "vitest";
import { marshal, marshalAsMap } from "../../src/encoding/json.js";
import { zeroIPNet } from "../../src/types/cidr.js";
import {
  createResult,
  createResultForVersion,
  parseCIDR,
  parseIP,
  type Result040,
  Result100,
} from "../../src/types/index.js";
import { ipv4 } from "../../src/types/ip.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("addresses and networks in JSON.stringify", () => {
  it("an address prints as its text, a network as its CIDR (host bits kept)", () => {
    expect(JSON.stringify(parseIP("10.1.2.3"))).toBe('"10.1.2.3"');
    expect(JSON.stringify(parseIP("fd00::1"))).toBe('"fd00::1"');
    expect(JSON.stringify(ipv4(192, 168, 0, 1))).toBe('"192.168.0.1"');
    expect(JSON.stringify(parseCIDR("10.1.2.3/24"))).toBe('"10.1.2.3/24"');
    expect(JSON.stringify(parseCIDR("fd00::2/64"))).toBe('"fd00::2/64"');
    // Go's zero IPNet prints "<nil>", as upstream's types.IPNet marshals it.
    expect(JSON.stringify(zeroIPNet())).toBe('"<nil>"');
    // Still the bytes and the { ip, mask } a caller reads.
    const net = parseCIDR("10.1.2.3/24");
    expect(net.ip).toBeInstanceOf(Uint8Array);
    expect([...net.mask]).toEqual([255, 255, 255, 0]);
  });

  it("a result's lists print as the spec writes them, every version", () => {
    const r = createResult(
      enc(
        '{"cniVersion":"1.1.0","ips":[{"interface":0,"address":"10.1.2.3/24","gateway":"10.1.2.1"}],"routes":[{"dst":"0.0.0.0/0","gw":"10.1.2.1"}]}',
      ),
    ) as Result100;
    expect(JSON.parse(JSON.stringify(r.ips))).toEqual([
      { interface: 0, address: "10.1.2.3/24", gateway: "10.1.2.1" },
    ]);
    expect(JSON.parse(JSON.stringify(r.routes))).toEqual([{ dst: "0.0.0.0/0", gw: "10.1.2.1" }]);
    const old = r.getAsVersion("0.4.0") as Result040;
    expect(JSON.parse(JSON.stringify(old.ips))).toEqual([
      { version: "4", interface: 0, address: "10.1.2.3/24", gateway: "10.1.2.1" },
    ]);
    const v020 = createResultForVersion(
      "0.2.0",
      enc('{"cniVersion":"0.2.0","ip4":{"ip":"10.1.2.3/24","gateway":"10.1.2.1"}}'),
    ) as unknown as { ip4: unknown };
    expect(JSON.parse(JSON.stringify(v020.ip4))).toEqual({
      ip: "10.1.2.3/24",
      gateway: "10.1.2.1",
    });
    // Converted and copied addresses too (the converters copy every address).
    const back = Result100.fromResult(old);
    expect(JSON.stringify(back.ips[0]?.address)).toBe('"10.1.2.3/24"');
    expect(JSON.stringify(back.ips[0]?.gateway)).toBe('"10.1.2.1"');
  });

  it("the Go encoder writes the same bytes as before: a byte slice as base64, a struct's fields", () => {
    const ip = parseIP("10.1.2.3") as Uint8Array;
    const plain = Uint8Array.from(ip);
    expect(marshal(ip)).toBe(marshal(plain));
    expect(marshal({ ip })).toBe('{"ip":"AAAAAAAAAAAAAP//CgECAw=="}');
    const net = parseCIDR("10.1.2.3/24");
    const plainNet = { ip: Uint8Array.from(net.ip), mask: Uint8Array.from(net.mask) };
    expect(marshal(net)).toBe(marshal(plainNet));
    expect(marshalAsMap({ n: net })).toBe(marshalAsMap({ n: plainNet }));
    // A result's own encoding is unchanged (its golden bytes are test/types' and test/api's).
    const r = createResult(
      enc('{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24","gateway":"10.1.2.1"}]}'),
    );
    expect(marshal(r)).toBe(
      '{"cniVersion":"1.1.0","ips":[{"address":"10.1.2.3/24","gateway":"10.1.2.1"}]}',
    );
  });
});
