/**
 * Owners for the sweep's tests: a pid that is gone, a live process of the test's own (its start
 * time read from /proc), and names of the library's scheme made for any of them.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import {
  ownerPart,
  processStart,
  type TestNameOwner,
  testNamePrefix,
  thisOwner,
} from "../../src/testing/names.js";

/** This process as an owner; the tests need /proc. */
export async function self(): Promise<TestNameOwner> {
  const owner = await thisOwner();
  if (owner === undefined) throw new Error("these tests need /proc (Linux)");
  return owner;
}

/** The pid of a process that ran and is gone (reaped). */
export async function deadPid(): Promise<number> {
  const child = spawn("true", { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error("cannot start true");
  await once(child, "exit");
  return pid;
}

/** A process that stays until stopped: an owner that is alive. */
export interface LiveProcess {
  readonly child: ChildProcess;
  readonly owner: TestNameOwner;
  stop(): Promise<void>;
}

export async function liveProcess(): Promise<LiveProcess> {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  const pid = child.pid;
  if (pid === undefined) throw new Error("cannot start sleep");
  const start = await processStart(pid);
  if (start === undefined) throw new Error(`no /proc/${pid}/stat`);
  const exited = once(child, "exit");
  return {
    child,
    owner: { pid, start, ns: (await self()).ns },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

/** An owner with this process's namespaces: `pid`, started at `start`. */
export async function ownerOf(pid: number, start: string): Promise<TestNameOwner> {
  return { pid, start, ns: (await self()).ns };
}

/** A name of the library's scheme for `owner`: `<prefix>-<owner>-<n>[-<rest>]`. */
export function nameFor(
  owner: TestNameOwner,
  options: { prefix?: string; n?: number; rest?: string } = {},
): string {
  const base = `${options.prefix ?? testNamePrefix}-${ownerPart(owner)}-${options.n ?? 1}`;
  return options.rest === undefined ? base : `${base}-${options.rest}`;
}
