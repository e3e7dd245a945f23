/**
 * What a plugin left running after its call: a same-group child with its stdio on /dev/null
 * (the call's pipes closed, so the run did not wait for it), or a daemon that left the group
 * (`setsid`). Such a process is the plugin's when it is in one of the check's namespaces
 * (nothing but the plugin runs in the checker's host namespace or its pods', and a daemon keeps
 * the namespace it was started in), or in the call's process group as recorded when the plugin
 * started: its id (the plugin's pid, which leads a session and a group of its own) and its
 * leader's start time. A pid is reused once the plugin and every member of its group are gone,
 * so the id alone is not proof: a group whose id names another process now (its leader alive
 * with another start time) is not the plugin's and is never signalled; of a group whose leader
 * has exited, only the processes of that group and session that started after the leader did
 * are. Each one found is ended (SIGKILL).
 */
import { readdir, readFile, readlink } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import { isRunning, type ProcStat, readProcStat } from "../../internal/proc-stat.js";

/** One process a call left running. */
export interface Leftover {
  /** Its command line (clipped). */
  command: string;
  /**
   * How it was found: in the call's process group; out of it, in a check namespace, as the
   * leader of a session of its own (a `setsid` daemon) or in another group.
   */
  how: "group" | "session" | "namespace";
  /** The check's namespace it ran in: the host one (the plugin's), a pod's, or neither. */
  where: "host" | "pod" | "elsewhere";
}

interface Proc extends ProcStat {
  pid: number;
}

/** A call's process group: the plugin's pid, and its start time when it could be read. */
export interface PluginGroup {
  readonly pgid: number;
  /**
   * The plugin's start time (field 22 of /proc/<pid>/stat), read as it started; undefined
   * when it was gone (reaped) before it could be read, or its stat was not a session leader's.
   * A group without one is not trusted: its processes are found by their namespace alone.
   */
  readonly start: string | undefined;
}

/**
 * The process group of a plugin that just started (it leads a session of its own from its
 * start), with its start time to tell a later process with the same pid apart.
 */
export async function pluginGroup(pid: number): Promise<PluginGroup> {
  const stat = await readProcStat(pid);
  const leads = stat !== undefined && stat.pgrp === pid && stat.session === pid;
  return { pgid: pid, start: leads ? stat.start : undefined };
}

async function procStat(pid: number): Promise<Proc | undefined> {
  const stat = await readProcStat(pid);
  return stat === undefined ? undefined : { ...stat, pid };
}

async function commandLine(pid: number): Promise<string> {
  try {
    const raw = await readFile(`/proc/${pid}/cmdline`, "utf8");
    const text = raw.replace(/\0+$/, "").replaceAll("\0", " ").trim();
    if (text !== "") return text.length > 120 ? `${text.slice(0, 120)}…` : text;
  } catch {}
  try {
    return `[${(await readFile(`/proc/${pid}/comm`, "utf8")).trim()}]`;
  } catch {
    return "(gone)";
  }
}

/** True while a process group exists (zombies included). */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A recorded group that is still the plugin's, and whether its leader is still there. */
interface ProvenGroup {
  readonly start: bigint;
  /** The leader (the plugin itself, a zombie maybe) still holds the group's id. */
  readonly leader: boolean;
}

/**
 * The recorded groups that exist and are still the plugins': a group whose id names another
 * process now (the leader's pid taken by a process started at another time) is left out, and
 * so is one whose leader's start time was never read.
 */
async function provenGroups(groups: readonly PluginGroup[]): Promise<Map<number, ProvenGroup>> {
  const proven = new Map<number, ProvenGroup>();
  for (const { pgid, start } of groups) {
    if (!(pgid > 1) || start === undefined || proven.has(pgid) || !groupExists(pgid)) continue;
    const leader = await readProcStat(pgid);
    if (leader === undefined) proven.set(pgid, { start: BigInt(start), leader: false });
    else if (leader.start === start && leader.pgrp === pgid) {
      proven.set(pgid, { start: BigInt(start), leader: true });
    }
  }
  return proven;
}

