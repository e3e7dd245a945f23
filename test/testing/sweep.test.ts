// The sweep of what killed test runs left (issue 30, item 5), without root: the names and their
// owners, and sweepTestLeftovers on fake dirs (an empty file stands for a namespace's mount
// point, which removeNetns removes from its dir without CAP_SYS_ADMIN).
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NetnsError } from "../../src/errors/index.js";
import {
  checkNamePrefix,
  ownerPart,
  parseTestName,
  testNamePrefix,
  uniqueTestName,
} from "../../src/testing/names.js";
import { ownerGone, sweepLeftoversOnce, sweepTestLeftovers } from "../../src/testing/sweep.js";
import { deadPid, type LiveProcess, liveProcess, nameFor, ownerOf, self } from "./leftovers.js";

let live: LiveProcess;
let dead: number;
beforeAll(async () => {
  live = await liveProcess();
  dead = await deadPid();
});
afterAll(async () => {
  await live.stop();
});

let root: string;
let netnsDir: string;
let tmp: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "libcni-sweep-"));
  netnsDir = join(root, "netns");
  tmp = join(root, "tmp");
  await mkdir(netnsDir);
  await mkdir(tmp);
  return () => rm(root, { recursive: true, force: true });
});

/** An empty file named `name` in the fake netns dir: a namespace's mount point. */
const pin = (name: string) => writeFile(join(netnsDir, name), "");

/** A temp dir named `name` with content, as testHost's root. */
async function tempDir(name: string): Promise<void> {
  await mkdir(join(tmp, name, "cache", "results"), { recursive: true });
  await writeFile(join(tmp, name, "cache", "results", "record"), "{}");
}

const startOf = async (pid: number | "self") =>
  (await readFile(`/proc/${pid}/stat`, "latin1")).split(") ")[1].split(" ")[19];

