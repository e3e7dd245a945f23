/**
 * Ending processes (internal/process-group.ts): a process alone, only while its pid still names
 * the process that started when it was seen; what still runs after the wait is said.
 */
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { endProcesses } from "../../src/internal/process-group.js";

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
