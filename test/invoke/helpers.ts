/**
 * Shared helpers for the invoke tests: fixture paths, temporary directories, process checks.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The fixture plugins directory. */
export const pluginsDir: string = fileURLToPath(new URL("../fixtures/plugins/", import.meta.url));

/** The absolute path of a fixture plugin. */
export function fixture(name: string): string {
  return join(pluginsDir, name);
}

/** Makes a temporary directory; remove it with {@link removeTempDir}. */
export function makeTempDir(prefix = "libcni-invoke-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Removes a directory made by {@link makeTempDir}. */
export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/** This process's environment as `KEY=value` strings plus the given extra entries. */
export function envWith(extra: Record<string, string>): string[] {
  const env: string[] = [];
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env.push(`${k}=${v}`);
  for (const [k, v] of Object.entries(extra)) env.push(`${k}=${v}`);
  return env;
}

/**
 * True when no live process has this pid. A zombie counts as gone: it runs nothing, and reaping
 * orphans is init's job (some container inits never do it).
 */
export async function processGone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}

/** Reads pids a fixture wrote to its FIXTURE_PIDFILE, waiting for the file to appear. */
export async function readPids(path: string, count: number, timeoutMs = 5000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const pids = (await readFile(path, "utf8")).trim().split(/\s+/).map(Number);
      if (pids.length >= count && pids.every((p) => Number.isInteger(p) && p > 0)) return pids;
    } catch {
      // Not written yet.
    }
    if (Date.now() > deadline) throw new Error(`no pids in ${path}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Kills leftover pids a failed test may leave, ignoring those already gone. */
export function killQuietly(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Awaits a promise expected to reject and returns the rejection, failing if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error("expected a rejection, but the promise resolved");
}

/**
 * The composites Node's AbortSignal.any keeps listed on `signal` (0 where Node keeps none): a
 * signal a runtime passes to every call must not collect them (test/runtime/shared-signal).
 */
export function abortDependants(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find(
    (s) => s.description === "kDependantSignals",
  );
  const set =
    key === undefined ? undefined : (signal as unknown as Record<symbol, Set<unknown>>)[key];
  return set?.size ?? 0;
}
