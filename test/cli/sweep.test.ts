// `cnitool sweep` (an addition): the leftovers of test processes that are gone removed from
// the dirs it is given, each printed; what it cannot remove on stderr with exit status 1. Fake
// dirs, no root: an empty file stands for a namespace's mount point (the system tier,
// test/testing/sweep.system.test.ts, runs the built command on real namespaces).
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deadPid, type LiveProcess, liveProcess, nameFor, ownerOf } from "../testing/leftovers.js";
import { runInProcess } from "./helpers.js";

let live: LiveProcess;
let dead: number;
beforeAll(async () => {
  live = await liveProcess();
  dead = await deadPid();
});
afterAll(() => live.stop());

let root: string;
let netns: string;
let tmp: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "libcni-cli-sweep-"));
  netns = join(root, "netns");
  tmp = join(root, "tmp");
  await mkdir(netns);
  await mkdir(tmp);
  return () => rm(root, { recursive: true, force: true });
});

describe("cnitool sweep", () => {
  it("removes the leftovers of owners that are gone and prints each path; the others stay", async () => {
    const gone = await ownerOf(dead, "4242");
    await writeFile(join(netns, nameFor(gone, { rest: "host" })), "");
    await writeFile(join(netns, nameFor(live.owner)), "");
    await writeFile(join(netns, "lcnitest-dir"), "");
    await mkdir(join(tmp, nameFor(gone, { n: 2, rest: "host-AbC123" }), "bin"), {
      recursive: true,
    });
    await mkdir(join(tmp, nameFor(live.owner, { n: 2, rest: "host-AbC123" })));
    const r = await runInProcess(
      ["sweep", "--netns-dir", "netns", "--tmp-dir", tmp],
      { TMPDIR: "/nonexistent" },
      root,
    );
    expect(r).toEqual({
      code: 0,
      stdout: `${join(netns, nameFor(gone, { rest: "host" }))}\n${join(tmp, nameFor(gone, { n: 2, rest: "host-AbC123" }))}\n`,
      stderr: "",
    });
    expect((await readdir(netns)).sort()).toEqual(["lcnitest-dir", nameFor(live.owner)].sort());
    expect(await readdir(tmp)).toEqual([nameFor(live.owner, { n: 2, rest: "host-AbC123" })]);
  });

  it("takes dir1:dir2 lists, and the temp dir from TMPDIR by default", async () => {
    const gone = await ownerOf(dead, "4242");
    const other = join(root, "other");
    await mkdir(other);
    await writeFile(join(netns, nameFor(gone, { n: 1 })), "");
    await writeFile(join(other, nameFor(gone, { n: 2 })), "");
    await mkdir(join(tmp, nameFor(gone, { n: 3, rest: "host-AbC123" })));
    const r = await runInProcess(
      ["sweep", `--netns-dir=${netns}:${other}`],
      { TMPDIR: `${tmp}/` },
      root,
    );
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")).toEqual([
      join(netns, nameFor(gone, { n: 1 })),
      join(other, nameFor(gone, { n: 2 })),
      join(tmp, nameFor(gone, { n: 3, rest: "host-AbC123" })),
      "",
    ]);
  });

  it("prints nothing when there is nothing to sweep", async () => {
    expect(await runInProcess(["sweep", "--netns-dir", netns, "--tmp-dir", tmp], {}, root)).toEqual(
      { code: 0, stdout: "", stderr: "" },
    );
  });

  it("what it cannot remove goes to stderr, and the exit status is 1", async () => {
    const gone = await ownerOf(dead, "4242");
    await writeFile(join(netns, nameFor(gone, { n: 1 })), "not a namespace");
    await writeFile(join(netns, nameFor(gone, { n: 2 })), "");
    const r = await runInProcess(["sweep", "--netns-dir", netns, "--tmp-dir", tmp], {}, root);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${join(netns, nameFor(gone, { n: 2 }))}\n`);
    expect(r.stderr).toBe(
      `cannot remove ${join(netns, nameFor(gone, { n: 1 }))}: remove network namespace ${join(netns, nameFor(gone, { n: 1 }))}: not a network namespace\n`,
    );
  });

  it("takes no arguments, and its help names its flags", async () => {
    const bad = await runInProcess(["sweep", "x"], {});
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(
      /^Error: accepts at most 0 arg\(s\), received 1\nUsage:\n {2}cnitool sweep \[flags\]\n/,
    );
    const help = await runInProcess(["sweep", "--help"], {});
    expect(help.code).toBe(0);
    expect(help.stdout.split("\n")[0]).toBe("Remove what killed test runs left behind.");
    expect(help.stdout).toContain(
      "\nFlags:\n  -h, --help               help for sweep\n" +
        '      --netns-dir string   Where the namespaces are pinned, as dir1:dir2 (default "/run/netns")\n' +
        "      --tmp-dir string     Where the temp dirs are, as dir1:dir2 (default TMPDIR, else /tmp)\n",
    );
    const top = await runInProcess(["--help"], {});
    expect(top.stdout).toContain("\n  sweep       Remove what killed test runs left behind\n");
  });
});
