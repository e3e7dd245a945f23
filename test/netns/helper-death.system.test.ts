/**
 * libcni/netns when the spawner helper dies (root): a request it never carried out is asked
 * again of a new helper, once; what still fails is a NetnsError whose `cause` is the helper's
 * error, never the helper's error itself. The helper is stopped (SIGSTOP) before the request is
 * written and SIGKILLed after, so it surely never read it.
 */
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { sharedSpawner } from "../../src/engines/start/select.js";
import { NetnsError, SpawnerExitedError } from "../../src/errors/index.js";
import { createNetns, execInNetns, isNetns, removeNetns } from "../../src/netns/index.js";

const prefix = `lcnihd-${process.pid}`;
let counter = 0;
const uniqueName = (label: string) => `${prefix}-${++counter}-${label}`;
const created: string[] = [];
const mechanism = "spawner";
const spawner = sharedSpawner();

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  for (const path of created) await removeNetns(path).catch(() => undefined);
});

/**
 * The helper answering each of the next `times` namespace requests is killed before it reads
 * it; the requests after those go through. Returns the pids killed.
 */
function killHelperOnRequests(times: number): number[] {
  const killed: number[] = [];
  let left = times;
  const original = spawner.netnsRequest.bind(spawner);
  vi.spyOn(spawner, "netnsRequest").mockImplementation(async (pin, path, shareDir) => {
    if (left-- <= 0) return original(pin, path, shareDir);
    // A helper that said HELLO, stopped: the request waits in its pipe, unread.
    await spawner.probe();
    const pids = spawner.helpers.map((h) => h.pid as number);
    for (const pid of pids) process.kill(pid, "SIGSTOP");
    const answer = original(pin, path, shareDir);
    for (const pid of pids) process.kill(pid, "SIGKILL");
    killed.push(...pids);
    return answer;
  });
  return killed;
}

describe("the spawner helper killed before it answers", () => {
  it("a remove: asked again of a new helper, it succeeds", async () => {
    const path = await createNetns(uniqueName("remove-once"), { mechanism });
    created.push(path);
    const killed = killHelperOnRequests(1);
    await removeNetns(path, { mechanism });
    expect(killed.length).toBeGreaterThan(0);
    expect(spawner.netnsRequest).toHaveBeenCalledTimes(2);
    expect(await isNetns(path)).toBe(false);
    await expect(stat(path)).rejects.toThrow(/ENOENT/);
    expect(spawner.helpers.map((h) => h.pid)).not.toContain(killed[0]);
  });

  it("a remove, and its retry: a NetnsError with the helper's error as cause; the namespace stays", async () => {
    const path = await createNetns(uniqueName("remove-twice"), { mechanism });
    created.push(path);
    const killed = killHelperOnRequests(2);
    const error = await removeNetns(path, { mechanism }).catch((e) => e);
    // The retry happened, on a new helper: two requests, each to a helper of its own.
    expect(spawner.netnsRequest).toHaveBeenCalledTimes(2);
    expect(killed.length).toBeGreaterThanOrEqual(2);
    expect(new Set(killed).size).toBe(killed.length);
    expect(error).toBeInstanceOf(NetnsError);
    expect(error.reason).toBe("failed");
    expect(error.path).toBe(path);
    expect(error.cause).toBeInstanceOf(SpawnerExitedError);
    expect(error.message).toContain("exited (SIGKILL)");
    expect(error.message).not.toMatch(/CAP_SYS_ADMIN/);
    // Nothing was done: the namespace is still pinned, and a later remove takes it.
    expect(await isNetns(path)).toBe(true);
    vi.restoreAllMocks();
    await removeNetns(path, { mechanism });
    expect(await isNetns(path)).toBe(false);
  });

  it("a create: asked again of a new helper, it succeeds", async () => {
    killHelperOnRequests(1);
    const path = await createNetns(uniqueName("create-once"), { mechanism });
    created.push(path);
    expect(spawner.netnsRequest).toHaveBeenCalledTimes(2);
    expect(await isNetns(path)).toBe(true);
    await removeNetns(path, { mechanism });
  });

  it("a create, and its retry: a NetnsError with the helper's error as cause; nothing left", async () => {
    const killed = killHelperOnRequests(2);
    const name = uniqueName("create-twice");
    const error = await createNetns(name, { mechanism }).catch((e) => e);
    expect(spawner.netnsRequest).toHaveBeenCalledTimes(2);
    expect(killed.length).toBeGreaterThanOrEqual(2);
    expect(new Set(killed).size).toBe(killed.length);
    expect(error).toBeInstanceOf(NetnsError);
    expect(error.reason).toBe("failed");
    expect(error.cause).toBeInstanceOf(SpawnerExitedError);
    await expect(stat(`/run/netns/${name}`)).rejects.toThrow(/ENOENT/);
  });
});

describe("the spawner helper killed while a program runs in a namespace", () => {
  it("the run fails with a NetnsError (the helper's error as cause), not a result", async () => {
    const path = await createNetns(uniqueName("exec"), { mechanism });
    created.push(path);
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
    try {
      // Killed once the helper has said the program started (killed before, the run would go
      // to a new helper and run again): the program marks itself a second after its start, long
      // after the helper's STARTED, which it writes as soon as the spawn returns (on a busy
      // machine the program could otherwise mark itself before that frame went out).
      const marker = join(dir, "running");
      const run = execInNetns(path, ["sh", "-c", 'sleep 1; touch "$0"; sleep 30', marker], {
        mechanism,
      });
      const started = Date.now();
      while (
        !(await stat(marker).then(
          () => true,
          () => false,
        ))
      ) {
        if (Date.now() - started > 10_000) throw new Error("the run never started");
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      for (const helper of spawner.helpers) process.kill(helper.pid as number, "SIGKILL");
      const error = await run.then(
        (result) => result,
        (e) => e,
      );
      expect(error).toBeInstanceOf(NetnsError);
      expect(error.reason).toBe("failed");
      expect(error.cause).toBeInstanceOf(SpawnerExitedError);
      // The next run goes to a new helper.
      const after = await execInNetns(path, ["true"], { mechanism });
      expect(after.exitCode).toBe(0);
    } finally {
      await removeNetns(path, { mechanism });
      await rm(dir, { recursive: true, force: true });
    }
  });
});
