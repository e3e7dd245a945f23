import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CNICacheV1, decodeCacheRecord, encodeCacheRecord } from "../../src/cache/record.js";
import { decodeStdBase64 } from "../../src/encoding/base64.js";
import { marshal, RawJSON } from "../../src/encoding/json.js";
import { parseJSON } from "../../src/encoding/parse.js";
import { CorruptInputError } from "../../src/errors/index.js";
import { utf8Decode } from "../../src/internal/bytes.js";

const goldenDir = join(import.meta.dirname, "../../testdata/cache");

interface GoView {
  error?: string;
  decoded?: {
    kind: string;
    containerId: string;
    configIsNil: boolean;
    configText: string;
    ifName: string;
    networkName: string;
    netns: string;
    cniArgs: [string, string][] | null;
    capabilityArgs: Record<string, unknown> | null;
    result: Record<string, unknown> | null;
  };
}

const goldens = readdirSync(goldenDir)
  .filter((f) => f.endsWith(".record"))
  .map((f) => f.slice(0, -".record".length))
  .sort();

function golden(name: string): { record: Uint8Array; go: GoView } {
  return {
    record: new Uint8Array(readFileSync(join(goldenDir, `${name}.record`))),
    go: parseJSON(readFileSync(join(goldenDir, `${name}.go.json`))) as GoView,
  };
}

// The records Go encoded from known inputs: the TS encoder must give the same bytes.
const written = ["full", "minimal", "nil-config", "escapes", "go112-libcni"];

describe("cache record goldens (written and decoded by Go)", () => {
  it("has every golden the generator writes", () => {
    expect(goldens).toHaveLength(23);
    for (const name of written) expect(goldens).toContain(name);
  });

  for (const name of goldens) {
    it(`decodes ${name} as Go does`, () => {
      const { record, go } = golden(name);
      if (go.error !== undefined) {
        expect(() => decodeCacheRecord(record)).toThrow(
          go.error.replace("main.cachedInfo", "libcni.cachedInfo"),
        );
        return;
      }
      const d = go.decoded!;
      const got = decodeCacheRecord(record);
      expect(got.kind).toBe(d.kind);
      expect(got.containerId).toBe(d.containerId);
      expect(got.config === undefined).toBe(d.configIsNil);
      expect(utf8Decode(got.config ?? new Uint8Array())).toBe(d.configText);
      expect(got.ifName).toBe(d.ifName);
      expect(got.networkName).toBe(d.networkName);
      expect(got.netns).toBe(d.netns);
      expect(got.cniArgs ?? null).toEqual(d.cniArgs);
      expect(marshal(got.capabilityArgs ?? null)).toBe(marshal(d.capabilityArgs));
      expect(marshal(got.result ?? null)).toBe(marshal(d.result));
    });
  }

  for (const name of written) {
    it(`re-encodes ${name} to Go's exact bytes`, () => {
      const { record } = golden(name);
      const d = decodeCacheRecord(record);
      const bytes = encodeCacheRecord({
        containerId: d.containerId,
        config: d.config,
        ifName: d.ifName,
        networkName: d.networkName,
        netns: d.netns,
        cniArgs: d.cniArgs,
        capabilityArgs: d.capabilityArgs,
        result: d.result,
      });
      expect(Buffer.from(bytes).toString("latin1")).toBe(Buffer.from(record).toString("latin1"));
    });
  }
});

