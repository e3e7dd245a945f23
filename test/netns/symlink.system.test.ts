/**
 * Nothing follows a link out (issue 39, item 2), on real namespaces (root). A live namespace
 * `keep`, made by the test, and a symbolic link to it where a namespace's file is expected
 * (named like a dead owner's leftover, `lcnitest-<deadpid>-…`): removeNetns, the sweep and
 * `cnitool sweep` refuse the link (a NetnsError `not-a-netns`) and leave both the link and
 * `keep` as they were; `keep` is still its nsfs mount, same namespace. Each mechanism alike,
 * and in /run/netns too (where the direct mechanism runs `ip netns del`, which follows links),
 * with names only this file makes (`lcnisym-<pid>-…`, which no sweep takes for a leftover).
 */
import { execFile } from "node:child_process";
import { lstat, mkdir, mkdtemp, readlink, rm, stat, symlink, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sharedSpawner } from "../../src/engines/start/select.js";
import { NetnsError } from "../../src/errors/index.js";
import { errnoName } from "../../src/internal/errno.js";
import { unpinWithCommands } from "../../src/netns/direct.js";
import { createNetns, isNetns, type NetnsMechanism, removeNetns } from "../../src/netns/index.js";
import { sweepTestLeftovers } from "../../src/testing/index.js";
import { runInProcess } from "../cli/helpers.js";
import { deadPid, nameFor, ownerOf } from "../testing/leftovers.js";

const run = promisify(execFile);
const prefix = `lcnisym-${process.pid}`;
let counter = 0;
let work: string;
/** Namespaces and links this file made, removed in afterAll (each only if still its own). */
const pinned: string[] = [];
const links: string[] = [];

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error("the system tier runs as root (network namespaces)");
  work = await mkdtemp(join(tmpdir(), `${prefix}-`));
});

afterAll(async () => {
  for (const link of links) {
    const entry = await lstat(link).catch(() => undefined);
    if (entry?.isSymbolicLink()) await unlink(link);
  }
  // Through the library only once the links are gone; an empty file (the bug's leftover) too.
  for (const path of pinned) await removeNetns(path, { dir: dirname(path) }).catch(() => {});
  await rm(work, { recursive: true, force: true });
});

/** A live namespace of the test's own, and what it is now: to tell it is still the same. */
interface Kept {
  path: string;
  ino: number;
}

async function keep(dir: string | undefined, mechanism: NetnsMechanism): Promise<Kept> {
  const path = await createNetns(`${prefix}-${++counter}-keep`, { dir, mechanism });
  pinned.push(path);
  return { path, ino: (await stat(path)).ino };
}

/** A symbolic link named `name` in `dir` to `target`. */
async function linkTo(dir: string, name: string, target: string): Promise<string> {
  const link = join(dir, name);
  await symlink(target, link);
  links.push(link);
  return link;
}

/** A name of the library's scheme for an owner that is gone: what a sweep looks for. */
async function deadOwnersName(): Promise<string> {
  return nameFor(await ownerOf(await deadPid(), "99"), { n: ++counter, rest: "host" });
}

/** `keep` is still pinned: its nsfs mount in the mount table, the same namespace. */
async function stillPinned(kept: Kept): Promise<void> {
  expect(await isNetns(kept.path), kept.path).toBe(true);
  expect((await stat(kept.path)).ino).toBe(kept.ino);
  const { stdout } = await run("findmnt", ["-n", "-o", "FSTYPE", "--mountpoint", kept.path]);
  expect(stdout.trim()).toBe("nsfs");
}

/** The link is still there, still pointing where it did. */
async function linkKept(link: string, target: string): Promise<void> {
  expect((await lstat(link)).isSymbolicLink(), link).toBe(true);
  expect(await readlink(link)).toBe(target);
}

function expectRefused(error: unknown, link: string): void {
  expect(error).toBeInstanceOf(NetnsError);
  expect((error as NetnsError).reason).toBe("not-a-netns");
  expect((error as NetnsError).path).toBe(link);
  expect((error as NetnsError).message).toMatch(/symbolic link/);
}

