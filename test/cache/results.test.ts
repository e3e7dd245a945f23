import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeCacheRecord } from "../../src/cache/record.js";
import {
  cacheFilePath,
  listCachedAttachments,
  readCacheFile,
  removeCacheRecord,
  resultsDir,
  writeCacheRecord,
} from "../../src/cache/results.js";
import { isTempName, writeFileAtomic } from "../../src/engines/files/atomic-write.js";
import { CNIError, GoPathError, InvalidArgumentError } from "../../src/errors/index.js";

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-api-cache-"));
});
afterEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

const goldenDir = join(import.meta.dirname, "../../testdata/cache");

function record(
  net: string,
  cid: string,
  ifName: string,
  extra: { netns?: string } = {},
): Uint8Array {
  return encodeCacheRecord({
    containerId: cid,
    config: new TextEncoder().encode(`{"name":"${net}"}`),
    ifName,
    networkName: net,
    netns: extra.netns ?? "/var/run/netns/x",
    cniArgs: [["K", "V"]],
    capabilityArgs: { mac: "aa:bb:cc:dd:ee:ff" },
    result: { cniVersion: "1.1.0" },
  });
}

describe("cacheFilePath", () => {
  it("is <cacheDir>/results/<net>-<cid>-<ifname>", () => {
    expect(cacheFilePath("/var/lib/cni", "net", "cid", "eth0")).toBe(
      "/var/lib/cni/results/net-cid-eth0",
    );
  });

  it.each([
    [
      "",
      "c",
      "eth0",
      'cache file path requires network name (""), container ID ("c"), and interface name ("eth0")',
    ],
    [
      "n",
      "",
      "eth0",
      'cache file path requires network name ("n"), container ID (""), and interface name ("eth0")',
    ],
    [
      "n",
      "c",
      "",
      'cache file path requires network name ("n"), container ID ("c"), and interface name ("")',
    ],
    [
      "n\t",
      "c",
      "",
      'cache file path requires network name ("n\\t"), container ID ("c"), and interface name ("")',
    ],
  ])("refuses an empty part with upstream's message (%j %j %j)", (net, cid, ifName, message) => {
    expect(() => cacheFilePath(cacheDir, net, cid, ifName)).toThrow(message);
    expect(() => cacheFilePath(cacheDir, net, cid, ifName)).toThrow(InvalidArgumentError);
  });

  it.each([
    ["../../etc", "c", "eth0", 7, "invalid characters found in network name"],
    ["n", "../../etc", "eth0", 4, "invalid characters in containerID"],
    ["n", "a/b", "eth0", 4, "invalid characters in containerID"],
    ["n", "c", "../..", 4, "interface name contains / or : or whitespace characters"],
    ["n", "c", "..", 4, "interface name is . or .."],
    ["n", "c", "a/b", 4, "interface name contains / or : or whitespace characters"],
    ["n", "c", "0123456789abcdef", 4, "interface name is too long"],
    ["a/b", "c", "eth0", 7, "invalid characters found in network name"],
  ])("refuses a hostile part with the validator's error (%j %j %j)", (net, cid, ifName, code, msg) => {
    let thrown: unknown;
    try {
      cacheFilePath(cacheDir, net, cid, ifName);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CNIError);
    expect((thrown as CNIError).code).toBe(code);
    expect((thrown as CNIError).msg).toBe(msg);
  });
});

// The rules of pkg/utils, restated: a network name or container ID is
// [a-zA-Z0-9][a-zA-Z0-9_.-]*; an interface name is 1 to 15 UTF-8 bytes, not . or .., without
// NUL, /, : or Go's whitespace (JS's \s but U+FEFF, plus U+0085).
const validName = (s: string): boolean => /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(s);
const validIfName = (s: string): boolean =>
  s !== "" &&
  Buffer.byteLength(s) <= 15 &&
  s !== "." &&
  s !== ".." &&
  !/[\0/:\u0085]|[^\S\ufeff]/u.test(s);

