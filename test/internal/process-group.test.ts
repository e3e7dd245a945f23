/**
 * Ending processes (internal/process-group.ts): a process alone, only while its pid still names
 * the process that started when it was seen; what still runs after the wait is said.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import {
  endGroups,
  endProcesses,
  groupHasLiveProcess,
  killGroup,
} from "../../src/internal/process-group.js";

const startOf = async (pid: number): Promise<string> => {
  const stat = await readFile(`/proc/${pid}/stat`, "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] as string;
};
const runs = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("endProcesses", () => {
  const children: ReturnType<typeof spawn>[] = [];
  const sleeper = () => {
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    children.push(child);
    return child.pid as number;
  };
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });

  it("SIGKILLs the process and resolves once it has ended, with nothing left", async () => {
    const pid = sleeper();
    const exited = new Promise((resolve) => children[0]?.once("exit", resolve));
    expect(await endProcesses(new Map([[pid, await startOf(pid)]]))).toEqual([]);
    await exited;
    expect(runs(pid)).toBe(false);
  });

  it("leaves alone a pid that names a process started at another time", async () => {
    const pid = sleeper();
    const other = String(BigInt(await startOf(pid)) + 1n);
    expect(await endProcesses(new Map([[pid, other]]))).toEqual([]);
    expect(runs(pid)).toBe(true);
  });

  it("resolves to what it did not see end within its wait", async () => {
    const pid = sleeper();
    expect(await endProcesses(new Map([[pid, await startOf(pid)]]), 0)).toEqual([pid]);
  });
});

describe("killGroup and endGroups after a leader was reaped", () => {
  const pids: number[] = [];
  afterEach(() => {
    for (const pid of pids.splice(0)) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {}
    }
  });
  const exitOf = (child: ReturnType<typeof spawn>) =>
    new Promise((resolve) => child.once("exit", resolve));

  it("spares a process that has the pid now (reused) and its group", async () => {
    // What a reused pid looks like: a live process leading a group of that number.
    const other = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
    pids.push(other.pid as number);
    killGroup(other.pid as number, "SIGKILL", true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs(other.pid as number)).toBe(true);
    killGroup(other.pid as number, "SIGKILL");
    await exitOf(other);
  });

  it("groupHasLiveProcess: a reaped leader's pid a process has again reads as an empty group", async () => {
    const other = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
    const pid = other.pid as number;
    pids.push(pid);
    expect(await groupHasLiveProcess(pid)).toBe(true);
    expect(await groupHasLiveProcess(pid, true)).toBe(false);
    const exited = exitOf(other);
    killGroup(pid, "SIGKILL");
    await exited;
  });

  it("endGroups spares a reaped leader's group whose pid a process has again, and does not wait for it", async () => {
    // A helper that dies with a run whose plugin was reaped (a grandchild holds its pipes).
    const other = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
    const pid = other.pid as number;
    pids.push(pid);
    expect(await endGroups([pid], new Set([pid]))).toEqual([]);
    expect(runs(pid)).toBe(true);
    // Not reaped: the group is the run's, and ends.
    const exited = exitOf(other);
    expect(await endGroups([pid])).toEqual([]);
    await exited;
  });

  it("signals what is left of the run's group: no process has the leader's pid", async () => {
    const leader = spawn("sh", ["-c", "sleep 30 & echo $!"], {
      stdio: ["ignore", "pipe", "ignore"],
      detached: true,
    });
    pids.push(leader.pid as number);
    const left = Number(
      (await new Promise<Buffer>((r) => leader.stdout?.once("data", r))).toString(),
    );
    await exitOf(leader);
    expect(runs(left)).toBe(true);
    expect(await groupHasLiveProcess(leader.pid as number, true)).toBe(true);
    killGroup(leader.pid as number, "SIGKILL", true);
    while (
      runs(left) &&
      !/\) Z /.test(await readFile(`/proc/${left}/stat`, "latin1").catch(() => ") Z "))
    )
      await new Promise((resolve) => setTimeout(resolve, 5));
  });
});
