/**
 * The atomic write: the steps' order over an injected fs seam (no strace), and the cache
 * write's syscall savings, checked by counting fs calls: the results directory is made sure of
 * once per process, and concurrent writers share directory fsyncs (group commit) while each
 * still waits for an fsync that began after its own call.
 */
import {
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cacheFilePath, resultsDir, writeCacheRecord } from "../../../src/cache/results.js";
import {
  DirSyncGroup,
  runWriteSteps,
  type WriteSteps,
} from "../../../src/engines/files/atomic-write.js";

const calls = vi.hoisted(() => ({ stat: 0, mkdir: 0, dirOpens: 0, dirPaths: [] as string[] }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  return {
    ...real,
    stat: (...args: Parameters<typeof real.stat>) => {
      calls.stat++;
      return real.stat(...args);
    },
    mkdir: (...args: Parameters<typeof real.mkdir>) => {
      calls.mkdir++;
      return real.mkdir(...args);
    },
  };
});

vi.mock("../../../src/internal/fs.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../../src/internal/fs.js")>();
  return {
    ...real,
    openFd: (...args: Parameters<typeof real.openFd>) => {
      // fsyncDir opens the directory read-only; the temporary files are opened "wx".
      if (args[1] === "r") {
        calls.dirOpens++;
        calls.dirPaths.push(String(args[0]));
      }
      return real.openFd(...args);
    },
  };
});

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-api-atomic-"));
  Object.assign(calls, { stat: 0, mkdir: 0, dirOpens: 0, dirPaths: [] });
});
afterEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

const bytes = (s: string) => new TextEncoder().encode(s);

describe("writeCacheRecord's directory handling", () => {
  it("makes sure of results/ on the first write only", async () => {
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "eth0"), bytes("1"));
    expect(calls.mkdir).toBe(1);
    const before = { ...calls };
    for (let i = 0; i < 5; i++) {
      await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", `eth${i}`), bytes("2"));
    }
    expect(calls.stat).toBe(before.stat);
    expect(calls.mkdir).toBe(before.mkdir);
    // Still one directory fsync per sequential write: durability is unchanged.
    expect(calls.dirOpens - before.dirOpens).toBe(5);
  });

  it("flushes a results/ made without fsync on the first durable write after it, once", async () => {
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "a"), bytes("1"), {
      durable: false,
    });
    expect(calls.dirOpens).toBe(0);
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "b"), bytes("2"));
    // The cache directory (results/'s parent, for the entry made without fsync), then
    // results/ itself for the write's rename.
    expect(calls.dirPaths).toEqual([cacheDir, resultsDir(cacheDir)]);
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "c"), bytes("3"));
    expect(calls.dirPaths).toEqual([cacheDir, resultsDir(cacheDir), resultsDir(cacheDir)]);
  });

  it("writes durably when the directory made without fsync was removed before the flush", async () => {
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "a"), bytes("1"), {
      durable: false,
    });
    rmSync(cacheDir, { recursive: true, force: true });
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "b"), bytes("2"));
    expect(readdirSync(resultsDir(cacheDir))).toEqual(["n-c-b"]);
    // The flush finds the cache directory gone; the write fails on it, and its retry makes both
    // again durably (each flushed in its parent, deepest first), then flushes results/.
    expect(calls.dirPaths).toEqual([cacheDir, cacheDir, tmpdir(), resultsDir(cacheDir)]);
  });

  it("shares directory fsyncs among concurrent writers", async () => {
    await writeCacheRecord(cacheFilePath(cacheDir, "n", "c", "first"), bytes("1"));
    const before = calls.dirOpens;
    const names = Array.from({ length: 40 }, (_, i) => `eth${i}`);
    await Promise.all(
      names.map((n) => writeCacheRecord(cacheFilePath(cacheDir, "n", "c", n), bytes(n))),
    );
    const syncs = calls.dirOpens - before;
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThan(names.length);
    expect(readdirSync(resultsDir(cacheDir))).toHaveLength(names.length + 1);
  });
});

