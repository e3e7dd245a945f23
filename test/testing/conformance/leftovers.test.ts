// The checker's hunt for what a plugin left running (issue 39, item 3) never ends a process
// that is not the plugin's: a recorded process group whose id names another process now (the
// plugin's pid reused) is left alone and not reported, and of a group whose leader is gone only
// the members that started after it are ended. Process groups of the test's own stand for the
// plugins' (detached: each leads a session and a group of its own); no root needed.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdir, readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { isRunning, readProcStat } from "../../../src/internal/proc-stat.js";
import {
  endLeftovers,
  type PluginGroup,
  pluginGroup,
} from "../../../src/testing/conformance/leftovers.js";

/** Every process the tests started (leaders and members): SIGKILLed after each test. */
const started: number[] = [];
const leaders: ChildProcess[] = [];

afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {}
  }
  for (const child of leaders.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
  }
});

async function running(pid: number): Promise<boolean> {
  const stat = await readProcStat(pid);
  return stat !== undefined && isRunning(stat);
}

/**
 * The processes of group `pgid` other than its leader, once there are `count` of them running
 * `sleep` (a member forked but not yet exec'd still has the leader's command line).
 */
async function members(pgid: number, count: number): Promise<number[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found: number[] = [];
    for (const name of await readdir("/proc")) {
      if (!/^\d+$/.test(name) || Number(name) === pgid) continue;
      const stat = await readProcStat(name);
      const comm = await readFile(`/proc/${name}/comm`, "latin1").catch(() => "");
      if (stat?.pgrp === pgid && isRunning(stat) && comm.trim() === "sleep") {
        found.push(Number(name));
      }
    }
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`group ${pgid}: ${found.length} of ${count}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A group like a plugin's: a leader in a session of its own (`sh`, until its stdin closes) and
 * a member it started (`sleep`, stdio on /dev/null as a leftover has it).
 */
async function group(seconds: number): Promise<{
  leader: ChildProcess;
  pgid: number;
  member: number;
  close(): Promise<void>;
}> {
  const leader = spawn(
    "sh",
    ["-c", `sleep ${seconds} </dev/null >/dev/null 2>&1 & read line; exit 0`],
    { detached: true, stdio: ["pipe", "ignore", "ignore"] },
  );
  leaders.push(leader);
  const pgid = leader.pid;
  if (pgid === undefined) throw new Error("cannot start sh");
  started.push(pgid);
  const [member] = await members(pgid, 1);
  started.push(member);
  return {
    leader,
    pgid,
    member,
    async close() {
      leader.stdin?.end();
      await once(leader, "exit");
    },
  };
}

/** The start time of `pid`, moved by `ticks`: another process's, earlier or later. */
async function startOf(pid: number, ticks = 0n): Promise<string> {
  const start = (await readProcStat(pid))?.start;
  if (start === undefined) throw new Error(`no start time for ${pid}`);
  return String(BigInt(start) + ticks);
}

const noNamespaces = new Map<string, "host" | "pod">();
const hunt = (groups: PluginGroup[]) => endLeftovers(groups, noNamespaces);

// /proc and process groups: Linux, as every tier of the project runs.
describe("the checker's leftover hunt", () => {
  it("records a plugin's group with its leader's start time", async () => {
    const g = await group(601);
    expect(await pluginGroup(g.pgid)).toEqual({ pgid: g.pgid, start: await startOf(g.pgid) });
    // A process that leads no group of its own is no plugin's leader: no start time trusted.
    expect(await pluginGroup(g.member)).toEqual({ pgid: g.member, start: undefined });
  });

  it("leaves alone a group whose id names another process now (a reused pid), and reports nothing", async () => {
    const g = await group(602);
    // The plugin recorded at this pid started earlier: the live leader is another process.
    const found = await hunt([{ pgid: g.pgid, start: await startOf(g.pgid, -1n) }]);
    expect(found).toEqual([]);
    expect(await running(g.pgid)).toBe(true);
    expect(await running(g.member)).toBe(true);
  });

  it("ends nothing where /proc is not of this pid namespace (its pids name others to kill)", async () => {
    const g = await group(607);
    // What `unshare -p` without a new /proc gives: /proc/self is not process.pid.
    const pid = Object.getOwnPropertyDescriptor(process, "pid") as PropertyDescriptor;
    Object.defineProperty(process, "pid", { ...pid, value: process.pid + 1 });
    try {
      expect(await hunt([{ pgid: g.pgid, start: await startOf(g.pgid) }])).toEqual([]);
    } finally {
      Object.defineProperty(process, "pid", pid);
    }
    expect(await running(g.member)).toBe(true);
  });

  it("ends and reports the members of a group whose live leader is the one recorded", async () => {
    const g = await group(603);
    const found = await hunt([{ pgid: g.pgid, start: await startOf(g.pgid) }]);
    expect(found).toEqual([{ command: "sleep 603", how: "group", where: "elsewhere" }]);
    expect(await running(g.member)).toBe(false);
  });

  it("of a group whose leader is gone, ends the members that started after it", async () => {
    const g = await group(604);
    const start = await startOf(g.pgid);
    await g.close();
    expect(await running(g.member)).toBe(true);
    const found = await hunt([{ pgid: g.pgid, start }]);
    expect(found).toEqual([{ command: "sleep 604", how: "group", where: "elsewhere" }]);
    expect(await running(g.member)).toBe(false);
  });

  it("of a group whose leader is gone, leaves alone members that started before the recorded leader", async () => {
    const g = await group(605);
    await g.close();
    // The recorded plugin started after this member: the group it led is not this one.
    const found = await hunt([{ pgid: g.pgid, start: await startOf(g.member, 1n) }]);
    expect(found).toEqual([]);
    expect(await running(g.member)).toBe(true);
  });

  it("trusts no group whose leader's start time was never read", async () => {
    const g = await group(606);
    await g.close();
    expect(await hunt([{ pgid: g.pgid, start: undefined }])).toEqual([]);
    expect(await running(g.member)).toBe(true);
  });
});
