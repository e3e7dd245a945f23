/**
 * Issue 42: `addNetworkList` returns the interface `Result`, on which TypeScript sees no `ips`;
 * `currentResult` reads it as the current version (1.1.0) with its types, whatever version the
 * plugin answered in.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CNIConfig, networkConfFromBytes } from "../../src/index.js";
import { FakeExec } from "../../src/invoke/index.js";
import {
  ConversionError,
  createResult,
  currentResult,
  ipNetToString,
  ipToString,
  Result040,
  Result100,
} from "../../src/types/index.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
let dir = "";

afterEach(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
  dir = "";
});

describe("currentResult", () => {
  it("reads an ADD's result as 1.1.0, typed, whatever version the plugin answered in", async () => {
    dir = mkdtempSync(join(tmpdir(), "libcni-current-"));
    const exec = new FakeExec();
    exec.execPluginCall.returns.resultBytes = enc(
      '{"cniVersion":"0.4.0","interfaces":[{"name":"eth0","sandbox":"/n"}],"ips":[{"version":"4","interface":0,"address":"10.1.2.3/24","gateway":"10.1.2.1"}]}',
    );
    const cni = new CNIConfig({ path: ["/p"], cacheDir: dir, exec, durableCache: false });
    const list = networkConfFromBytes(
      enc('{"name":"net","cniVersion":"0.4.0","plugins":[{"type":"a"}]}'),
    );
    const rt = { containerID: "c1", netNS: "/n", ifName: "eth0" };
    const added = await cni.addNetworkList(list, rt);
    const result = currentResult(added);
    // Typed: the compiler sees `ips` (a Result100 or undefined), no cast.
    const ips = result?.ips ?? [];
    expect(result).toBeInstanceOf(Result100);
    expect(result?.cniVersion).toBe("1.1.0");
    expect(ips.map((ip) => ipNetToString(ip.address))).toEqual(["10.1.2.3/24"]);
    expect(ips.map((ip) => ipToString(ip.gateway ?? new Uint8Array(0)))).toEqual(["10.1.2.1"]);
    expect(result?.interfaces[0]?.name).toBe("eth0");
    // Printed as JSON, addresses as strings.
    expect(JSON.parse(JSON.stringify(ips))).toEqual([
      { interface: 0, address: "10.1.2.3/24", gateway: "10.1.2.1" },
    ]);
  });

  it("returns a 1.1.0 result as it is, converts 1.0.0, keeps undefined", () => {
    const r = createResult(enc('{"cniVersion":"1.1.0","ips":[{"address":"10.0.0.2/24"}]}'));
    expect(currentResult(r)).toBe(r);
    const v100 = createResult(enc('{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24"}]}'));
    expect(currentResult(v100).cniVersion).toBe("1.1.0");
    expect(currentResult(undefined)).toBeUndefined();
  });

  it("throws ConversionError for a result 1.1.0 cannot hold", () => {
    const bad = new Result040({
      cniVersion: "0.4.0",
      ips: [null as never],
    });
    expect(() => currentResult(bad)).toThrow(ConversionError);
  });
});