describe("the names", () => {
  it("name their owner: pid, start time (base 36), namespaces digest, a counter, the label", async () => {
    const name = await uniqueTestName("host");
    const own = await self();
    expect(own.start).toBe(await startOf("self"));
    expect(name).toMatch(
      new RegExp(`^lcnitest-${process.pid}-[0-9a-z]+\\.[0-9a-z]{8}-[1-9][0-9]*-host$`),
    );
    expect(name.split("-")[2]).toBe(`${BigInt(own.start).toString(36)}.${own.ns}`);
    expect(parseTestName(name)).toEqual({
      prefix: testNamePrefix,
      owner: own,
      n: expect.any(Number),
      thread: 0,
      rest: "host",
    });
  });

  it("a worker thread's names are its own: its counter starts over, its thread ID beside it", async () => {
    // Each thread's counter starts at 1: without the thread, two workers named alike (EEXIST).
    const dir = await mkdtemp(join(tmpdir(), "libcni-names-"));
    const names = new URL("../../build/testing/names.js", import.meta.url).href;
    const script = join(dir, "worker.mjs");
    await writeFile(
      script,
      `import { parentPort } from "node:worker_threads";
      const { uniqueTestName } = await import(${JSON.stringify(names)});
      parentPort.postMessage([await uniqueTestName("w"), await uniqueTestName("w")]);`,
    );
    const run = () =>
      new Promise<{ names: string[]; id: number }>((resolve, reject) => {
        const w = new Worker(script);
        w.once("message", (m: string[]) => resolve({ names: m, id: w.threadId }));
        w.once("error", reject);
      });
    try {
      const [a, b] = await Promise.all([run(), run()]);
      const all = [...a.names, ...b.names];
      expect(new Set(all).size).toBe(4);
      expect(parseTestName(a.names[1])).toMatchObject({ thread: a.id, n: 2, rest: "w" });
      expect(a.names[0]).toMatch(new RegExp(`^lcnitest-${process.pid}-[0-9a-z.]+-${a.id}t1-w$`));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("are one scheme with one counter for the helpers and the checker", async () => {
    const a = await uniqueTestName();
    const b = await uniqueTestName(undefined, checkNamePrefix);
    const c = await uniqueTestName("pod");
    const [pa, pb, pc] = [a, b, c].map((n) => parseTestName(n));
    expect(pb?.prefix).toBe("lcnicheck");
    expect(pb?.owner).toEqual(pa?.owner);
    expect([pb?.n, pc?.n]).toEqual([(pa?.n ?? 0) + 1, (pa?.n ?? 0) + 2]);
  });

  it("stay short: under 40 characters before the label", async () => {
    expect((await uniqueTestName(undefined, checkNamePrefix)).length).toBeLessThan(40);
  });

  it("a name the library did not make matches nothing (the sweep leaves it alone)", async () => {
    const owner = ownerPart(await ownerOf(dead, "12345"));
    for (const name of [
      "lcnitest-dir-AbC123", // a test's own mkdtemp
      `lcnitest-${dead}-7`, // the pid-only names of earlier versions
      `lcnitest-${dead}-7-host-AbC123`,
      `lcnitest-${dead}-0.0-1`, // an owner that could not be told
      `lcnie2e-${owner}-1`,
      `xlcnitest-${owner}-1`,
      `LCNITEST-${owner}-1`,
      `lcnitest-0${owner}-1`,
      `lcnitest-${owner}-0`,
      `lcnitest-${owner}-`,
      `lcnitest-${owner}`,
      `lcnitest-${dead}-abc.1234567-1`, // a digest of 7
      "cni-1234",
    ]) {
      expect(parseTestName(name), name).toBeUndefined();
    }
    expect(parseTestName(`lcnitest-${owner}-3-host-AbC123`)?.rest).toBe("host-AbC123");
    expect(parseTestName(`lcnicheck-${owner}-12-pod`)?.owner.start).toBe("12345");
  });

  it("write 0.0 for an owner that cannot be told, so they are never swept", () => {
    expect(ownerPart(undefined, 42)).toBe("42-0.0");
    expect(parseTestName("lcnitest-42-0.0-1")).toBeUndefined();
  });
});

describe("ownerGone", () => {
  it("a pid that is free: gone", async () => {
    expect(await ownerGone(await ownerOf(dead, "1"), await self())).toBe(true);
  });

  it("a live process started when the name says: not gone", async () => {
    expect(await ownerGone(live.owner, await self())).toBe(false);
    expect(await ownerGone(await self(), await self())).toBe(false);
  });

  it("a reused pid (a live process started at another time): gone", async () => {
    const reused = { ...live.owner, start: String(BigInt(live.owner.start) + 1n) };
    expect(await ownerGone(reused, await self())).toBe(true);
    const before = { ...(await self()), start: String(BigInt((await self()).start) - 1n) };
    expect(await ownerGone(before, await self())).toBe(true);
  });

  it("another pid or time namespace's name: never judged", async () => {
    const other = { pid: dead, start: "1", ns: "zzzzzzzz" };
    expect(await ownerGone(other, await self())).toBe(false);
  });
});

describe("sweepTestLeftovers", () => {
  it("removes the namespaces and temp dirs of owners that are gone, and nothing else", async () => {
    const gone = await ownerOf(dead, "777");
    const reused = { ...live.owner, start: String(BigInt(live.owner.start) + 1n) };
    const otherNs = { pid: dead, start: "777", ns: "zzzzzzzz" };
    const own = await self();
    const removedNetns = [
      nameFor(gone),
      nameFor(gone, { n: 2, rest: "host" }),
      nameFor(gone, { prefix: checkNamePrefix, n: 3, rest: "pod" }),
      nameFor(reused, { n: 9 }),
    ];
    const keptNetns = [
      nameFor(live.owner),
      nameFor(own, { rest: "mine" }),
      nameFor(otherNs),
      `lcnitest-${dead}-4`,
      `lcnitest-${dead}-0.0-5`,
      "lcnitest-dir-x",
      "cni-1234",
    ];
    for (const name of [...removedNetns, ...keptNetns]) await pin(name);
    const removedDirs = [nameFor(gone, { n: 2, rest: "host-AbC123" })];
    const keptDirs = [
      nameFor(live.owner, { rest: "host-AbC123" }),
      nameFor(own, { rest: "host-XyZ789" }),
      nameFor(otherNs, { rest: "host-AbC123" }),
      "lcnitest-fp-AbC123",
    ];
    for (const name of [...removedDirs, ...keptDirs]) await tempDir(name);
    // A file named for a dead owner is no temp dir of testHost's.
    const goneFile = nameFor(gone, { n: 5, rest: "host-file" });
    await writeFile(join(tmp, goneFile), "x");

    const swept = await sweepTestLeftovers({ netnsDirs: [netnsDir], tmpDirs: [tmp] });
    expect(swept).toEqual({
      removed: [
        ...removedNetns.map((n) => join(netnsDir, n)).sort(),
        ...removedDirs.map((n) => join(tmp, n)),
      ],
      failed: [],
    });
    expect((await readdir(netnsDir)).sort()).toEqual([...keptNetns].sort());
    expect((await readdir(tmp)).sort()).toEqual([...keptDirs, goneFile].sort());
  });

  it("reports what it cannot remove and goes on with the rest", async () => {
    const gone = await ownerOf(dead, "777");
    // Not empty: no mount point, so not a namespace; removeNetns refuses it.
    await writeFile(join(netnsDir, nameFor(gone, { n: 1 })), "not a namespace");
    await pin(nameFor(gone, { n: 2 }));
    const swept = await sweepTestLeftovers({ netnsDirs: [netnsDir], tmpDirs: [] });
    expect(swept.removed).toEqual([join(netnsDir, nameFor(gone, { n: 2 }))]);
    expect(swept.failed).toHaveLength(1);
    expect(swept.failed[0].path).toBe(join(netnsDir, nameFor(gone, { n: 1 })));
    expect(swept.failed[0].error).toBeInstanceOf(NetnsError);
    expect((swept.failed[0].error as NetnsError).reason).toBe("not-a-netns");
  });

  it("a dir that does not exist is nothing to sweep; one that cannot be read is a failure", async () => {
    const file = join(root, "file");
    await writeFile(file, "");
    const swept = await sweepTestLeftovers({
      netnsDirs: [join(root, "none")],
      tmpDirs: [file],
    });
    expect(swept.removed).toEqual([]);
    expect(swept.failed.map((f) => f.path)).toEqual([file]);
  });
});

describe("sweepLeftoversOnce (the first tempNetns, testHost or checkPlugin)", () => {
  // The temp dir it sweeps is os.tmpdir(): the test's own.
  beforeEach(() => {
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    return () => {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    };
  });

  it("sweeps a dir and the temp dir once per process, however many calls come at once", async () => {
    const gone = await ownerOf(dead, "777");
    await pin(nameFor(gone, { n: 1 }));
    await tempDir(nameFor(gone, { n: 2, rest: "host-AbC123" }));
    await pin(nameFor(live.owner));
    await Promise.all([
      sweepLeftoversOnce({ netnsDir }),
      sweepLeftoversOnce({ netnsDir }),
      sweepLeftoversOnce({ netnsDir: `${netnsDir}/` }),
    ]);
    expect(await readdir(netnsDir)).toEqual([nameFor(live.owner)]);
    expect(await readdir(tmp)).toEqual([]);
    // Later calls do not sweep again: a leftover made now stays.
    await pin(nameFor(gone, { n: 3 }));
    await tempDir(nameFor(gone, { n: 4, rest: "host-AbC123" }));
    await sweepLeftoversOnce({ netnsDir });
    expect((await readdir(netnsDir)).sort()).toEqual(
      [nameFor(live.owner), nameFor(gone, { n: 3 })].sort(),
    );
    expect(await readdir(tmp)).toEqual([nameFor(gone, { n: 4, rest: "host-AbC123" })]);
    // Another namespace dir is swept on its first use (the temp dir is not swept again).
    const other = join(root, "other");
    await mkdir(other);
    await writeFile(join(other, nameFor(gone, { n: 5 })), "");
    await sweepLeftoversOnce({ netnsDir: other });
    expect(await readdir(other)).toEqual([]);
    expect(await readdir(tmp)).toHaveLength(1);
  });

  it("never fails the call: a dir it cannot read or a leftover it cannot remove is only logged", async () => {
    const file = join(root, "file");
    await writeFile(file, "");
    await expect(sweepLeftoversOnce({ netnsDir: file })).resolves.toBeUndefined();
    const gone = await ownerOf(dead, "777");
    const dir = join(root, "busy");
    await mkdir(dir);
    await writeFile(join(dir, nameFor(gone)), "not a namespace");
    await writeFile(join(dir, nameFor(gone, { n: 2 })), "");
    await expect(sweepLeftoversOnce({ netnsDir: dir })).resolves.toBeUndefined();
    // The rest of the sweep went on.
    expect(await readdir(dir)).toEqual([nameFor(gone)]);
  });
});