describe("DirSyncGroup", () => {
  // A fake fsync the test finishes by hand, recording when each began and ended on one clock.
  interface FakeSync {
    start: number;
    end?: number;
    fail: boolean;
    finish: () => void;
  }

  it("answers every caller with an fsync that began after its call, with that fsync's outcome", async () => {
    type Step = { kind: "call" } | { kind: "finish"; fail: boolean };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.constant<Step>({ kind: "call" }),
      fc.boolean().map<Step>((fail) => ({ kind: "finish", fail })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        let clock = 0;
        const syncs: FakeSync[] = [];
        const group = new DirSyncGroup(
          () =>
            new Promise<void>((resolve, reject) => {
              const s: FakeSync = {
                start: ++clock,
                fail: false,
                finish: () => {
                  s.end = ++clock;
                  if (s.fail) reject(new Error("EIO"));
                  else resolve();
                },
              };
              syncs.push(s);
            }),
        );
        const callers: { at: number; settled?: { at: number; ok: boolean } }[] = [];
        const flush = () => new Promise((r) => setImmediate(r));
        const finishOldest = (fail: boolean) => {
          const s = syncs.find((x) => x.end === undefined);
          if (s === undefined) return false;
          s.fail = fail;
          s.finish();
          return true;
        };
        for (const st of steps) {
          if (st.kind === "call") {
            const c: (typeof callers)[number] = { at: ++clock };
            callers.push(c);
            group.sync("/d").then(
              () => {
                c.settled = { at: clock, ok: true };
              },
              () => {
                c.settled = { at: clock, ok: false };
              },
            );
          } else {
            finishOldest(st.fail);
          }
          await flush();
        }
        // Drain: everything asked for is eventually answered.
        while (finishOldest(false)) await flush();
        for (const c of callers) {
          expect(c.settled).toBeDefined();
          // The first fsync begun after the call covers it; the caller hears its outcome.
          const covering = syncs.find((s) => s.start > c.at);
          expect(covering).toBeDefined();
          expect(covering?.end).toBeDefined();
          expect(c.settled?.at).toBeGreaterThanOrEqual(covering?.end ?? Infinity);
          expect(c.settled?.ok).toBe(!covering?.fail);
        }
        // Coalescing: never more fsyncs than calls, at most one running at a time.
        expect(syncs.length).toBeLessThanOrEqual(callers.length);
        const overlapping = syncs.some((a, i) =>
          syncs.some((b, j) => i < j && b.start < (a.end ?? Infinity) && a.start < (b.end ?? 0)),
        );
        expect(overlapping).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it("starts at most two fsyncs for a burst of callers during one", async () => {
    const started: string[] = [];
    const finishers: (() => void)[] = [];
    const group = new DirSyncGroup(async (dir) => {
      started.push(dir);
      await new Promise<void>((r) => finishers.push(r));
    });
    const first = group.sync("/d");
    const burst = Array.from({ length: 10 }, () => group.sync("/d"));
    expect(started).toHaveLength(1);
    finishers[0]();
    await first;
    await new Promise((r) => setImmediate(r));
    expect(started).toHaveLength(2);
    finishers[1]();
    await Promise.all(burst);
    expect(started).toHaveLength(2);
    // Another directory has its own fsyncs.
    const other = group.sync("/e");
    expect(started).toEqual(["/d", "/d", "/e"]);
    finishers[2]();
    await other;
  });
});

/**
 * A seam that logs every call; `fail` names a step that throws EIO. Every step answers on a
 * later turn, as the main thread's callback fs calls do.
 */
function recorder(fail?: string) {
  const log: string[] = [];
  let releaseDir: (() => void) | undefined;
  const step = (name: string, detail = "") => {
    log.push(detail === "" ? name : `${name} ${detail}`);
    if (name === fail) throw Object.assign(new Error(`EIO: ${name}`), { code: "EIO" });
  };
  const later = <T>(run: () => T): Promise<T> =>
    new Promise<void>((resolve) => setImmediate(resolve)).then(run);
  const fs: WriteSteps = {
    open: (path, mode) =>
      later(() => {
        step("open", `${path} ${mode.toString(8)}`);
        return 7;
      }),
    write: (fd, data) => later(() => step("write", `${fd} ${data.length}`)),
    fdatasync: async (fd) => step("fdatasync", String(fd)),
    close: (fd) => later(() => step("close", String(fd))),
    rename: (from, to) => later(() => step("rename", `${from} ${to}`)),
    link: (from, to) => later(() => step("link", `${from} ${to}`)),
    unlink: (path) => later(() => step("unlink", path)),
    syncDir: (dir) => {
      step("syncDir", dir);
      return new Promise<void>((resolve) => {
        releaseDir = resolve;
      });
    },
  };
  return { fs, log, releaseDir: () => releaseDir?.() };
}

describe("runWriteSteps", () => {
  const req = { path: "/c/results/n-c-eth0", data: bytes("abc"), mode: 0o600, durable: true };
  const temp = "/c/results/.libcni-x0.tmp";

  it("writes, flushes, closes, renames, then flushes the directory, in that order", async () => {
    const r = recorder();
    let done = false;
    const write = runWriteSteps(req, temp, r.fs).then(() => {
      done = true;
    });
    while (!r.log.some((l) => l.startsWith("syncDir"))) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(r.log).toEqual([
      `open ${temp} 600`,
      "write 7 3",
      "fdatasync 7",
      "close 7",
      `rename ${temp} /c/results/n-c-eth0`,
      "syncDir /c/results",
    ]);
    // Not done before the directory's fsync is: the rename must be on disk first.
    expect(done).toBe(false);
    r.releaseDir();
    await write;
    expect(done).toBe(true);
  });

  it("skips both flushes when not durable", async () => {
    const r = recorder();
    await runWriteSteps({ ...req, durable: false }, temp, r.fs);
    expect(r.log).toEqual([
      `open ${temp} 600`,
      "write 7 3",
      "close 7",
      `rename ${temp} ${req.path}`,
    ]);
  });

  it("an exclusive write links, then drops the temporary name, then flushes the directory", async () => {
    const r = recorder();
    await runWriteSteps({ ...req, durable: false, exclusive: true }, temp, r.fs);
    expect(r.log).toEqual([
      `open ${temp} 600`,
      "write 7 3",
      "close 7",
      `link ${temp} ${req.path}`,
      `unlink ${temp}`,
    ]);
    const failing = recorder("link");
    await expect(runWriteSteps({ ...req, exclusive: true }, temp, failing.fs)).rejects.toThrow(
      "EIO: link",
    );
    expect(failing.log.slice(-2)).toEqual([`link ${temp} ${req.path}`, `unlink ${temp}`]);
  });

  it("an exclusive write that fails at the directory's fsync removes the file it made", async () => {
    const r = recorder("syncDir");
    const write = runWriteSteps({ ...req, exclusive: true }, temp, r.fs);
    await expect(write).rejects.toThrow("EIO: syncDir");
    expect(r.log.slice(-3)).toEqual([`unlink ${temp}`, "syncDir /c/results", `unlink ${req.path}`]);
  });

  it("takes a link made but answered EEXIST (NFS's retransmitted LINK) for made", async () => {
    mkdirSync(resultsDir(cacheDir), { recursive: true });
    const path = cacheFilePath(cacheDir, "n", "c", "eth0");
    const made = join(resultsDir(cacheDir), ".libcni-t.tmp");
    const r = recorder();
    r.fs.open = async () => {
      writeFileSync(made, "x");
      return 7;
    };
    r.fs.link = async (from, to) => {
      linkSync(from, to);
      throw Object.assign(new Error("EEXIST: file already exists, link"), { code: "EEXIST" });
    };
    await runWriteSteps({ ...req, path, durable: false, exclusive: true }, made, r.fs);
    expect(r.log.at(-1)).toBe(`unlink ${made}`);
  });

  it("an exclusive write renames where the filesystem refuses hard links", async () => {
    const r = recorder();
    r.fs.link = async () => {
      throw Object.assign(new Error("EPERM: operation not permitted, link"), { code: "EPERM" });
    };
    await runWriteSteps({ ...req, durable: false, exclusive: true }, temp, r.fs);
    expect(r.log.slice(-1)).toEqual([`rename ${temp} ${req.path}`]);
  });

  it("an exclusive write makes the file, or fails with EEXIST and leaves the one there", async () => {
    const path = cacheFilePath(cacheDir, "n", "c", "eth0");
    await writeCacheRecord(path, bytes("first"), { exclusive: true });
    const again = writeCacheRecord(path, bytes("second"), { exclusive: true });
    await expect(again).rejects.toMatchObject({ code: "EEXIST" });
    expect(readFileSync(path, "utf8")).toBe("first");
    expect(readdirSync(resultsDir(cacheDir))).toEqual(["n-c-eth0"]);
  });

  for (const fail of ["write", "fdatasync", "close", "rename"]) {
    it(`removes the temporary file and renames nothing when ${fail} fails`, async () => {
      const r = recorder(fail);
      await expect(runWriteSteps(req, temp, r.fs)).rejects.toThrow(`EIO: ${fail}`);
      expect(r.log.at(-1)).toBe(`unlink ${temp}`);
      expect(r.log).toContain("close 7");
      expect(r.log.filter((l) => l.startsWith("rename")).length).toBe(fail === "rename" ? 1 : 0);
      expect(r.log.some((l) => l.startsWith("syncDir"))).toBe(false);
    });
  }

  it("removes nothing when the temporary file could not be created", async () => {
    const r = recorder("open");
    await expect(runWriteSteps(req, temp, r.fs)).rejects.toThrow("EIO: open");
    expect(r.log).toEqual([`open ${temp} 600`]);
  });

  it("reports the step's error, not the unlink's, when the cleanup fails too", async () => {
    const r = recorder("rename");
    r.fs.unlink = async () => {
      throw new Error("EIO: unlink");
    };
    await expect(runWriteSteps(req, temp, r.fs)).rejects.toThrow("EIO: rename");
  });
});
