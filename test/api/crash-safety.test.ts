import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTempName } from "../../src/api/atomic-write.js";
import { CNICacheV1, decodeCacheRecord } from "../../src/api/cache-record.js";

const root = join(import.meta.dirname, "../..");
const writer = join(import.meta.dirname, "fixtures/cache-writer.mjs");

let cacheDir: string;
beforeAll(() => {
  // The writer runs the built library, as a plugin or runtime would: `npm test` builds first.
  if (!existsSync(join(root, "dist/api/cache.js"))) {
    throw new Error("dist/api/cache.js is missing: run `npm run build` before this test");
  }
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-api-crash-"));
});
afterAll(() => {
  rmSync(cacheDir, { recursive: true, force: true });
});

/** Starts the writer, waits until every record exists, lets it run a random while, kills it. */
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
  const parallel = 4;
  mkdirSync(join(dir, "results"), { recursive: true, mode: 0o700 });
  let torn = 0;
  let seen = 0;
  for (let done = 0; done < kills; done += parallel) {
    // Each child gets its own cache directory, so the parallel ones do not share records.
    const dirs = Array.from({ length: Math.min(parallel, kills - done) }, (_, i) =>
      join(dir, `w${i}`),
    );
    for (const d of dirs) mkdirSync(join(d, "results"), { recursive: true, mode: 0o700 });
    await Promise.all(dirs.map((d) => killOnce(d, mode, pad)));
    for (const d of dirs) {
      const names = readdirSync(join(d, "results")).filter((n) => !isTempName(n));
      seen += names.length;
      const bad = tornRecords(d);
      torn += bad.length;
      // Start the next round from a good state in the control, so each kill is counted once.
      if (mode === "in-place") rmSync(join(d, "results"), { recursive: true, force: true });
    }
  }
  return { torn, seen };
}

describe("crash safety of the cache writer", () => {
  it("leaves only whole records after 200 SIGKILLs at random moments", async () => {
    const { torn, seen } = await run(join(cacheDir, "atomic"), "atomic", 200, 128 * 1024);
    expect(seen).toBe(200 * 3);
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