describe("encodeCacheRecord", () => {
  const base = {
    containerId: "c",
    config: new Uint8Array([0x7b, 0x7d]),
    ifName: "eth0",
    networkName: "n",
  };

  it("writes the fields in Go's struct order, kind first", () => {
    const text = utf8Decode(
      encodeCacheRecord({
        ...base,
        netns: "/ns",
        cniArgs: [["A", "B"]],
        capabilityArgs: { z: 1, a: 2 },
        result: { b: 1 },
      }),
    );
    expect(text).toBe(
      '{"kind":"cniCacheV1","containerId":"c","config":"e30=","ifName":"eth0","networkName":"n","netns":"/ns",' +
        '"cniArgs":[["A","B"]],"capabilityArgs":{"a":2,"z":1},"result":{"b":1}}',
    );
  });

  it("omits empty netns, cniArgs, capabilityArgs and result (omitempty)", () => {
    const text = utf8Decode(
      encodeCacheRecord({ ...base, netns: "", cniArgs: [], capabilityArgs: {}, result: {} }),
    );
    expect(text).toBe(
      '{"kind":"cniCacheV1","containerId":"c","config":"e30=","ifName":"eth0","networkName":"n"}',
    );
    // Members that are undefined are absent: a map of only those is empty, and omitted.
    expect(utf8Decode(encodeCacheRecord({ ...base, capabilityArgs: { mac: undefined } }))).toBe(
      text,
    );
  });

  it("writes a missing config as null and an empty one as an empty string, as Go's []byte", () => {
    expect(utf8Decode(encodeCacheRecord({ ...base, config: undefined }))).toContain(
      '"config":null',
    );
    expect(utf8Decode(encodeCacheRecord({ ...base, config: new Uint8Array() }))).toContain(
      '"config":""',
    );
  });

  it("stores a result with its own encoding re-read as a map: keys sorted", () => {
    // A 0.x result encodes in struct order; the cache goes through a Go map, so it is sorted.
    const result = new RawJSON(
      '{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.0.0.1/24"}],"dns":{}}',
    );
    const text = utf8Decode(encodeCacheRecord({ ...base, result }));
    expect(text).toContain(
      '"result":{"cniVersion":"0.4.0","dns":{},"ips":[{"address":"10.0.0.1/24","version":"4"}]}',
    );
  });

  it("omits a null result (an ADD over an empty plugin list)", () => {
    expect(utf8Decode(encodeCacheRecord({ ...base, result: null }))).not.toContain("result");
  });

  it("round-trips any record through decode", () => {
    const name = fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,20}$/);
    fc.assert(
      fc.property(
        name,
        name,
        fc.uint8Array({ maxLength: 64 }),
        fc.string(),
        fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 4 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
        (cid, net, config, netns, cniArgs, capabilityArgs) => {
          const bytes = encodeCacheRecord({
            containerId: cid,
            config,
            ifName: "eth0",
            networkName: net,
            netns,
            cniArgs,
            capabilityArgs,
          });
          const d = decodeCacheRecord(bytes);
          expect(d.kind).toBe(CNICacheV1);
          expect(d.containerId).toBe(cid);
          expect(d.networkName).toBe(net);
          expect(d.config).toEqual(config);
          expect(d.netns).toBe(netns);
          expect(d.cniArgs ?? []).toEqual(cniArgs);
          expect(marshal(d.capabilityArgs ?? {})).toBe(marshal(parseJSON(marshal(capabilityArgs))));
        },
      ),
    );
  });
});

describe("decodeCacheRecord fast path", () => {
  it("gives what the struct decoder gives (keys spelled otherwise, base64 with newlines)", () => {
    const name = fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,20}$/);
    fc.assert(
      fc.property(
        name,
        fc.uint8Array({ maxLength: 64 }),
        fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 3 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
        (cid, config, cniArgs, capabilityArgs) => {
          const bytes = encodeCacheRecord({
            containerId: cid,
            config,
            ifName: "eth0",
            networkName: "n",
            netns: "/ns",
            cniArgs,
            capabilityArgs,
            result: { cniVersion: "1.1.0" },
          });
          const fast = decodeCacheRecord(bytes);
          const text = utf8Decode(bytes)
            .replace('"kind":', '"KIND":')
            .replace('"containerId":', '"containerID":')
            .replace(
              /"config":"([A-Za-z0-9+/=]*)"/,
              (_m, b64: string) => `"Config":"${b64.replace(/(.{4})/g, "$1\\n")}"`,
            );
          const slow = decodeCacheRecord(new TextEncoder().encode(text));
          expect(slow).toEqual(fast);
        },
      ),
    );
  });
});

describe("decodeCacheRecord cniArgs ([][2]string)", () => {
  it("pads a short pair and skips what is past the second element unread, as Go", () => {
    const record = `{"kind":"cniCacheV1","containerId":"c","config":null,"ifName":"eth0","networkName":"n","cniArgs":[["a","b",5],["c"],[null,"d",{"x":[1]}],null]}`;
    expect(decodeCacheRecord(new TextEncoder().encode(record)).cniArgs).toEqual([
      ["a", "b"],
      ["c", ""],
      ["", "d"],
      ["", ""],
    ]);
  });
});

describe("decodeStdBase64 (Go's StdEncoding)", () => {
  it("decodes padded base64 and skips CR and LF", () => {
    expect(utf8Decode(decodeStdBase64(Buffer.from("aGVsbG8=")))).toBe("hello");
    expect(utf8Decode(decodeStdBase64(Buffer.from("aGVs\r\nbG8=\n")))).toBe("hello");
    expect(utf8Decode(decodeStdBase64(Buffer.from("aG=\n=")))).toBe("h");
    expect(decodeStdBase64(Buffer.from(""))).toEqual(new Uint8Array());
  });

  it.each([
    ["aGVsbG8", 4],
    ["aGVsbG", 4],
    ["a", 0],
    ["aGVs*G8=", 4],
    ["=aGV", 0],
    ["aGVsbG8=x", 8],
    ["aG==x", 4],
    ["aG=x", 2],
    ["aGVsbG8=aGVs", 8],
    ["aG=", 3],
  ])("rejects %j at byte %i as Go does", (input, offset) => {
    expect(() => decodeStdBase64(Buffer.from(input))).toThrow(new CorruptInputError(offset));
  });

  it("agrees with Node's decoder on every valid encoding", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const text = Buffer.from(bytes).toString("base64");
        expect(decodeStdBase64(Buffer.from(text))).toEqual(bytes);
      }),
    );
  });
});
