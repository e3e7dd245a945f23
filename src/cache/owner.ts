/**
 * The owner of a setup, and what it may have left running.
 *
 * A setup intent names the runtime process that wrote it: its pid and its start time (field 22
 * of /proc/<pid>/stat, clock ticks since boot), which tells a later process with the same pid
 * apart, and the run ID of the runtime that wrote it ({@link RunMarkedExec}). Plugins run in
 * sessions of their own (so that a run's whole group can be stopped), so a runtime killed
 * mid-setup can leave its plugin running (the spawner helper ends its plugins with it; the
 * direct spawn and a plugin's own children in other groups do not): a plugin that allocates at
 * the end of its ADD would do it after recovery's DEL, and the allocation would leak. Before
 * recovery DELs an intent whose owner is gone, every process provably of that setup is
 * SIGKILLed with its process group, and known dead first.
 *
 * Provably of that setup: its environment (set by the dead owner for its plugins, inherited by
 * what they fork) names the pod (`CNI_CONTAINERID`), a verb (`CNI_COMMAND`), and one of the
 * intent's attachments exactly (`CNI_NETNS`, `CNI_IFNAME`, `CNI_ARGS`); it carries the run ID
 * the intent records (`LIBCNI_RUN_ID`), which another runtime's plugins never carry, even for
 * the same pod on the same netns (two runtimes on separate cache dirs, parallel test suites
 * reusing pod IDs); and it started after the owner did. An intent of an earlier version (no run
 * ID), or written by a runtime given its own Exec, is matched on the rest alone.
 *
 * Off Linux (no /proc) there is no owner to record and nothing is looked for.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { readProcStat } from "../internal/proc-stat.js";
import { endGroups } from "../internal/process-group.js";
import { DefaultExec, type ExecOptions, type RawExecOptions } from "../invoke/index.js";

/** The process that wrote a setup intent. */
export interface SetupOwner {
  readonly pid: number;
  /** Its start time in clock ticks since boot, as /proc/<pid>/stat says it (a decimal). */
  readonly start: string;
}

/** The variable every plugin a runtime starts (through its own Exec) carries. */
export const RUN_ID_VARIABLE = "LIBCNI_RUN_ID";

/** A new run ID: 128 random bits, hex. */
export function newRunID(): string {
  return randomBytes(16).toString("hex");
}

/** True for a run ID as {@link newRunID} makes them. */
export const isRunID = (value: unknown): value is string =>
  typeof value === "string" && /^[0-9a-f]{32}$/.test(value);

/**
 * The library's Exec with every plugin run marked with its runtime's run ID
 * (`LIBCNI_RUN_ID=<id>` added to the environment; the `CNI_*` variables and the stdin are
 * exactly Go's), so that recovery can tell this runtime's plugins from another's.
 */
export class RunMarkedExec extends DefaultExec {
  readonly runID: string;
  private readonly entry: string;

  constructor(runID: string, options?: RawExecOptions) {
    super(options);
    this.runID = runID;
    this.entry = `${RUN_ID_VARIABLE}=${runID}`;
  }

  override execPlugin(
    pluginPath: string,
    stdin: Uint8Array,
    env: string[] | undefined,
    options?: ExecOptions,
  ): Promise<Uint8Array> {
    // An ID inherited from the process environment (a runtime started by a plugin) is replaced.
    const base = env ?? Object.entries(process.env).map(([k, v]) => `${k}=${v ?? ""}`);
    const marked = base.filter((kv) => !kv.startsWith(`${RUN_ID_VARIABLE}=`));
    marked.push(this.entry);
    return super.execPlugin(pluginPath, stdin, marked, options);
  }
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

/** What an intent says of the setup that wrote it: who, with which run ID, attaching what. */
export interface IntentRun {
  readonly podID: string;
  readonly owner: SetupOwner | undefined;
  /** The writing runtime's run ID; undefined for an intent without one. */
  readonly runID: string | undefined;
  /** Every attachment the setup was to make, as its plugins' environment names it. */
  readonly attachments: readonly {
    readonly netNS: string;
    readonly ifName: string;
    readonly cniArgs?: readonly (readonly [string, string])[] | undefined;
  }[];
}

/** The value of `key` in `environ` (NUL-terminated entries), or undefined. */
function environValue(environ: Buffer, key: string): string | undefined {
  const prefix = `${key}=`;
  let at = environ.subarray(0, prefix.length).toString("latin1") === prefix ? 0 : -1;
  if (at < 0) {
    const found = environ.indexOf(`\0${prefix}`, 0, "latin1");
    if (found < 0) return undefined;
    at = found + 1;
  }
  const start = at + prefix.length;
  const end = environ.indexOf(0, start);
  return environ.subarray(start, end < 0 ? environ.length : end).toString("utf8");
}

/**
 * True when a process environment provably belongs to the intent's setup: the pod, a verb, one
 * of its attachments exactly, and its run ID when the intent records one.
 */
export function environOfRun(environ: Buffer, run: IntentRun): boolean {
  if (environValue(environ, "CNI_CONTAINERID") !== run.podID) return false;
  if (environValue(environ, "CNI_COMMAND") === undefined) return false;
  if (run.runID !== undefined && environValue(environ, RUN_ID_VARIABLE) !== run.runID) return false;
  const netns = environValue(environ, "CNI_NETNS");
  const ifName = environValue(environ, "CNI_IFNAME");
  const args = environValue(environ, "CNI_ARGS");
  return run.attachments.some(
    (a) =>
      a.netNS === netns &&
      a.ifName === ifName &&
      (a.cniArgs ?? []).map(([k, v]) => `${k}=${v}`).join(";") === args,
  );
}

const batch = 64;

/** The process groups of the processes (not this one) that provably belong to the run. */
async function runGroups(run: IntentRun, notBefore: bigint): Promise<Set<number>> {
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
    if (!environOfRun(environ, run)) return;
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
 * Ends what a setup's owner left running, before recovery DELs it: nothing when the owner is
 * this process (its runs are supervised here) or another one still running (its setup is its
 * own); else every process group with a process that provably belongs to the setup (see the
 * top of this file) and started after the owner did (any time when the intent names no owner)
 * is SIGKILLed, and this resolves once none of them runs. Resolves to the groups ended.
 */
export async function endOrphanedRuns(run: IntentRun): Promise<number[]> {
  if (process.platform !== "linux") return [];
  const { owner } = run;
  if (owner !== undefined && ((await isThisProcess(owner)) || (await ownerAlive(owner)))) {
    return [];
  }
  const groups = await runGroups(run, owner === undefined ? 0n : BigInt(owner.start));
  if (groups.size > 0) await endGroups(groups);
  return [...groups];
}
