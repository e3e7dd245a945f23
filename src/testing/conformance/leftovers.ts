/**
 * What a plugin left running after its call (a child on /dev/null, a `setsid` daemon), found
 * and ended with SIGKILL. Which processes count as the plugin's, and why a reused pid or group
 * id is never hit: docs/reliability.md, "What the checker ends".
 */
import { readFile, readlink } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";
import {
  isRunning,
  listPids,
  type ProcStat,
  procIsOurs,
  readProcStat,
} from "../../internal/proc-stat.js";
import { groupExists } from "../../internal/process-group.js";

/** One process a call left running. */
export interface Leftover {
  /** Its command line (clipped). */
  command: string;
  /** Found in the call's group; or in a check namespace, leading a session or another group. */
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
  /** The plugin's start time, read as it started; undefined (not trusted) when unread. */
  readonly start: string | undefined;
}

/** The process group of a plugin that just started (leading a session of its own). */
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
    if (text !== "") return text.length > 120 ? `${text.slice(0, 120)}\u2026` : text;
  } catch {}
  return readFile(`/proc/${pid}/comm`, "utf8").then(
    (comm) => `[${comm.trim()}]`,
    () => "(gone)",
  );
}

/** A recorded group that is still the plugin's, and whether its leader is still there. */
interface ProvenGroup {
  readonly start: bigint;
  /** The leader (the plugin itself, a zombie maybe) still holds the group's id. */
  readonly leader: boolean;
}

/** The recorded groups that exist and are still the plugins' (their leader's start unchanged). */
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
 * True for a process of a proven group, in the session the plugin led, started no earlier than
 * the plugin (the same clock tick counts: a child forked at once may share it).
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
  const pids = await listPids();
  if (pids === undefined) return { found: [], proven };
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
 * Ends the processes of `groups` (finished calls') and of `namespaces` (nsfs ids, `net:[<inode>]`,
 * of the check's host and pods), looking again as one may have forked meanwhile, and resolves
 * to what they were once they are gone (or after 2 s).
 */
export async function endLeftovers(
  groups: readonly PluginGroup[],
  namespaces: ReadonlyMap<string, "host" | "pod">,
): Promise<Leftover[]> {
  // Where /proc is not this pid namespace's, its pids would name others to `kill`.
  if (process.platform !== "linux" || !(await procIsOurs())) return [];
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
