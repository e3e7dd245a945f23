/** /proc/<pid>/stat, read in one place for the few fields the library uses. */
import { readdir, readFile, readlink } from "node:fs/promises";

export interface ProcStat {
  /** Field 3: R, S, D, Z (zombie), X (dead)... */
  readonly state: string;
  /** Fields 4, 5 and 6. */
  readonly ppid: number;
  readonly pgrp: number;
  readonly session: number;
  /**
   * Field 22: the start time in clock ticks since boot, as the file writes it (a decimal);
   * with the pid it names one process for good. Undefined when the text has none.
   */
  readonly start: string | undefined;
}

/** The fields of a /proc/<pid>/stat text; undefined when it is not one. */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  // The command name may hold spaces and parentheses; the fields after the last ")" do not.
  const fields = text.slice(close + 2).split(" ");
  if (fields.length < 4) return undefined;
  const start = fields[19];
  return {
    state: fields[0],
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    session: Number(fields[3]),
    start: start !== undefined && /^\d+$/.test(start) ? start : undefined,
  };
}

/** Undefined when the process is gone or its stat unreadable. */
export async function readProcStat(pid: number | string): Promise<ProcStat | undefined> {
  return readFile(`/proc/${pid}/stat`, "latin1")
    .then(parseProcStat)
    .catch(() => undefined);
}

/** True for a process that still runs: neither a zombie nor dead. */
export function isRunning(stat: ProcStat): boolean {
  return stat.state !== "Z" && stat.state !== "X";
}

/** True when /proc is of this process's pid namespace (not so under `unshare -p` alone). */
export async function procIsOurs(): Promise<boolean> {
  return (await readlink("/proc/self").catch(() => undefined)) === String(process.pid);
}

/** The pids /proc lists; undefined where it cannot be listed (no /proc). */
export async function listPids(): Promise<number[] | undefined> {
  const names = await readdir("/proc").catch(() => undefined);
  return names?.filter((name) => /^\d+$/.test(name)).map(Number);
}
