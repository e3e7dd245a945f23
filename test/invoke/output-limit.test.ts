/**
 * Bounded output: a plugin that floods stdout or stderr is stopped with a clear error, and the
 * runtime's memory stays flat while it writes a gigabyte. (Upstream buffers everything.)
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginExecError } from "../../src/errors/index.js";
import { defaultMaxOutputBytes, RawExec } from "../../src/invoke/raw-exec.js";
import { ErrIOFailure } from "../../src/types/error-codes.js";
import { envWith, fixture, makeTempDir, rejection, removeTempDir } from "./helpers.js";

const stdin = new TextEncoder().encode("{}");
const GiB = 1024 * 1024 * 1024;

/** Runs `fn` while sampling this process's RSS; returns the peak growth over the start. */
async function peakRssGrowth(fn: () => Promise<unknown>): Promise<number> {
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    await fn();
  } finally {
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage.rss());
  }
  return peak - start;
}

describe("RawExec output cap", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  it("defaults to 16 MiB per stream", () => {
    expect(defaultMaxOutputBytes).toBe(16 * 1024 * 1024);
    expect(new RawExec().maxOutputBytes).toBe(16 * 1024 * 1024);
  });

  it(
    "stops a plugin writing 1 GiB to stdout at the default cap, with memory flat",
    { timeout: 60_000 },
    async () => {
      let error: Error | undefined;
      const growth = await peakRssGrowth(async () => {
        error = await rejection(
          new RawExec({ stderr: null }).execPlugin(fixture("flood-stdout"), stdin, envWith({})),
        );
      });
      expect(error).toBeInstanceOf(PluginExecError);
      const e = error as PluginExecError;
      expect(e.message).toBe(
        "netplugin failed: its stdout exceeded the 16777216-byte limit and it was stopped: signal: terminated",
      );
      expect(e.code).toBe(ErrIOFailure);
      expect(e.stdout.length).toBe(16 * 1024 * 1024);
      expect(e.signal).toBe("SIGTERM");
      // 1 GiB was on offer; what is kept is the 16 MiB cap plus the runtime's own churn.
      expect(growth).toBeLessThan(160 * 1024 * 1024);
    },
  );

  it(
    "keeps memory flat while a plugin that ignores SIGTERM writes a whole GiB",
    { timeout: 90_000 },
    async () => {
      const done = join(dir, "done");
      let error: PluginExecError | undefined;
      const growth = await peakRssGrowth(async () => {
        error = (await rejection(
          new RawExec({ stderr: null, graceMs: 60_000, maxOutputBytes: 1024 * 1024 }).execPlugin(
            fixture("flood-stdout"),
            stdin,
            envWith({ FLOOD_IGNORE_TERM: "1", FLOOD_DONE_FILE: done, FLOOD_BYTES: String(GiB) }),
          ),
        )) as PluginExecError;
      });
      // The plugin really wrote every byte (its output was read and discarded past the cap).
      expect(await readFile(done, "utf8")).toBe("done\n");
      expect(error?.message).toBe(
        "netplugin failed: its stdout exceeded the 1048576-byte limit and it was stopped: exit status 0",
      );
      expect(error?.stdout.length).toBe(1024 * 1024);
      expect(growth).toBeLessThan(100 * 1024 * 1024);
    },
  );

  it("caps stderr too", async () => {
    const error = (await rejection(
      new RawExec({ stderr: null, maxOutputBytes: 4096 }).execPlugin(
        fixture("flood-stdout"),
        stdin,
        envWith({ FLOOD_STREAM: "stderr", FLOOD_BYTES: "100000000" }),
      ),
    )) as PluginExecError;
    expect(error.message).toMatch(
      /^netplugin failed: its stderr exceeded the 4096-byte limit and it was stopped: /,
    );
    expect(error.stderr.length).toBe(4096);
    expect(error.stdout.length).toBe(0);
  });

  it("accepts output of exactly the cap", async () => {
    const out = await new RawExec({ stderr: null, maxOutputBytes: 5000 }).execPlugin(
      fixture("flood-stdout"),
      stdin,
      envWith({ FLOOD_BYTES: "5000" }),
    );
    expect(out.length).toBe(5000);
    expect(out.every((b) => b === 0)).toBe(true);
  });

  it("fails output of one byte over the cap", async () => {
    const error = await rejection(
      new RawExec({ stderr: null, maxOutputBytes: 5000 }).execPlugin(
        fixture("flood-stdout"),
        stdin,
        envWith({ FLOOD_BYTES: "5001" }),
      ),
    );
    expect(error.message).toContain("its stdout exceeded the 5000-byte limit");
  });
});
