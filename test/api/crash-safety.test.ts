import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CNICacheV1, decodeCacheRecord } from "../../src/cache/record.js";
import { isTempName } from "../../src/engines/files/atomic-write.js";

const root = join(import.meta.dirname, "../..");
const writer = join(import.meta.dirname, "fixtures/cache-writer.mjs");

let cacheDir: string;
beforeAll(() => {
  // The writer runs the built library, as a plugin or runtime would: `npm test` builds first.
  if (!existsSync(join(root, "build/cache/results.js"))) {
    throw new Error("build/cache/results.js is missing: run `npm run build` before this test");
  }
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-api-crash-"));
});
afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

/**
 * Starts the writer, waits until it is rewriting its records (every record exists and one round
 * of writes is done), lets it run a random while, kills it.
 */
async function killOnce(dir: string, mode: string, pad: number): Promise<void> {
  const child: ChildProcess = spawn(process.execPath, [writer, dir, mode], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, PAD: String(pad) },
  });
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`writer exited early with code ${code}`)));
  });
  await new Promise((resolve) => setTimeout(resolve, Math.random() * 25));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
}

/** Reads every record in results/, returning the names of those that do not parse. */
function tornRecords(dir: string): string[] {
  const results = join(dir, "results");
  const torn: string[] = [];
  for (const name of readdirSync(results)) {
    if (isTempName(name)) continue;
    try {
      const record = decodeCacheRecord(readFileSync(join(results, name)));
      if (
        record.kind !== CNICacheV1 ||
        record.ifName === "" ||
        record.capabilityArgs?.seq === undefined
      ) {
        torn.push(name);
      }
    } catch {
      torn.push(name);
    }
  }
  return torn;
}

async function run(
  dir: string,
  mode: string,
  kills: number,
  pad: number,
): Promise<{ torn: number; seen: number }> {
  // A few writers at a time, each slot starting its next writer as soon as its last one was
  // killed and checked (no round waits for its slowest writer).
  const parallel = 3;
  mkdirSync(join(dir, "results"), { recursive: true, mode: 0o700 });
  let torn = 0;
  let seen = 0;
  let started = 0;
  const slot = async (i: number): Promise<void> => {
    // Each slot has its own cache directory, so the parallel writers do not share records.
    const d = join(dir, `w${i}`);
    mkdirSync(join(d, "results"), { recursive: true, mode: 0o700 });
    while (started < kills) {
      started++;
      await killOnce(d, mode, pad);
      const names = readdirSync(join(d, "results")).filter((n) => !isTempName(n));
      seen += names.length;
      torn += tornRecords(d).length;
      // Start the next writer from a good state in the control, so each kill is counted once.
      if (mode === "in-place") {
        rmSync(join(d, "results"), { recursive: true, force: true });
        mkdirSync(join(d, "results"), { recursive: true, mode: 0o700 });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, kills) }, (_, i) => slot(i)));
  return { torn, seen };
}

describe("crash safety of the cache writer", () => {
  it("leaves only whole records after 100 SIGKILLs at random moments of the rewrites", async () => {
    // Every kill lands while the records are being rewritten (the writer says "ready" only
    // after a first round of writes). Under these kills the
    // in-place write (the control's) tears a 128 KiB record in about half of them, so a writer
    // that is not atomic survives 100 kills with odds of about 2^-100.
    const { torn, seen } = await run(join(cacheDir, "atomic"), "atomic", 100, 128 * 1024);
    expect(seen).toBe(100 * 3);
    expect(torn).toBe(0);
  }, 240_000);

  it("control: upstream's in-place write leaves torn records under the same kills", async () => {
    // Shows the harness can see a torn record: os.WriteFile truncates, then writes.
    // Larger records widen the window between the truncation and the end of the write.
    const { torn } = await run(join(cacheDir, "in-place"), "in-place", 40, 1024 * 1024);
    console.log(`control: ${torn} torn records after 40 kills`);
    expect(torn).toBeGreaterThan(0);
  }, 120_000);
});
