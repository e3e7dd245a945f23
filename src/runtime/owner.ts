/**
 * The owner of a setup, and what it may have left running.
 *
 * A setup intent names the runtime process that wrote it: its pid and its start time (field 22
 * of /proc/<pid>/stat, clock ticks since boot), which tells a later process with the same pid
 * apart. Plugins run in sessions of their own (so that a run's whole group can be stopped), so
 * a runtime killed mid-setup leaves its plugin running: a plugin that allocates at the end of
 * its ADD would do it after recovery's DEL, and the allocation would leak. Before recovery DELs
 * an intent whose owner is gone, every process still running with that pod's CNI environment
 * (`CNI_CONTAINERID=<pod>` and a `CNI_COMMAND`, set by the dead owner for its plugins and
 * inherited by what they fork) is SIGKILLed with its process group, and known dead first.
 *
 * Off Linux (no /proc) there is no owner to record and nothing is looked for.
 */
import { readdir, readFile } from "node:fs/promises";
import { readProcStat } from "../internal/proc-stat.js";
import { endGroups } from "../invoke/process-group.js";

/** The process that wrote a setup intent. */
export interface SetupOwner {
  readonly pid: number;
  /** Its start time in clock ticks since boot, as /proc/<pid>/stat says it (a decimal). */
  readonly start: string;
}

/** Fields 5 (pgrp) and 22 (starttime) of /proc/<pid>/stat, or undefined when it is gone. */
async function procStat(pid: string): Promise<{ pgrp: number; start: string } | undefined> {
  const stat = await readProcStat(pid);
  return stat?.start === undefined ? undefined : { pgrp: stat.pgrp, start: stat.start };
}

let self: Promise<SetupOwner | undefined> | undefined;

/** This process as an intent's owner (read once). */
export function thisOwner(): Promise<SetupOwner | undefined> {
  self ??= procStat(String(process.pid)).then((stat) =>
    stat === undefined ? undefined : { pid: process.pid, start: stat.start },
  );
  return self;
}

/** True while the owner's process runs: its pid is there, started when it did. */
export async function ownerAlive(owner: SetupOwner): Promise<boolean> {
  const stat = await procStat(String(owner.pid));
  return stat !== undefined && stat.start === owner.start;
}

async function isThisProcess(owner: SetupOwner): Promise<boolean> {
  const me = await thisOwner();
  return me !== undefined && me.pid === owner.pid && me.start === owner.start;
}

/**
 * True when the owner is another process that still runs: the setup is in flight there, and
 * nothing implicit (GC, the list of interrupted setups) may undo it.
 */
export async function ownedElsewhere(owner: SetupOwner | undefined): Promise<boolean> {
  if (owner === undefined || process.platform !== "linux") return false;
  return !(await isThisProcess(owner)) && (await ownerAlive(owner));
}

const batch = 64;

/** True when `environ` (NUL-separated entries) has an entry starting with `prefix`. */
function hasEntry(environ: Buffer, prefix: string): boolean {
  return environ.subarray(0, prefix.length).toString("latin1") === prefix
    ? true
    : environ.includes(`\0${prefix}`, 0, "latin1");
}

/** The process groups of the processes (not this one) whose environment names the pod. */
async function podRunGroups(podID: string, notBefore: bigint): Promise<Set<number>> {
  const groups = new Set<number>();
  let pids: string[];
  try {
    pids = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  } catch {
    return groups;
  }
  const own = await procStat("self");
  const look = async (pid: string): Promise<void> => {
    if (pid === String(process.pid)) return;
    let environ: Buffer;
    try {
      environ = await readFile(`/proc/${pid}/environ`);
    } catch {
      return; // gone, or not ours to read
    }
    if (!hasEntry(environ, `CNI_CONTAINERID=${podID}\0`) || !hasEntry(environ, "CNI_COMMAND=")) {
      return;
    }
    const stat = await procStat(pid);
    if (stat === undefined || BigInt(stat.start) < notBefore) return;
    // A plugin leads its own group; a process of this runtime's group is never signalled.
    if (stat.pgrp > 1 && stat.pgrp !== own?.pgrp) groups.add(stat.pgrp);
  };
  for (let i = 0; i < pids.length; i += batch) {
    await Promise.all(pids.slice(i, i + batch).map(look));
  }
  return groups;
}

/**
 * Ends what a setup's owner left running for the pod, before recovery DELs it: nothing when
 * the owner is this process (its runs are supervised here) or another one still running (its
 * setup is its own); else every process group that carries the pod's CNI environment and
 * started after the owner did (all of them when the intent names no owner) is SIGKILLed, and
 * this resolves once none of them runs. Resolves to the groups ended.
 */
export async function endOrphanedRuns(
  podID: string,
  owner: SetupOwner | undefined,
): Promise<number[]> {
  if (process.platform !== "linux") return [];
  if (owner !== undefined && ((await isThisProcess(owner)) || (await ownerAlive(owner)))) {
    return [];
  }
  const groups = await podRunGroups(podID, owner === undefined ? 0n : BigInt(owner.start));
  if (groups.size > 0) await endGroups(groups);
  return [...groups];
}