describe("cacheFilePath for any input", () => {
  it("refuses exactly the invalid names, and gives a file directly inside <cacheDir>/results for the others", () => {
    const part = fc.oneof(
      fc.string(),
      fc.constantFrom("..", ".", "/", "../..", "a/b", "eth0", "c1", "n", "x/../..", "\u0000"),
      fc.stringMatching(/^[a-z./-]{1,20}$/),
      fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,14}$/),
    );
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(part, part, part, (net, cid, ifName) => {
        const valid = validName(net) && validName(cid) && validIfName(ifName);
        let path: string | undefined;
        let error: unknown;
        try {
          path = cacheFilePath("/cache", net, cid, ifName);
        } catch (e) {
          error = e;
        }
        if (!valid) {
          seen.refused++;
          // An empty part is upstream's argument error, any other the validator's.
          expect(
            error instanceof InvalidArgumentError || error instanceof CNIError,
            String(error),
          ).toBe(true);
          return;
        }
        seen.accepted++;
        expect(error).toBeUndefined();
        expect(dirname(path ?? "")).toBe("/cache/results");
        expect(basename(path ?? "")).toBe(`${net}-${cid}-${ifName}`);
      }),
      { numRuns: 2000 },
    );
    // Both sides were tried, many times (some 180 and 1,800 of the 2,000 runs).
    expect(seen.accepted).toBeGreaterThan(50);
    expect(seen.refused).toBeGreaterThan(50);
  });
});

describe("writeCacheRecord", () => {
  it("creates results/ with mode 0700 and the record with mode 0600", async () => {
    const path = cacheFilePath(join(cacheDir, "deep", "er"), "net", "cid", "eth0");
    await writeCacheRecord(path, record("net", "cid", "eth0"));
    expect(statSync(join(cacheDir, "deep", "er", "results")).mode & 0o777).toBe(0o700);
    expect(statSync(join(cacheDir, "deep")).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(new Uint8Array(readFileSync(path))).toEqual(record("net", "cid", "eth0"));
  });

  it("replaces an existing record whole and leaves no temporary file", async () => {
    const path = cacheFilePath(cacheDir, "net", "cid", "eth0");
    await writeCacheRecord(path, record("net", "cid", "eth0", { netns: "/old" }));
    await writeCacheRecord(path, record("net", "cid", "eth0", { netns: "/new" }), {
      durable: false,
    });
    expect(readFileSync(path, "utf8")).toContain('"netns":"/new"');
    expect(readdirSync(resultsDir(cacheDir))).toEqual(["net-cid-eth0"]);
  });

  it("fails when results/ is a file, as upstream's test expects, leaving nothing behind", async () => {
    writeFileSync(join(cacheDir, "results"), "afdsasdfasdf");
    await expect(
      writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "eth0"), record("n", "c", "eth0")),
    ).rejects.toThrow();
    expect(readdirSync(cacheDir)).toEqual(["results"]);
  });

  it("fails with Go's MkdirAll text when results/ is a file", async () => {
    writeFileSync(join(cacheDir, "results"), "x");
    const error = await writeCacheRecord(
      cacheFilePath(cacheDir, "n", "c", "eth0"),
      record("n", "c", "eth0"),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GoPathError);
    expect((error as Error).message).toBe(`mkdir ${join(cacheDir, "results")}: not a directory`);
    expect((error as GoPathError).errno).toBe("ENOTDIR");
  });

  it("names the file in the way, as Go's MkdirAll, when an ancestor is a file", async () => {
    writeFileSync(join(cacheDir, "file"), "x");
    const path = cacheFilePath(join(cacheDir, "file", "sub"), "n", "c", "eth0");
    await expect(writeCacheRecord(path, record("n", "c", "eth0"))).rejects.toMatchObject({
      message: `mkdir ${join(cacheDir, "file")}: not a directory`,
    });
  });

  it("creates results/ again when it was removed after a write, and retries", async () => {
    const path = cacheFilePath(cacheDir, "n", "c", "eth0");
    await writeCacheRecord(path, record("n", "c", "eth0"));
    rmSync(resultsDir(cacheDir), { recursive: true });
    await writeCacheRecord(path, record("n", "c", "eth0", { netns: "/again" }));
    expect(readFileSync(path, "utf8")).toContain('"netns":"/again"');
    expect(statSync(resultsDir(cacheDir)).mode & 0o777).toBe(0o700);
    expect(readdirSync(resultsDir(cacheDir))).toEqual(["n-c-eth0"]);
  });

  it("reports Go's text when results/ was replaced by a file after a write", async () => {
    const path = cacheFilePath(cacheDir, "n", "c", "eth0");
    await writeCacheRecord(path, record("n", "c", "eth0"));
    rmSync(resultsDir(cacheDir), { recursive: true });
    writeFileSync(resultsDir(cacheDir), "x");
    await expect(writeCacheRecord(path, record("n", "c", "eth0"))).rejects.toMatchObject({
      message: `mkdir ${resultsDir(cacheDir)}: not a directory`,
    });
  });

  it("writes concurrently into a new directory, every record whole", async () => {
    const names = Array.from({ length: 30 }, (_, i) => `eth${i}`);
    await Promise.all(
      names.map((ifName) =>
        writeCacheRecord(cacheFilePath(cacheDir, "n", "c", ifName), record("n", "c", ifName)),
      ),
    );
    expect(readdirSync(resultsDir(cacheDir)).sort()).toEqual(names.map((n) => `n-c-${n}`).sort());
    for (const ifName of names) {
      const bytes = new Uint8Array(readFileSync(cacheFilePath(cacheDir, "n", "c", ifName)));
      expect(bytes).toEqual(record("n", "c", ifName));
    }
  });

  it("removes its temporary file when the rename fails", async () => {
    const path = join(cacheDir, "target");
    mkdirSync(join(path, "occupied"), { recursive: true });
    await expect(writeFileAtomic(path, new Uint8Array([1]))).rejects.toThrow();
    expect(readdirSync(cacheDir)).toEqual(["target"]);
  });
});

