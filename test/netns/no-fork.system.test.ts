/**
 * Creating and removing a namespace through the spawner helper forks nothing: neither the Node
 * process (Node's spawn would fork it, copying the runtime's page tables) nor the helper. Seen
 * by strace, following every process of a child Node that uses the built package; the
 * commands fallback is the control (it must show its forks, or the check sees nothing).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const execFileP = promisify(execFile);

/** The processes (not threads) started between the two markers of the strace log. */
async function forksBetweenMarkers(mechanism: "spawner" | "direct"): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), "lcnins-strace-"));
  try {
    const [start, end] = [join(dir, "start-marker"), join(dir, "end-marker")];
    const dist = join(process.cwd(), "dist/netns/index.js");
    const script = `import { open } from "node:fs/promises";
import { createNetns, removeNetns } from ${JSON.stringify(dist)};
const mark = async (p) => (await open(p, "w")).close();
const opts = { dir: ${JSON.stringify(dir)}, mechanism: ${JSON.stringify(mechanism)} };
// Warm up: the helper starts here (once per process), and the thread pool with it.
await removeNetns(await createNetns("warm", opts), opts);
await mark(${JSON.stringify(start)});
await removeNetns(await createNetns("measured", opts), opts);
await mark(${JSON.stringify(end)});`;
    const log = join(dir, "strace.log");
    await execFileP("strace", [
      "-f",
      "-qq",
      "-e",
      "trace=clone,clone3,fork,vfork,openat",
      "-o",
      log,
      process.execPath,
      "--input-type=module",
      "-e",
      script,
    ]);
    const lines = (await readFile(log, "utf8")).split("\n");
    const from = lines.findIndex((l) => l.includes(start));
    const to = lines.findIndex((l) => l.includes(end));
    expect(from).toBeGreaterThan(0);
    expect(to).toBeGreaterThan(from);
    return lines
      .slice(from, to)
      .filter((l) => /\b(clone3?|v?fork)\(/.test(l) && !l.includes("CLONE_THREAD"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe("creating a namespace does not fork", () => {
  it("through the helper: no process started by Node or by the helper", async () => {
    expect(await forksBetweenMarkers("spawner")).toEqual([]);
  });

  it("the control: the commands fallback forks (so the check sees forks)", async () => {
    expect((await forksBetweenMarkers("direct")).length).toBeGreaterThan(0);
  });
});