describe.each(["spawner", "direct"] as const)("through the %s", (mechanism) => {
  it("removeNetns(link) in a namespaces dir refuses it: the link and the namespace stay", async () => {
    const dir = await mkdtemp(join(work, "netns-"));
    const kept = await keep(dir, mechanism);
    const name = await deadOwnersName();
    const link = await linkTo(dir, name, kept.path);
    const byPath = await removeNetns(link, { dir, mechanism }).catch((e) => e);
    await stillPinned(kept);
    await linkKept(link, kept.path);
    expectRefused(byPath, link);
    // By name as well.
    expectRefused(await removeNetns(name, { dir, mechanism }).catch((e) => e), link);
    await stillPinned(kept);
    await linkKept(link, kept.path);
  });

  it("removeNetns(link) in /run/netns refuses it (`ip netns del` would follow it)", async () => {
    const kept = await keep(undefined, mechanism);
    const name = `${prefix}-${++counter}-link`;
    const link = await linkTo("/run/netns", name, kept.path);
    const error = await removeNetns(name, { mechanism }).catch((e) => e);
    await stillPinned(kept);
    await linkKept(link, kept.path);
    expectRefused(error, link);
  });

  it("a dangling link is refused too, not taken for a namespace already gone", async () => {
    const dir = await mkdtemp(join(work, "netns-"));
    const link = await linkTo(dir, await deadOwnersName(), join(dir, "none-such"));
    const error = await removeNetns(link, { dir, mechanism }).catch((e) => e);
    await linkKept(link, join(dir, "none-such"));
    expectRefused(error, link);
  });

  it("sweepTestLeftovers reports a leftover's name that is a link, and leaves both alone", async () => {
    const dir = await mkdtemp(join(work, "netns-"));
    const kept = await keep(dir, mechanism);
    const link = await linkTo(dir, await deadOwnersName(), kept.path);
    const swept = await sweepTestLeftovers({ netnsDirs: [dir], tmpDirs: [], mechanism });
    await stillPinned(kept);
    await linkKept(link, kept.path);
    expect(swept.removed).toEqual([]);
    expect(swept.failed.map((f) => f.path)).toEqual([link]);
    expectRefused(swept.failed[0].error, link);
  });
});

// Below removeNetns's own look at the path: what each mechanism does when a link is there by
// the time it acts (put there after the look, say).
describe("each mechanism by itself", () => {
  it("the helper's UNPIN does not unmount through a link (UMOUNT_NOFOLLOW): EINVAL", async () => {
    const dir = await mkdtemp(join(work, "netns-"));
    const kept = await keep(dir, "spawner");
    const link = await linkTo(dir, await deadOwnersName(), kept.path);
    const errno = await sharedSpawner().netnsRequest(false, link, false);
    await stillPinned(kept);
    await linkKept(link, kept.path);
    expect(errnoName(errno)).toBe("EINVAL");
  });

  it.each([
    ["/run/netns (ip netns del)", "/run/netns"],
    ["another dir (umount --lazy)", undefined],
  ])("the commands refuse a link in %s before they run", async (_, where) => {
    const dir = where ?? (await mkdtemp(join(work, "netns-")));
    const kept = await keep(dir, "direct");
    const link = await linkTo(dir, `${prefix}-${++counter}-link`, kept.path);
    const error = await unpinWithCommands(link).catch((e) => e);
    await stillPinned(kept);
    await linkKept(link, kept.path);
    expectRefused(error, link);
  });
});

describe("cnitool sweep", () => {
  it("says it cannot remove a leftover's name that is a link (exit 1); both stay", async () => {
    const dir = await mkdtemp(join(work, "netns-"));
    const tmp = join(dir, "tmp");
    await mkdir(tmp);
    const kept = await keep(dir, "auto");
    const link = await linkTo(dir, await deadOwnersName(), kept.path);
    const r = await runInProcess(["sweep", "--netns-dir", dir, "--tmp-dir", tmp], {}, work);
    await stillPinned(kept);
    await linkKept(link, kept.path);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      new RegExp(`^cannot remove ${link}: remove network namespace ${link}: .*symbolic link.*\n$`),
    );
    expect(r.code).toBe(1);
  });
});