describe("readCacheFile and removeCacheRecord", () => {
  it("reads undefined for a missing record and removes a missing one quietly", async () => {
    const path = cacheFilePath(cacheDir, "n", "c", "eth0");
    expect(await readCacheFile(path)).toBeUndefined();
    await expect(removeCacheRecord(path)).resolves.toBeUndefined();
    await writeCacheRecord(path, record("n", "c", "eth0"));
    expect(await readCacheFile(path)).toBeDefined();
    await removeCacheRecord(path);
    expect(readdirSync(resultsDir(cacheDir))).toEqual([]);
  });

  it("removes an empty directory at the path, as Go's os.Remove does; not a full one", async () => {
    // Left by a DEL, it failed the next ADD's write (EISDIR) after its plugins had run.
    const path = cacheFilePath(cacheDir, "n", "c", "eth0");
    mkdirSync(path, { recursive: true });
    await removeCacheRecord(path, { strict: true });
    expect(readdirSync(resultsDir(cacheDir))).toEqual([]);
    mkdirSync(join(path, "kept"), { recursive: true });
    await expect(removeCacheRecord(path, { strict: true })).rejects.toThrow(/ENOTEMPTY/);
  });
});

describe("listCachedAttachments (upstream GetCachedAttachments)", () => {
  it("is empty when there is no results directory", async () => {
    expect(await listCachedAttachments(cacheDir, "")).toEqual([]);
  });

  it("lists records sorted by name, filtered by container ID as upstream", async () => {
    for (const [net, cid, ifName] of [
      ["b", "c1", "eth0"],
      ["a", "c1", "eth1"],
      ["a", "c2", "eth0"],
      ["a", "c1", "eth0"],
    ]) {
      await writeCacheRecord(cacheFilePath(cacheDir, net, cid, ifName), record(net, cid, ifName), {
        durable: false,
      });
    }
    const all = await listCachedAttachments(cacheDir, "");
    expect(all.map((a) => `${a.network}-${a.containerID}-${a.ifName}`)).toEqual([
      "a-c1-eth0",
      "a-c1-eth1",
      "a-c2-eth0",
      "b-c1-eth0",
    ]);
    expect(all[0]).toEqual({
      containerID: "c1",
      network: "a",
      ifName: "eth0",
      config: new TextEncoder().encode('{"name":"a"}'),
      netNS: "/var/run/netns/x",
      cniArgs: [["K", "V"]],
      capabilityArgs: { mac: "aa:bb:cc:dd:ee:ff" },
    });
    const c1 = await listCachedAttachments(cacheDir, "c1");
    expect(c1.map((a) => `${a.network}-${a.ifName}`)).toEqual(["a-eth0", "a-eth1", "b-eth0"]);
  });

  it("skips what upstream skips: bad JSON, other kinds, a container ID mismatch, empty names, directories", async () => {
    const dir = resultsDir(cacheDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "n-c1-eth0"), record("n", "c1", "eth0"));
    writeFileSync(join(dir, "n-c1-torn"), "");
    writeFileSync(join(dir, "n-c1-junk"), "adfadsfasdfasfdsafaf");
    writeFileSync(join(dir, "n-c1-legacy"), readFileSync(join(goldenDir, "legacy-040.record")));
    writeFileSync(join(dir, "n-c1-other"), readFileSync(join(goldenDir, "other-kind.record")));
    // Named for c1 but holding c2's record: upstream checks the content too.
    writeFileSync(join(dir, "n-c1-eth9"), record("n", "c2", "eth9"));
    writeFileSync(
      join(dir, "n-c1-noif"),
      encodeCacheRecord({ containerId: "c1", config: undefined, ifName: "", networkName: "n" }),
    );
    mkdirSync(join(dir, "n-c1-dir"));
    // A name with the ID at position 0 or at the very end does not match upstream's prefilter.
    writeFileSync(join(dir, "-c1-x"), record("n", "c1", "x"));
    writeFileSync(join(dir, "x-c1-"), record("n", "c1", "x"));
    expect((await listCachedAttachments(cacheDir, "c1")).map((a) => a.ifName)).toEqual(["eth0"]);
    // Without a filter the ID mismatch counts (c2's record) and the prefilter does not apply.
    expect(
      (await listCachedAttachments(cacheDir, "")).map((a) => `${a.containerID}/${a.ifName}`),
    ).toEqual(["c1/x", "c1/eth0", "c2/eth9", "c1/x"]);
  });

  it("reads a record written by Go libcni 1.1.2", async () => {
    const dir = resultsDir(cacheDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "go112net-go112-container-eth0"),
      readFileSync(join(goldenDir, "go112-libcni.record")),
    );
    expect(await listCachedAttachments(cacheDir, "go112-container")).toEqual([
      {
        containerID: "go112-container",
        network: "go112net",
        ifName: "eth0",
        config: new TextEncoder().encode(
          '{"cniVersion":"1.0.0","name":"go112net","plugins":[{"type":"fake"}]}',
        ),
        netNS: "",
        cniArgs: [["IgnoreUnknown", "1"]],
        capabilityArgs: { mac: "c2:11:22:33:44:55" },
      },
    ]);
  });

  it("ignores temporary files, and a sweep removes only stale ones", async () => {
    const dir = resultsDir(cacheDir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, ".libcni-0001.tmp"), record("n", "c1", "eth0"));
    writeFileSync(join(dir, ".libcni-0002.tmp"), record("n", "c1", "eth1"));
    const old = (Date.now() - 3600_000) / 1000;
    utimesSync(join(dir, ".libcni-0001.tmp"), old, old);
    expect(isTempName(".libcni-0001.tmp")).toBe(true);
    expect(await listCachedAttachments(cacheDir, "")).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual([".libcni-0001.tmp", ".libcni-0002.tmp"]);
    await listCachedAttachments(cacheDir, "", { sweep: true });
    expect(readdirSync(dir)).toEqual([".libcni-0002.tmp"]);
  });

  it("reports an unreadable results directory", async () => {
    writeFileSync(join(cacheDir, "results"), "not a directory");
    await expect(listCachedAttachments(cacheDir, "")).rejects.toThrow(/ENOTDIR/);
  });
});
