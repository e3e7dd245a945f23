/**
 * A conf dir removed and made again under its name is watched anew even when the new dir has
 * the old one's inode (a filesystem reuses a freed inode): the old watch is dead, and with
 * `poll: 0` nothing else would see a later file. The inode is pinned here through a stat
 * that reports one number for the conf dir, as such a filesystem would.
 */
import { mkdir, rm } from "node:fs/promises";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { loadNetworks, type NetworkWatcher } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, nextChange, writeNetwork } from "./helpers.js";

const pinned = vi.hoisted(() => new Set<string>());

vi.mock("node:fs/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs/promises")>();
  const stat = async (...args: Parameters<typeof real.stat>) => {
    const st = await real.stat(...args);
    if (pinned.has(String(args[0]))) Object.defineProperty(st, "ino", { value: 4242 });
    return st;
  };
  return { ...real, stat, default: { ...real, stat } };
});

let d: Dirs;
let w: NetworkWatcher | undefined;
beforeEach(async () => {
  d = await dirs();
  pinned.add(d.confDir);
});
afterEach(async () => {
  await w?.close();
  w = undefined;
  pinned.clear();
  await d.cleanup();
});

it("a conf dir made again at the same inode is watched anew (poll off)", async () => {
  await writeNetwork(d.confDir, "10-a.conflist", "a");
  const rt = await loadNetworks({
    confDir: d.confDir,
    cacheDir: d.cacheDir,
    exec: new FakePlugins().exec,
  });
  w = rt.watch({ debounce: 20, persistent: false, poll: 0 });
  // The first reload arms the dir's watch and takes its inode.
  await w.flush();
  const again = nextChange(w, (c) => c.set.get("b") !== undefined);
  await rm(d.confDir, { recursive: true });
  await mkdir(d.confDir);
  await writeNetwork(d.confDir, "20-b.conflist", "b");
  await again;
  // Only the new dir's own watch sees this one.
  const later = nextChange(w, (c) => c.added.includes("c"));
  await writeNetwork(d.confDir, "30-c.conflist", "c");
  expect(await later).toMatchObject({ added: ["c"] });
});