/**
 * True for a process of a proven group: in it and in the session the plugin led (a process
 * cannot join a group of another session), started no earlier than the plugin (the same clock
 * tick counts: a child forked at once may share it).
 */
function inGroup(p: Proc, proven: ReadonlyMap<number, ProvenGroup>): boolean {
  const group = proven.get(p.pgrp);
  return (
    group !== undefined &&
    p.session === p.pgrp &&
    p.start !== undefined &&
    BigInt(p.start) >= group.start
  );
}

/** One look: the processes of `groups` and of `namespaces`, not yet ended. */
async function look(
  groups: readonly PluginGroup[],
  namespaces: ReadonlyMap<string, "host" | "pod">,
): Promise<{ found: (Leftover & { pid: number })[]; proven: Map<number, ProvenGroup> }> {
  const proven = await provenGroups(groups);
  let pids: number[];
  try {
    pids = (await readdir("/proc")).filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return { found: [], proven };
  }
  const where = new Map<number, "host" | "pod">();
  await Promise.all(
    pids.map(async (pid) => {
      const ns = await readlink(`/proc/${pid}/ns/net`).catch(() => undefined);
      const kind = ns === undefined ? undefined : namespaces.get(ns);
      if (kind !== undefined) where.set(pid, kind);
    }),
  );
  // Reading every process's stat costs: only when a group of a call is still there.
  const candidates = proven.size > 0 ? pids : [...where.keys()];
  const procs = (await Promise.all(candidates.map(procStat))).filter(
    (p): p is Proc =>
      p !== undefined &&
      p.pid !== process.pid &&
      p.ppid !== process.pid &&
      isRunning(p) &&
      (inGroup(p, proven) || where.has(p.pid)),
  );
  const found: (Leftover & { pid: number })[] = [];
  for (const p of procs) {
    const how = inGroup(p, proven) ? "group" : p.session === p.pid ? "session" : "namespace";
    const at = where.get(p.pid) ?? "elsewhere";
    found.push({ pid: p.pid, command: await commandLine(p.pid), how, where: at });
  }
  return { found, proven };
}

/**
 * Finds the processes of `groups` (the process groups of finished calls, each with its
 * plugin's start time) and those running in `namespaces` (nsfs ids, `net:[<inode>]`, of the
 * check's host and pods), ends them (SIGKILL; looked for again, as one may have forked
 * meanwhile) and resolves to what they were once they are gone (or after 2 s). This process
 * and its own children (the spawner helper) are never counted; nor zombies, which are already
 * dead. A whole group is signalled only while its leader, the plugin, still holds its id (its
 * start time checked again just before); otherwise each process proven the plugin's is.
 */
export async function endLeftovers(
  groups: readonly PluginGroup[],
  namespaces: ReadonlyMap<string, "host" | "pod">,
): Promise<Leftover[]> {
  if (process.platform !== "linux") return [];
  const all = new Map<number, Leftover>();
  for (let round = 0; round < 5; round++) {
    const { found, proven } = await look(groups, namespaces);
    if (found.length === 0) break;
    for (const { pid, command, how, where } of found) {
      if (!all.has(pid)) all.set(pid, { command, how, where });
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    for (const [pgid, group] of proven) {
      if (!group.leader) continue;
      const leader = await readProcStat(pgid);
      if (leader?.start === undefined || BigInt(leader.start) !== group.start) continue;
      try {
        process.kill(-pgid, "SIGKILL");
      } catch {}
    }
    // Gone, or a zombie (dead, waiting for its parent to reap it).
    for (let i = 0; i < 40; i++) {
      const still = await Promise.all(found.map(({ pid }) => running(pid)));
      if (!still.includes(true)) break;
      await delay(50);
    }
  }
  return [...all.values()];
}

async function running(pid: number): Promise<boolean> {
  const p = await readProcStat(pid);
  return p !== undefined && isRunning(p);
}
