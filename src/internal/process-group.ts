/**
 * Signalling a plugin's whole process group.
 *
 * Plugins are started as the leader of a new process group (a new session, in fact), so
 * whatever they fork (an IPAM helper, a shell's children) can be stopped with them: upstream
 * kills only the direct child (its issue #687), leaving a grandchild that holds the output
 * pipe to outlive the deadline.
 */
import { errnoCode } from "./errno.js";
import { isRunning, listPids, readProcStat } from "./proc-stat.js";

// Windows has no process groups; the direct child is the best that can be done there.
const target = (pgid: number): number => (process.platform === "win32" ? pgid : -pgid);

/**
 * Sends `signal` to every process of the group `pgid`; a group already gone is not an error.
 * `leaderReaped`: its leader has exited and been waited for, so a process of its pid now is
 * another's (the pid reused), whose group is left alone; while the group has members left the
 * kernel keeps the pid from reuse, so a group with no such process is still the run's.
 */
export function killGroup(pgid: number, signal: NodeJS.Signals, leaderReaped = false): void {
  // 0 would be this process's own group, 1 init's: never a plugin's.
  if (!Number.isInteger(pgid) || pgid <= 1 || (leaderReaped && exists(pgid))) return;
  try {
    process.kill(target(pgid), signal);
  } catch (error) {
    if (errnoCode(error) !== "ESRCH" && errnoCode(error) !== "EPERM") throw error;
  }
}

/** True while the process (or, negative, any process of the group) exists, zombies included. */
function exists(pidOrGroup: number): boolean {
  try {
    process.kill(pidOrGroup, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

export const groupExists = (pgid: number): boolean => exists(target(pgid));

/** The process groups among `pgids` that have a process still running (zombies aside). */
async function liveGroups(pgids: ReadonlySet<number>): Promise<Set<number>> {
  const live = new Set<number>();
  const present = [...pgids].filter((pgid) => pgid > 1 && groupExists(pgid));
  if (present.length === 0 || process.platform !== "linux") return new Set(present);
  const pids = await listPids();
  if (pids === undefined) return new Set(present);
  const wanted = new Set(present);
  for (const pid of pids) {
    const stat = await readProcStat(pid);
    if (stat !== undefined && wanted.has(stat.pgrp) && isRunning(stat)) {
      live.add(stat.pgrp);
      if (live.size === wanted.size) break;
    }
  }
  return live;
}

/** Polls `running` until nothing runs or `maxWaitMs` passed (D-state defies signals): the rest. */
async function waitForEnd<T>(
  items: T[],
  running: (items: T[]) => Promise<T[]>,
  maxWaitMs: number,
): Promise<T[]> {
  let left = items;
  const until = Date.now() + maxWaitMs;
  while (left.length > 0 && Date.now() < until) {
    left = await running(left);
    if (left.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return left;
}

/**
 * SIGKILLs every group of `pgids` (but a `reaped` leader's whose pid a process has again: it is
 * another's) and resolves once none has a running process, or after 5 s to the groups that
 * still have one: a run that ends with its owner is known dead before anything undoes it.
 */
export async function endGroups(pgids: Iterable<number>, reaped = new Set<number>()) {
  const groups = [...new Set(pgids)].filter((pgid) => !(reaped.has(pgid) && exists(pgid)));
  for (const pgid of groups) killGroup(pgid, "SIGKILL");
  return waitForEnd(groups, async (left) => [...(await liveGroups(new Set(left)))], 5000);
}

/** True while `pid` is the process that started at `start` and has not ended. */
async function stillRuns(pid: number, start: string): Promise<boolean> {
  const stat = await readProcStat(pid);
  return stat !== undefined && stat.start === start && isRunning(stat);
}

/**
 * SIGKILLs each process of `procs` alone (pid to start time, read again first: a reused pid is
 * left alone); resolves once none runs, or after `maxWaitMs` to the pids that still do.
 */
export async function endProcesses(
  procs: ReadonlyMap<number, string>,
  maxWaitMs = 5000,
): Promise<number[]> {
  const entries = [...procs].filter(([pid]) => Number.isInteger(pid) && pid > 1);
  for (const [pid, start] of entries) {
    if (!(await stillRuns(pid, start))) continue;
    try {
      process.kill(pid, "SIGKILL");
    } catch (error) {
      if (errnoCode(error) !== "ESRCH" && errnoCode(error) !== "EPERM") throw error;
    }
  }
  const running = async (left: [number, string][]) => {
    const runs = await Promise.all(left.map(([pid, start]) => stillRuns(pid, start)));
    return left.filter((_, i) => runs[i]);
  };
  return (await waitForEnd(entries, running, maxWaitMs)).map(([pid]) => pid);
}

/**
 * True while the group has a process that still runs (a zombie, which some container inits never
 * reap, told apart through /proc). `leaderReaped` as for {@link killGroup}: a process of the
 * leader's pid again means the group was empty, whatever group that process leads now.
 */
export async function groupHasLiveProcess(pgid: number, leaderReaped = false): Promise<boolean> {
  if (leaderReaped && exists(pgid)) return false;
  return (await liveGroups(new Set([pgid]))).size > 0;
}
