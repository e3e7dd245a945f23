/**
 * The cache write's retry after its results directory vanished: two writers that both find it
 * gone share one MkdirAll, so neither reports its record durable before the directory's own
 * creation is flushed (its parent's fsync, slowed here through the fs seam).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { cacheFilePath, resultsDir, writeCacheRecord } from "../../src/cache/results.js";

const seam = vi.hoisted(() => ({
  slowDir: "",
  paths: new Map<number, string>(),
  events: [] as string[],
}));

vi.mock("../../src/internal/fs.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/internal/fs.js")>();
  return {
    ...real,
    openFd: async (...args: Parameters<typeof real.openFd>) => {
      const fd = await real.openFd(...args);
      seam.paths.set(fd, String(args[0]));
      return fd;
    },
    fsyncFd: async (fd: number) => {
      if (seam.paths.get(fd) === seam.slowDir) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        await real.fsyncFd(fd);
        seam.events.push("parent flushed");
        return;
      }
      await real.fsyncFd(fd);
    },
  };
});

let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-results-retry-"));
  Object.assign(seam, { slowDir: cacheDir, events: [] });
});
afterEach(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

it("two writers that find the results directory gone both wait for its creation's flush", async () => {
  const record = new TextEncoder().encode("{}");
  await writeCacheRecord(cacheFilePath(cacheDir, "n", "first", "eth0"), record);
  await rm(resultsDir(cacheDir), { recursive: true });
  seam.events.length = 0;
  const write = async (id: string) => {
    await writeCacheRecord(cacheFilePath(cacheDir, "n", id, "eth0"), record);
    seam.events.push(`${id} written`);
  };
  await Promise.all([write("w1"), write("w2")]);
  expect(seam.events[0]).toBe("parent flushed");
  expect(seam.events.slice(1).sort()).toEqual(["w1 written", "w2 written"]);
});
