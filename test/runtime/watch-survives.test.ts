/**
 * Nothing the watcher meets ends the process or stops it: a reload refused with no `error`
 * listener (the README's usage), what file events miss (the poll), a FIFO in the conf dir, a
 * close while a reload is in flight.
 */
import { execFile } from "node:child_process";
import { rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CNIRuntime,
  loadNetworks,
  type NetworkWatcher,
  NoNetworksError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, nextChange, writeNetwork } from "./helpers.js";

describe("a watcher that survives", () => {
  let d: Dirs;
  let rt: CNIRuntime;
  let w: NetworkWatcher | undefined;
  beforeEach(async () => {
    d = await dirs();
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    rt = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      exec: new FakePlugins().exec,
    });
  });
  afterEach(async () => {
    await w?.close();
    w = undefined;
    await d.cleanup();
  });

  it("without an error listener, a conf dir that cannot be read under a ready runtime is kept as lastError, not a crash", async () => {
    // The conf dir through a symlink, turned into a symlink to itself: listing it fails (ELOOP),
    // which says nothing about the networks, so the ready set stays (a dir emptied is followed).
    const link = join(d.base, "net.d-link");
    await symlink(d.confDir, link);
    rt = await loadNetworks({ confDir: link, cacheDir: d.cacheDir, exec: new FakePlugins().exec });
    w = rt.watch({ debounce: 20, persistent: false });
    const watcher = w;
    expect(watcher.listenerCount("error")).toBe(0);
    await rm(link);
    await symlink(link, link);
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (watcher.lastError !== undefined) {
          clearInterval(check);
          resolve();
        }
      }, 10);
    });
    expect(watcher.lastError).toBeInstanceOf(NoNetworksError);
    expect(rt.networks.map((n) => n.name)).toEqual(["a"]);
    const back = nextChange(watcher, (c) => c.set.get("b") !== undefined);
    await rm(link);
    await symlink(d.confDir, link);
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    await back;
    expect(watcher.lastError).toBeUndefined();
  });

  it("the poll alone sees a new file (file events off)", async () => {
    w = rt.watch({ debounce: 10, persistent: false, fsEvents: false, poll: 30 });
    const change = nextChange(w, (c) => c.added.includes("b"));
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    expect(await change).toMatchObject({ added: ["b"] });
  });

  it("a FIFO in the conf dir neither blocks the reload nor stops later files", async () => {
    w = rt.watch({ debounce: 20, persistent: false });
    const change = nextChange(w, (c) => c.added.includes("b"));
    await promisify(execFile)("mkfifo", [join(d.confDir, "15-pipe.conflist")]);
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    await change;
    expect(rt.problems.map((p) => p.file)).toContain(join(d.confDir, "15-pipe.conflist"));
  });

  it("close settles with a reload in flight: it waits for that reload, which swaps nothing", async () => {
    // No file events and no poll: the flush below is the only reload.
    w = rt.watch({ debounce: 0, persistent: false, fsEvents: false, poll: 0 });
    const events: string[] = [];
    for (const name of ["reload", "change", "close"]) w.on(name, () => events.push(name));
    // What the reload would swap in, had the watcher stayed open: "b" added.
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    const flushed = w.flush().then(() => events.push("flushed"));
    await w.close();
    // close resolved only once the reload in flight had finished (the flush settled with it),
    // and that reload, finishing after the close, emitted and swapped nothing.
    expect([...events].sort()).toEqual(["close", "flushed"]);
    await flushed;
    expect(rt.networks.map((n) => n.name)).toEqual(["a"]);
  });
});
