/**
 * containernetworking/cni#1191 (open): `[null]` is valid JSON, so Go decodes `{"ips":[null]}`
 * into a slice holding a nil pointer, and every converter between versions dereferences it (a
 * panic), on ADD (`GetAsVersion`), in a chained plugin (`NewResultFromResult(prevResult)`) and
 * on CHECK and DEL (the cached result re-converted). The PR makes the converters keep the nil in
 * its slot. Here a `null` entry never reaches a converter: decoding rejects it with Go's type
 * error (dropping it would shift the interface indexes the IPs refer to), and a result built in
 * JavaScript holding one is refused by the conversion with a ConversionError naming the entry.
 * Never a TypeError.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PrevResultError, UnmarshalTypeError } from "../../src/errors/index.js";
import { CNIConfig, LibcniError, networkConfFromBytes } from "../../src/index.js";
import { FakeExec } from "../../src/invoke/index.js";
import {
  ConversionError,
  createResult,
  createResultForVersion,
  decodePluginConf,
  parseIP,
  Result020,
  Result040,
  Result100,
} from "../../src/types/index.js";
import { parsePrevResult } from "../../src/version/index.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const versions = ["0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];
const lists = ["interfaces", "ips", "routes"];
const targets = ["0.2.0", "0.4.0", "1.0.0", "1.1.0"];

/** What a call threw (never a TypeError: a library error or nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

let dir = "";
afterEach(() => {
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
  dir = "";
});

describe("a null entry in a result's lists (upstream #1191)", () => {
  it.each(
    versions.flatMap((v) => lists.map((l) => [v, l])),
  )("%s %s: decoding rejects it with Go's type error, for every reader", (version, list) => {
    const json = `{"cniVersion":"${version}","${list}":[null]}`;
    for (const read of [
      () => createResult(enc(json)),
      () => createResultForVersion(version, enc(json)),
      () => (version.startsWith("1.") ? Result100 : Result040).fromJSON(json),
    ]) {
      const error = thrown(read);
      expect(error).toBeInstanceOf(UnmarshalTypeError);
      expect((error as Error).message).toMatch(/^json: cannot unmarshal null into Go struct/);
    }
  });

  it("upstream's reproducer: nothing reaches GetAsVersion", () => {
    // r, _ := create.CreateFromBytes(`{"cniVersion":"0.4.0","ips":[null]}`); r.GetAsVersion("1.0.0")
    expect(() => createResult(enc('{"cniVersion":"0.4.0","ips":[null]}'))).toThrow(
      UnmarshalTypeError,
    );
  });

  it("a chained plugin's prevResult holding one: a typed error, not a crash", () => {
    const conf = decodePluginConf(
      JSON.parse('{"cniVersion":"1.0.0","name":"n","type":"t","prevResult":{"ips":[null]}}'),
    );
    const error = thrown(() => parsePrevResult(conf));
    expect(error).toBeInstanceOf(PrevResultError);
    expect((error as Error).message).toBe(
      "could not parse prevResult: json: cannot unmarshal null into Go struct field Result.ips of type types100.IPConfig",
    );
  });

  it.each(
    [Result100, Result040].flatMap((cls) =>
      lists.flatMap((list) => targets.map((to) => [cls, list, to] as const)),
    ),
  )("%o %s built in JavaScript, converted to %s: ConversionError naming the entry", (cls, list, to) => {
    const version = cls === Result100 ? "1.1.0" : "0.4.0";
    if (version === to) return; // no conversion: the result itself
    const ok = { address: { ip: new Uint8Array(4).fill(10), mask: new Uint8Array(4).fill(255) } };
    const result = new (cls as typeof Result100)({
      cniVersion: version,
      ips: [ok as never],
      [list]: [ok, null],
    });
    const error = thrown(() => result.getAsVersion(to));
    expect(error).toBeInstanceOf(ConversionError);
    expect((error as Error).message).toBe(`cannot convert: ${list}[1] is null, not an object`);
  });

  it("a 0.2.0 result's route list too", () => {
    const result = new Result020({
      cniVersion: "0.2.0",
      ip4: {
        ip: { ip: new Uint8Array(4).fill(10), mask: new Uint8Array(4).fill(255) },
        routes: [null as never],
      },
    });
    expect(() => result.getAsVersion("1.0.0")).toThrow(
      new ConversionError("cannot convert: ip4.routes[0] is null, not an object"),
    );
  });

  it("a tampered cache record: DEL still runs (no prevResult), CHECK fails with a typed error", async () => {
    dir = mkdtempSync(join(tmpdir(), "libcni-null-"));
    const exec = new FakeExec();
    const cni = new CNIConfig({ path: ["/p"], cacheDir: dir, exec, durableCache: false });
    const list = networkConfFromBytes(
      enc('{"name":"net","cniVersion":"1.0.0","plugins":[{"type":"a"}]}'),
    );
    const rt = { containerID: "c1", netNS: "/n", ifName: "eth0" };
    const record = JSON.stringify({
      kind: "cniCacheV1",
      containerId: "c1",
      config: Buffer.from(list.bytes).toString("base64"),
      ifName: "eth0",
      networkName: "net",
      netns: "/n",
      result: { cniVersion: "1.0.0", ips: [null] },
    });
    const write = (): void => {
      mkdirSync(join(dir, "results"), { recursive: true });
      writeFileSync(join(dir, "results", "net-c1-eth0"), record);
    };
    write();
    const check = await cni.checkNetworkList(list, rt).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(check).toBeInstanceOf(LibcniError);
    expect((check as Error).message).toMatch(/^failed to get network "net" cached result: /);
    expect(exec.calls).toHaveLength(0);
    const cached = await cni.getNetworkListCachedResult(list, rt).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(cached).toBeInstanceOf(UnmarshalTypeError);
    write();
    await cni.delNetworkList(list, rt);
    expect(exec.calls).toHaveLength(1);
  });
});

describe("a result built in JavaScript without an address, a mask or a route's dst", () => {
  // Go's zero net.IPNet prints "<nil>" (and is IPv6 to the 0.4.0 converter); these were
  // TypeErrors in the converters and in print, a skel plugin's code 999.
  it("prints and converts as Go's zero values do", () => {
    // JSON's null (a plugin's own decoding, say) is Go's nil too.
    const nulls = [
      { address: { ip: null, mask: null } },
      { address: { ip: parseIP("10.0.0.3"), mask: null } },
    ];
    const ips = [{ interface: 0 }, { address: { ip: parseIP("10.0.0.2") } }, ...nulls] as never;
    const r = new Result100({ cniVersion: "1.1.0", ips, routes: [{}] as never });
    expect(JSON.parse(r.getAsVersion("1.1.0").print())).toEqual({
      cniVersion: "1.1.0",
      ips: [{ address: "<nil>", interface: 0 }, ...Array(3).fill({ address: "<nil>" })],
      routes: [{ dst: "<nil>" }],
    });
    expect(JSON.parse(r.getAsVersion("0.4.0").print()).ips).toEqual([
      { version: "6", interface: 0, address: "<nil>" },
      { version: "4", address: "<nil>" },
      { version: "6", address: "<nil>" },
      { version: "4", address: "<nil>" },
    ]);
    const v020 = new Result020({ cniVersion: "0.2.0", ip4: {} as never });
    expect(JSON.parse(v020.print()).ip4).toEqual({ ip: "<nil>" });
  });
});
