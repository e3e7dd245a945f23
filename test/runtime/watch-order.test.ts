/**
 * Loads that overlap, and a watch the system refuses: the later read of the conf dir wins
 * whichever load ends first; a failing fs.watch (an inotify limit) neither stops watch() nor a
 * load, the poll following the dir still; a debounce timer keeps no process alive that asked
 * for `persistent: false`.
 */
import { execFile } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type CNIRuntime, loadNetworks, type NetworkWatcher } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const watchFails = vi.hoisted(() => ({ now: false }));
vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:fs")>();
  return {
    ...real,
    watch: (...args: Parameters<typeof real.watch>) => {
      if (watchFails.now) {
        throw Object.assign(new Error("ENOSPC: System limit for number of file watchers reached"), {
          code: "ENOSPC",
        });
      }
      return real.watch(...args);
    },
  };
});

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);
const names = (rt: CNIRuntime) => rt.networks.map((n) => n.name);
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 10));
};

describe("conf dir loads", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  let w: NetworkWatcher | undefined;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(async () => {
    watchFails.now = false;
    await w?.close();
    w = undefined;
    await d.cleanup();
  });

  it("swaps in the later load's set when an earlier one ends after it", async () => {
    // A load looks its plugins up: the first load's lookup is held, so that it ends last.
    let release: (() => void) | undefined;
    const find = fake.exec.findInPath.bind(fake.exec);
    fake.exec.findInPath = async (plugin, paths) => {
      if (release === undefined) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      return find(plugin, paths);
    };
    const first = rt.reload(); // reads a
    await until(() => release !== undefined);
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    await rt.reload(); // reads a and b
    expect(names(rt)).toEqual(["a", "b"]);
    release?.();
    expect((await first).networks.map((n) => n.name)).toEqual(["a", "b"]);
    expect(names(rt)).toEqual(["a", "b"]);
  });

  it("watches on when fs.watch is refused: the poll follows the dir, each load reports it", async () => {
    watchFails.now = true;
    w = rt.watch({ debounce: 10, persistent: false, poll: 20 });
    expect(String(w.lastError)).toContain("ENOSPC");
    await rm(d.confDir, { recursive: true });
    await until(() => rt.networkSet.notReady !== undefined);
    await mkdir(d.confDir);
    await writeNetwork(d.confDir, "10-b.conflist", "b");
    await until(() => names(rt).join() === "b");
    expect(String(w.lastError)).toContain("ENOSPC");
  });
});

describe("persistent: false", () => {
  it("keeps no process alive while a change waits out the debounce", async () => {
    const d = await dirs();
    try {
      await writeNetwork(d.confDir, "10-a.conflist", "a");
      // A debounce far longer than the test: the process ends only if its timer is unref'd.
      const script = `
import { writeFile } from "node:fs/promises";
import { loadNetworks } from ${JSON.stringify(join(root, "dist/runtime/index.js"))};
const [confDir] = process.argv.slice(1);
const rt = await loadNetworks({ confDir });
rt.watch({ debounce: 600000, poll: 0, persistent: false });
await writeFile(confDir + "/20-b.conflist", '{"cniVersion":"1.0.0","name":"b","plugins":[{"type":"x"}]}');
await new Promise((r) => setTimeout(r, 200));
`;
      await run(process.execPath, ["--input-type=module", "-e", script, d.confDir], {
        timeout: 20_000,
      });
    } finally {
      await d.cleanup();
    }
  });
});
