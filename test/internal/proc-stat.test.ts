import { describe, expect, it } from "vitest";
import {
  isRunning,
  listPids,
  parseProcStat,
  procIsOurs,
  readProcStat,
} from "../../src/internal/proc-stat.js";

// A stat line of 52 fields: the command name holds spaces and parentheses.
const line = (comm: string, state = "S") =>
  `4242 (${comm}) ${state} 17 4242 4240 0 -1 4194560 101 0 0 0 3 1 0 0 20 0 1 0 987654 1000 200`;

describe("parseProcStat", () => {
  it("reads state, ppid, pgrp, session and start after the last ')'", () => {
    expect(parseProcStat(line("a) (b c"))).toEqual({
      state: "S",
      ppid: 17,
      pgrp: 4242,
      session: 4240,
      start: "987654",
    });
  });

  it("says no start time when the text has none, and undefined for no stat at all", () => {
    expect(parseProcStat("1 (x) R 0 1 1")?.start).toBeUndefined();
    expect(parseProcStat("garbage")).toBeUndefined();
    expect(parseProcStat("1 (x)")).toBeUndefined();
  });

  it("tells zombies and dead processes from running ones", () => {
    expect(isRunning(parseProcStat(line("z", "Z"))!)).toBe(false);
    expect(isRunning(parseProcStat(line("x", "X"))!)).toBe(false);
    expect(isRunning(parseProcStat(line("r", "R"))!)).toBe(true);
  });
});

describe("readProcStat", () => {
  it("reads this process, and undefined for a pid that is not there", async () => {
    const self = await readProcStat(process.pid);
    expect(self?.start).toMatch(/^\d+$/);
    expect(self?.ppid).toBe(process.ppid);
    expect(await readProcStat(2 ** 22 + 1)).toBeUndefined();
  });
});

describe("listPids", () => {
  it("lists this process among /proc's pids", async () => {
    expect(await listPids()).toContain(process.pid);
  });
});

describe("procIsOurs", () => {
  it("is true here, and false when /proc/self names another pid than process.pid", async () => {
    expect(await procIsOurs()).toBe(true);
    // What `unshare -p` without a new /proc gives (test/testing/rootless-procns.system.test.ts).
    const pid = Object.getOwnPropertyDescriptor(process, "pid")!;
    Object.defineProperty(process, "pid", { ...pid, value: process.pid + 1 });
    try {
      expect(await procIsOurs()).toBe(false);
    } finally {
      Object.defineProperty(process, "pid", pid);
    }
  });
});
