/**
 * Issue 11: `JSON.stringify(result)` gives the spec JSON, what `print()` prints (addresses as
 * strings, not byte maps), for every result version.
 */
import { describe, expect, it } from "vitest";
import { createResult, createResultForVersion } from "../../src/types/index.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("Result toJSON", () => {
  it.each([
    [
      "1.1.0",
      '{"cniVersion":"1.1.0","interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55","sandbox":"/n"}],"ips":[{"interface":0,"address":"10.1.2.3/24","gateway":"10.1.2.1"}],"routes":[{"dst":"0.0.0.0/0","gw":"10.1.2.1"}],"dns":{"nameservers":["8.8.8.8"]}}',
    ],
    [
      "1.0.0",
      '{"cniVersion":"1.0.0","ips":[{"address":"fd00::2/64","gateway":"fd00::1"}],"dns":{}}',
    ],
    ["0.4.0", '{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.1.2.3/24"}],"dns":{}}'],
    [
      "0.3.1",
      '{"cniVersion":"0.3.1","ips":[{"version":"4","address":"10.1.2.3/24","gateway":"10.1.2.1"}],"dns":{}}',
    ],
    ["0.2.0", '{"cniVersion":"0.2.0","ip4":{"ip":"10.1.2.3/24","gateway":"10.1.2.1"},"dns":{}}'],
    ["0.1.0", '{"cniVersion":"0.1.0","ip4":{"ip":"10.1.2.3/24"},"dns":{}}'],
  ])("%s: JSON.stringify is print()'s JSON, addresses as strings", (version, json) => {
    const result = createResultForVersion(version, enc(json));
    const text = JSON.stringify(result);
    expect(JSON.parse(text)).toEqual(JSON.parse(result.print()));
    // Same keys in the same order as print().
    expect(text).toBe(JSON.stringify(JSON.parse(result.print())));
    expect(text).not.toMatch(/"0":/);
    expect(text).toContain(version === "1.0.0" ? '"fd00::2/64"' : '"10.1.2.3/24"');
  });

  it("nested inside another object, the result is still the spec JSON", () => {
    const result = createResult(enc('{"cniVersion":"1.1.0","ips":[{"address":"10.0.0.2/24"}]}'));
    expect(JSON.parse(JSON.stringify({ result }))).toEqual({
      result: { cniVersion: "1.1.0", ips: [{ address: "10.0.0.2/24" }] },
    });
  });
});
