/**
 * What a plugin left running after its call: a same-group child with its stdio on /dev/null
 * (the call's pipes closed, so the run did not wait for it), or a daemon that left the group
 * (`setsid`). Such a process is the plugin's when it is in the call's process group (the
 * plugin leads one; Linux reuses no pid while a group of that id exists) or in one of the
 * check's namespaces (nothing but the plugin runs in the checker's host namespace or its pods',
 * and a daemon keeps the namespace it was started in). Each one found is ended (SIGKILL).
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

/** One look: the processes of `groups` and of `namespaces`, not yet ended. */
async function look(
  groups: readonly number[],
  namespaces: ReadonlyMap<string, "host" | "pod">,
): Promise<(Leftover & { pid: number })[]> {
  let pids: number[];
  try {
    pids = (await readdir("/proc")).filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return [];
  }
  const liveGroups = new Set(groups.filter((g) => g > 1 && groupExists(g)));
  const where = new Map<number, "host" | "pod">();
  await Promise.all(
    pids.map(async (pid) => {
      const ns = await readlink(`/proc/${pid}/ns/net`).catch(() => undefined);
      const kind = ns === undefined ? undefined : namespaces.get(ns);
      if (kind !== undefined) where.set(pid, kind);
    }),
  );
  // Reading every process's stat costs: only when a group of a call is still there.
  const candidates = liveGroups.size > 0 ? pids : [...where.keys()];
  const procs = (await Promise.all(candidates.map(procStat))).filter(
    (p): p is Proc =>
      p !== undefined &&
      p.pid !== process.pid &&
      p.ppid !== process.pid &&
      isRunning(p) &&
      (liveGroups.has(p.pgrp) || where.has(p.pid)),
  );
  const found: (Leftover & { pid: number })[] = [];
  for (const p of procs) {
    const how = liveGroups.has(p.pgrp) ? "group" : p.session === p.pid ? "session" : "namespace";
    const at = where.get(p.pid) ?? "elsewhere";
    found.push({ pid: p.pid, command: await commandLine(p.pid), how, where: at });
  }
  return found;
}

/**
 * Finds the processes of `groups` (the process groups of finished calls) and those running in
 * `namespaces` (nsfs ids, `net:[<inode>]`, of the check's host and pods), ends them (SIGKILL;
 * looked for again, as one may have forked meanwhile) and resolves to what they were once they
 * are gone (or after 2 s). This process and its own children (the spawner helper) are never
 * counted; nor zombies, which are already dead.
 */
export async function endLeftovers(
  groups: readonly number[],
  namespaces: ReadonlyMap<string, "host" | "pod">,
): Promise<Leftover[]> {
  if (process.platform !== "linux") return [];
  const all = new Map<number, Leftover>();
  for (let round = 0; round < 5; round++) {
    const found = await look(groups, namespaces);
    if (found.length === 0) break;
    for (const { pid, command, how, where } of found) {
      if (!all.has(pid)) all.set(pid, { command, how, where });
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
    for (const g of groups) {
      try {
        if (g > 1) process.kill(-g, "SIGKILL");
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
