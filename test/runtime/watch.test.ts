import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CNIRuntime,
  loadNetworks,
  type NetworkWatcher,
  NoNetworksError,
} from "../../src/runtime/index.js";
import { diffSets } from "../../src/runtime/watch.js";
import { type Dirs, dirs, FakePlugins, nextChange, writeNetwork } from "./helpers.js";

const names = (rt: CNIRuntime) => rt.networks.map((n) => n.name);

describe("watch", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  let w: NetworkWatcher;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    w = rt.watch({ debounce: 20, persistent: false });
  });
  afterEach(async () => {
    await w.close();
    await d.cleanup();
  });

  it("picks up a new file, an edit and a delete, and says what changed", async () => {
    let change = nextChange(w);
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    expect(await change).toMatchObject({ added: ["b"], removed: [], changed: [] });
    expect(names(rt)).toEqual(["a", "b"]);

    change = nextChange(w);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["other"]);
    expect(await change).toMatchObject({ added: [], removed: [], changed: ["b"] });
    expect(rt.networkSet.get("b")?.config.plugins[0].network.type).toBe("other");

    change = nextChange(w);
    await rm(join(d.confDir, "20-b.conflist"));
    expect(await change).toMatchObject({ added: [], removed: ["b"], changed: [] });
    expect(names(rt)).toEqual(["a"]);
  });

  it("goes on past a listener that throws: its error is the process's uncaught exception", async () => {
    const saved = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    const thrown: unknown[] = [];
    process.on("uncaughtException", (error) => thrown.push(error));
    try {
      w.on("change", () => {
        throw new Error("listener bug");
      });
      await writeNetwork(d.confDir, "20-b.conflist", "b");
      await w.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(thrown.map(String)).toEqual(["Error: listener bug"]);
      await writeNetwork(d.confDir, "30-c.conflist", "c");
      await w.flush();
      await new Promise((resolve) => setImmediate(resolve));
      expect(names(rt)).toEqual(["a", "b", "c"]);
      expect(thrown).toHaveLength(2);
      w.on("close", () => {
        throw new Error("close listener bug");
      });
      await w.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(thrown.map(String).at(-1)).toBe("Error: close listener bug");
    } finally {
      process.removeAllListeners("uncaughtException");
      for (const listener of saved) process.on("uncaughtException", listener);
    }
  });

  it("follows an editor's save: write a temp file, rename it over the original", async () => {
    const change = nextChange(w);
    const tmp = join(d.confDir, ".10-a.conflist.swp");
    await writeFile(
      tmp,
      JSON.stringify({ cniVersion: "1.0.0", name: "a", plugins: [{ type: "edited" }] }),
    );
    await rename(tmp, join(d.confDir, "10-a.conflist"));
    expect((await change).changed).toEqual(["a"]);
    expect(rt.networkSet.get("a")?.config.plugins[0].network.type).toBe("edited");
  });

  it("settles a burst of 100 writes with the final content", async () => {
    const done = nextChange(w, (c) => c.set.get("burst")?.config.plugins[0].network.type === "t99");
    for (let i = 0; i < 100; i++) {
      await writeNetwork(d.confDir, "50-burst.conflist", "burst", [`t${i}`]);
    }
    await done;
    expect(rt.networkSet.get("burst")?.config.plugins[0].network.type).toBe("t99");
  });

  it("debounces: events within the quiet time make one reload", async () => {
    await w.close();
    w = rt.watch({ debounce: 600_000, persistent: false });
    let reloads = 0;
    w.on("reload", () => reloads++);
    for (let i = 0; i < 100; i++) {
      await writeNetwork(d.confDir, "50-burst.conflist", "burst", [`t${i}`]);
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(reloads).toBe(0);
    await w.flush();
    expect(reloads).toBe(1);
    expect(rt.networkSet.get("burst")?.config.plugins[0].network.type).toBe("t99");
  });

  it("follows the last network away: a set that is not ready, no error", async () => {
    const errors: unknown[] = [];
    w.on("error", (e) => errors.push(e));
    const change = nextChange(w);
    await rm(join(d.confDir, "10-a.conflist"));
    expect(await change).toMatchObject({ removed: ["a"] });
    expect(names(rt)).toEqual([]);
    expect(rt.networkSet.notReady).toBeInstanceOf(NoNetworksError);
    expect(errors).toEqual([]);
  });

  it("stops on close: later changes are not picked up", async () => {
    await w.close();
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    await new Promise((r) => setTimeout(r, 80));
    expect(names(rt)).toEqual(["a"]);
  });

  it("flush reloads at once", async () => {
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    await w.flush();
    expect(names(rt)).toEqual(["a", "b"]);
  });
});

describe("diffSets", () => {
  it("names a changed default network as changed", async () => {
    const d = await dirs();
    try {
      await writeNetwork(d.confDir, "10-a.conflist", "a");
      await writeNetwork(d.confDir, "20-b.conflist", "b");
      const fake = new FakePlugins();
      const one = await loadNetworks({ confDir: d.confDir, exec: fake.exec });
      const two = await loadNetworks({ confDir: d.confDir, exec: fake.exec, defaultNetwork: "b" });
      expect(diffSets(one.networkSet, two.networkSet)).toMatchObject({
        added: [],
        removed: [],
        changed: ["a", "b"],
      });
    } finally {
      await d.cleanup();
    }
  });
});
