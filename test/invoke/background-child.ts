/**
 * What a run leaves when its plugin exits at once with a child in its process group that holds
 * none of its pipes (fixtures/plugins/background-child): as upstream's exec, the library kills
 * nothing after a plugin exits, whatever starts it. Shared by background-child.test.ts (the
 * direct spawn) and background-child.system.test.ts (the spawner helper, execInNetns).
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "vitest";
import {
  fixture,
  killQuietly,
  makeTempDir,
  processGone,
  readPids,
  removeTempDir,
  sleep,
} from "./helpers.js";

export const backgroundChild = fixture("background-child");

/** The process group of `pid` (field 5 of /proc/<pid>/stat). */
async function pgrpOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

/**
 * Runs the fixture through `run` (given FIXTURE_PIDFILE's path, it resolves to the plugin's
 * stdout) and checks that the call returned the plugin's answer while its child, in the
 * plugin's group, still runs, and still runs past any grace period the run had.
 */
export async function expectChildOutlivesCall(
  run: (pidFile: string) => Promise<string>,
  graceMs: number,
): Promise<void> {
  const dir = await makeTempDir("libcni-background-");
  let pids: number[] = [];
  try {
    const pidFile = join(dir, "pids");
    expect(await run(pidFile)).toBe('{"cniVersion":"1.1.0"}');
    pids = await readPids(pidFile, 2);
    const [plugin, child] = pids;
    expect(await processGone(plugin)).toBe(true);
    expect(await processGone(child)).toBe(false);
    expect(await pgrpOf(child)).toBe(plugin);
    // No timer of the run is left to end it later.
    await sleep(graceMs + 300);
    expect(await processGone(child)).toBe(false);
  } finally {
    killQuietly(pids.slice(1));
    await removeTempDir(dir);
  }
}
