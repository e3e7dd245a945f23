/**
 * Setup intents and their owners (docs/reliability.md: "A pod's setup, killed at any point", "A
 * damaged setup intent", "Owners"). Go records an attachment only once its whole chain
 * succeeded, so what a setup is about to attach is recorded durably before its first plugin
 * runs (else a network whose plugins ran when the process died would leak); and the intent
 * names the runtime that wrote it, so that recovery ends what a dead owner left running first
 * (a plugin allocating at the end of its ADD would do it after recovery's DEL). Off Linux (no
 * /proc) no owner is recorded or looked for.
 */
import { randomBytes } from "node:crypto";
import { readdir, readFile, readlink, rename, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { threadId } from "node:worker_threads";
import { goStruct, marshal } from "../encoding/json.js";
import { sweepTempFiles } from "../engines/file-write.js";
import { InvalidArgumentError, WrappedError } from "../errors/base.js";
import { DamagedIntentError, MalformedIntentError } from "../errors/runtime.js";
import { debug } from "../internal/diagnostics.js";
import { errnoCode, undefinedIfMissing } from "../internal/errno.js";
import { attempt, messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { isRunning, listPids, type ProcStat, readProcStat } from "../internal/proc-stat.js";
import { endGroups, endProcesses } from "../internal/process-group.js";
import { bootID, namespaceDigest } from "../internal/process-identity.js";
import { DefaultExec, type ExecOptions, type RawExecOptions } from "../invoke/index.js";
import { validateContainerID } from "../utils/index.js";
import { assertPodID } from "./names.js";
import { readRecord } from "./read.js";
import { MAX_CAPABILITY_DEPTH, nestsDeeperThan } from "./record.js";
import { type NetworkAttachment, STALE_TEMP_MS, writeCacheRecord } from "./results.js";

/** The `kind` of an intent file. */
export const SETUP_INTENT_KIND = "libcniSetupIntentV1";

/** The intents' directory under a cache dir. */
export function intentsDir(cacheDir: string): string {
  return join(cacheDir, "libcni", "setup-intents");
}

/** The largest intent read or written (an intent is kilobytes), a conf file's cap. */
export const MAX_INTENT_BYTES = 16 * 1024 * 1024;

/** The pod's intent path; the ID is checked again here, whatever the caller did. */
export function intentPath(cacheDir: string, podID: string): string {
  assertPodID(podID, "podID");
  return join(intentsDir(cacheDir), podID);
}

// The setups in flight in this thread (globals are per thread), whatever runtime runs them, by
// cache dir and pod: only this tells one of its intents that runs from an interrupted one. On
// globalThis, so that two copies of the library in one thread (two versions of the package)
// share it: else each took the other's setups in flight for interrupted ones, and undid them.
const settingUpKey = Symbol.for("libcni.cache.setupsInFlight.v1");
const holder = globalThis as { [settingUpKey]?: Set<string> };
holder[settingUpKey] ??= new Set<string>();
const settingUp = holder[settingUpKey];
const setupKey = (cacheDir: string, podID: string): string => `${resolve(cacheDir)}\0${podID}`;

/** Runs the pod's setup as in flight here; undefined (nothing run) when one is already. */
export async function asSetupHere<T>(cacheDir: string, podID: string, setup: () => Promise<T>) {
  const key = setupKey(cacheDir, podID);
  if (settingUp.has(key)) return undefined;
  settingUp.add(key);
  return setup().finally(() => settingUp.delete(key));
}

/** True when the setup of an intent runs: here (any runtime), or in its live owner elsewhere. */
export async function setupRunning(cacheDir: string, podID: string, owner?: SetupOwner) {
  return settingUp.has(setupKey(cacheDir, podID)) || (await ownedElsewhere(owner));
}

/** The process that wrote a setup intent. */
export interface SetupOwner {
  /** Its pid, as the /proc it read shows it. */
  readonly pid: number;
  /** Its start time in clock ticks since boot, as /proc/<pid>/stat says it (a decimal). */
  readonly start: string;
  /** The digest of its pid and time namespaces (undefined in earlier versions' intents). */
  readonly ns?: string | undefined;
  /** The boot it ran in (undefined in earlier versions' intents). */
  readonly boot?: string | undefined;
  /** The worker thread that wrote it (`threadId`, never 0); undefined for the main thread. */
  readonly thread?: number | undefined;
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
 * The library's Exec with `LIBCNI_RUN_ID=<id>` added to every plugin's environment (the rest
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

let self: Promise<SetupOwner | undefined> | undefined;

/**
 * This process as an intent's owner (read once): its pid as /proc shows it (process.pid is
 * its own pid namespace's, which a /proc of another one does not show), with where it runs.
 */
function thisOwner(): Promise<SetupOwner | undefined> {
  self ??= (async () => {
    const [link, stat, ns, boot] = await Promise.all([
      readlink("/proc/self").catch(() => undefined),
      readProcStat("self"),
      namespaceDigest(),
      bootID(),
    ]);
    const pid = Number(link);
    if (!Number.isInteger(pid) || pid <= 0 || stat?.start === undefined) return undefined;
    return { pid, start: stat.start, ns, boot };
  })();
  return self;
}

/**
 * True while the owner's process runs: its pid is there, started when it did, and not a zombie
 * (a runtime killed under a parent that never reaps it is dead, and its plugins are orphans).
 * An owner of an earlier boot is dead; one of other namespaces cannot be looked up from here,
 * so it is taken to run: nothing of it is ended or taken over from this process.
 */
async function ownerAlive(owner: SetupOwner): Promise<boolean> {
  const me = await thisOwner();
  if (owner.boot !== undefined && me?.boot !== undefined && owner.boot !== me.boot) return false;
  if (owner.ns !== undefined && owner.ns !== me?.ns) return true;
  const stat = await readProcStat(owner.pid);
  return stat !== undefined && isRunning(stat) && stat.start === owner.start;
}

async function isThisProcess(owner: SetupOwner): Promise<boolean> {
  const me = await thisOwner();
  return (
    me !== undefined &&
    me.pid === owner.pid &&
    me.start === owner.start &&
    (owner.ns === undefined || owner.ns === me.ns) &&
    (owner.boot === undefined || owner.boot === me.boot)
  );
}

/**
 * True when the owner is another process that still runs, or another thread of this one (whose
 * setups this thread's `settingUp` does not hold; a dead thread's intent waits for a teardown or
 * a later process, as Node never reuses a threadId): the setup is in flight there, and nothing
 * implicit (GC, the list of interrupted setups) may undo it.
 */
export async function ownedElsewhere(owner: SetupOwner | undefined): Promise<boolean> {
  if (owner === undefined || process.platform !== "linux") return false;
  return (await isThisProcess(owner)) ? (owner.thread ?? 0) !== threadId : ownerAlive(owner);
}

/**
 * Records durably what the pod's setup is about to attach; `runID` is the one its plugins
 * carry, undefined when the runtime runs them through an Exec of the caller's. "new" makes the
 * intent exclusively (EEXIST where one is: two processes never both begin the pod's setup);
 * "disowned" leaves the owner out: nothing of the setup runs any more (its rollback ended, a
 * DEL failed).
 */
export async function writeIntent(
  cacheDir: string,
  podID: string,
  attachments: readonly Omit<NetworkAttachment, "containerID">[],
  durable: boolean,
  runID?: string,
  how: "owned" | "new" | "disowned" = "owned",
): Promise<void> {
  const path = intentPath(cacheDir, podID);
  const entries = attachments.map((a) =>
    goStruct({
      networkName: a.network,
      ifName: a.ifName,
      netns: a.netNS,
      config: Buffer.from(a.config ?? []).toString("base64"),
      cniArgs: a.cniArgs,
      capabilityArgs: a.capabilityArgs,
    }),
  );
  const owner = how === "disowned" ? undefined : await thisOwner();
  const text = marshal(
    goStruct({
      kind: SETUP_INTENT_KIND,
      containerId: podID,
      ...(owner !== undefined && {
        owner: goStruct({
          pid: owner.pid,
          start: owner.start,
          ...(owner.ns !== undefined && { ns: owner.ns }),
          ...(owner.boot !== undefined && { boot: owner.boot }),
          ...(threadId !== 0 && { thread: threadId }),
          ...(runID !== undefined && { run: runID }),
        }),
      }),
      ...(how === "disowned" && { disowned: true }),
      attachments: entries,
    }),
  );
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength > MAX_INTENT_BYTES) {
    throw new InvalidArgumentError(
      "pod",
      `the setup intent of pod ${podID} would be ${bytes.byteLength} bytes, more than ${MAX_INTENT_BYTES} (its networks' configurations and capability args are too large to record)`,
    );
  }
  await writeCacheRecord(path, bytes, { durable, exclusive: how === "new" });
}

const isPairs = (v: unknown): v is [string, string][] =>
  Array.isArray(v) &&
  v.every((p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === "string"));

/** What an intent says of its writer (none: an earlier version's, or written off Linux). */
interface IntentWriter {
  owner: SetupOwner | undefined;
  runID: string | undefined;
  /** Written after its setup ended (a rollback's DEL failed): nothing of it runs any more. */
  disowned?: boolean;
}

/** The owner an intent names and its run ID. */
function decodeOwner(value: unknown): IntentWriter {
  if (value === undefined) return { owner: undefined, runID: undefined };
  if (
    !isJSONObject(value) ||
    typeof value.pid !== "number" ||
    !Number.isInteger(value.pid) ||
    typeof value.start !== "string" ||
    !/^\d+$/.test(value.start) ||
    (value.ns !== undefined && (typeof value.ns !== "string" || !/^[0-9a-z]{8}$/.test(value.ns))) ||
    (value.boot !== undefined && (typeof value.boot !== "string" || value.boot === "")) ||
    (value.thread !== undefined &&
      (typeof value.thread !== "number" || !Number.isInteger(value.thread) || value.thread < 1)) ||
    (value.run !== undefined && !isRunID(value.run))
  ) {
    throw new MalformedIntentError("its owner is malformed");
  }
  const { pid, start, ns, boot, thread } = value;
  return { owner: { pid, start, ns, boot, thread }, runID: value.run };
}

/** An intent's attachments, as the cache's attachments are listed; a bad entry is an error. */
function decodeIntent(
  podID: string,
  bytes: Uint8Array,
): { attachments: NetworkAttachment[] } & IntentWriter {
  // V8's parser takes any depth; its message would quote the file's bytes, so it is dropped.
  const value: unknown = attempt(() => JSON.parse(new TextDecoder().decode(bytes)));
  if (value === undefined) throw new MalformedIntentError("it is not valid JSON");
  if (!isJSONObject(value) || value.kind !== SETUP_INTENT_KIND || value.containerId !== podID) {
    throw new MalformedIntentError(`not a ${SETUP_INTENT_KIND} record of pod ${podID}`);
  }
  if (!Array.isArray(value.attachments)) throw new MalformedIntentError("no attachments");
  const writer = decodeOwner(value.owner);
  const attachments = value.attachments.map((e: unknown, i: number) => {
    if (
      !isJSONObject(e) ||
      typeof e.networkName !== "string" ||
      typeof e.ifName !== "string" ||
      typeof e.netns !== "string" ||
      typeof e.config !== "string" ||
      (e.cniArgs !== undefined && !isPairs(e.cniArgs)) ||
      (e.capabilityArgs !== undefined && !isJSONObject(e.capabilityArgs))
    ) {
      throw new MalformedIntentError(`attachment ${i} is malformed`);
    }
    // A record holds the same capability args two levels down; past what Go reads there, the
    // attachment could not be DELeted as it was started (walked without the call stack).
    if (
      e.capabilityArgs !== undefined &&
      nestsDeeperThan(e.capabilityArgs, MAX_CAPABILITY_DEPTH + 1)
    ) {
      throw new MalformedIntentError(
        `attachment ${i}'s capability args nest deeper than a cache record can hold (exceeded max depth)`,
      );
    }
    return {
      containerID: podID,
      network: e.networkName,
      ifName: e.ifName,
      config: Buffer.from(e.config, "base64"),
      netNS: e.netns,
      cniArgs: e.cniArgs as [string, string][] | undefined,
      capabilityArgs: e.capabilityArgs as Record<string, unknown> | undefined,
    };
  });
  return { attachments, ...writer, disowned: value.disowned === true };
}

/** What the pod's intent holds: nothing, its attachments (and its path), or why it cannot be used. */
export type IntentRead =
  | { kind: "none" }
  | ({ kind: "attachments"; path: string; attachments: NetworkAttachment[] } & IntentWriter)
  | { kind: "unusable"; error: DamagedIntentError };

/** Reads the pod's intent (see the top of this file). */
export async function readIntent(cacheDir: string, podID: string): Promise<IntentRead> {
  const path = intentPath(cacheDir, podID);
  const found = await readRecord(path, undefined, MAX_INTENT_BYTES);
  if (found.kind === "none") return { kind: "none" };
  if (found.kind === "corrupt") {
    return { kind: "unusable", error: new DamagedIntentError(podID, path, found.reason) };
  }
  try {
    return { kind: "attachments", path, ...decodeIntent(podID, found.bytes) };
  } catch (error) {
    return {
      kind: "unusable",
      error: new DamagedIntentError(podID, path, `cannot be read: ${messageOf(error)}`),
    };
  }
}

/** What an intent says of the setup that wrote it: who, with which run ID, attaching what. */
export interface IntentRun {
  readonly podID: string;
  readonly owner: SetupOwner | undefined;
  readonly runID: string | undefined;
  readonly attachments: readonly {
    readonly netNS: string;
    readonly ifName: string;
    readonly cniArgs?: readonly (readonly [string, string])[] | undefined;
  }[];
}

/** The value of `key` in `environ` (NUL-terminated entries), or undefined. */
function environValue(environ: string[], key: string): string | undefined {
  return environ.find((entry) => entry.startsWith(`${key}=`))?.slice(key.length + 1);
}

/**
 * True when a process environment provably belongs to the intent's setup (docs/reliability.md,
 * "Owners"): it names the pod, a verb and one of its attachments exactly, and carries its run ID
 * when the intent records one.
 */
export function environOfRun(bytes: Buffer, run: IntentRun): boolean {
  const environ = bytes.toString("utf8").split("\0");
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

/** What of a run is to be ended (docs/reliability.md, "Owners"). */
interface RunProcesses {
  /** Groups that a process of the run leads: signalled whole. */
  readonly groups: Set<number>;
  /** Processes of the run in a group that none of it leads. */
  readonly loners: Map<number, { readonly start: string; readonly pgrp: number }>;
}

/** The processes (not this one, nor of its group) that provably belong to the run. */
async function runProcesses(run: IntentRun, notBefore: bigint): Promise<RunProcesses> {
  const matched = new Map<number, ProcStat & { start: string }>();
  const pids = (await listPids()) ?? [];
  const own = await readProcStat("self");
  const me = (await thisOwner())?.pid ?? process.pid;
  const look = async (pid: number): Promise<void> => {
    if (pid === me) return;
    // Undefined: gone, or not ours to read.
    const environ = await readFile(`/proc/${pid}/environ`).catch(() => undefined);
    if (environ === undefined || !environOfRun(environ, run)) return;
    const stat = await readProcStat(pid);
    if (stat?.start === undefined || BigInt(stat.start) < notBefore || !isRunning(stat)) return;
    if (stat.pgrp !== own?.pgrp) matched.set(pid, { ...stat, start: stat.start });
  };
  for (let i = 0; i < pids.length; i += batch) {
    await Promise.all(pids.slice(i, i + batch).map(look));
  }
  const out: RunProcesses = { groups: new Set(), loners: new Map() };
  for (const [pid, stat] of matched) {
    // The runtime's Exec starts each plugin as the leader of a group of its own, which its
    // children share. A caller's Exec may leave a plugin in the dead runtime's group, whose
    // other members (the script that ran the runtime, say) are not the run's.
    if (matched.has(stat.pgrp)) out.groups.add(stat.pgrp);
    else out.loners.set(pid, { start: stat.start, pgrp: stat.pgrp });
  }
  return out;
}

/** How many times the run is looked for: once more after each pass that signalled something. */
const maxPasses = 4;

/**
 * Ends what a dead owner left running of its setup (docs/reliability.md, "Owners"): each process
 * that provably belongs to it, started after the owner, SIGKILLed (with its group when one of
 * them leads it), in passes until one finds nothing new. Nothing while the owner runs, nor where
 * /proc is not this process's pid namespace's (its pids would name others to `kill`).
 */
export async function endOrphanedRuns(run: IntentRun): Promise<void> {
  if (process.platform !== "linux") return;
  const { owner } = run;
  if (owner !== undefined && ((await isThisProcess(owner)) || (await ownerAlive(owner)))) return;
  if ((await thisOwner())?.pid !== process.pid) return;
  const notBefore = owner === undefined ? 0n : BigInt(owner.start);
  // What a pass signalled is not signalled again, nor waited for again (a process beyond any
  // signal, say, or one left in a group whose leader is gone).
  const signalled = new Set<string>();
  const fresh = (key: string): boolean => {
    if (signalled.has(key)) return false;
    signalled.add(key);
    return true;
  };
  for (let pass = 0; pass < maxPasses; pass++) {
    const found = await runProcesses(run, notBefore);
    const groups = [...found.groups].filter((pgid) => fresh(`g${pgid}`));
    const loners = [...found.loners].filter(
      ([pid, { start, pgrp }]) => !signalled.has(`g${pgrp}`) && fresh(`p${pid}:${start}`),
    );
    if (groups.length === 0 && loners.length === 0) return;
    const [groupsLeft, lonersLeft] = await Promise.all([
      endGroups(groups),
      endProcesses(new Map(loners.map(([pid, { start }]) => [pid, start]))),
    ]);
    // Beyond SIGKILL (uninterruptible sleep) or not ours to signal: the DELs go on, said here.
    if (groupsLeft.length + lonersLeft.length > 0) {
      const left = `groups=[${groupsLeft.join(" ")}] pids=[${lonersLeft.join(" ")}]`;
      debug("pod %s: its dead owner's %s still run after SIGKILL; DELs go on", run.podID, left);
    }
  }
}

/**
 * Readies the pod's intent, as read, for recovery's DELs: what a dead owner left running is
 * ended, and a damaged intent is moved aside under a name {@link podsWithIntents} never lists,
 * so that it is reported once. Resolves to its error: with where it went, or why it could not be
 * moved (then the next teardown or GC reports it again).
 */
export async function settleIntent(
  cacheDir: string,
  podID: string,
  intent: IntentRead,
): Promise<DamagedIntentError | undefined> {
  // A disowned intent names no run: what matches its pod now is another runtime's, not its.
  if (intent.kind === "attachments" && !intent.disowned)
    await endOrphanedRuns({ podID, ...intent });
  if (intent.kind !== "unusable") return undefined;
  const { path, reason } = intent.error;
  // A leading dot, which no pod ID has.
  const target = join(intentsDir(cacheDir), `.${podID}.${Date.now()}.damaged`);
  try {
    await rename(path, target);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return intent.error;
    return new DamagedIntentError(podID, path, reason, { setAsideFailure: error });
  }
  return new DamagedIntentError(podID, path, reason, { setAsideAs: target });
}

/** Removes an intent file read before; a missing one is removed already. Rejects when it stays. */
export async function removeIntent(path: string): Promise<void> {
  await unlink(path).catch(undefinedIfMissing);
}

/**
 * Removes the pod's intent once nothing depends on it (its setup is done, or fully rolled back).
 * A removal that fails leaves an intent whose attachments all have records or were undone: a
 * later teardown DELs them once more, which the spec allows, so the setup's outcome stands.
 */
export async function clearIntent(cacheDir: string, podID: string): Promise<void> {
  try {
    await removeIntent(intentPath(cacheDir, podID));
  } catch {
    // The setup's outcome stands (above).
  }
}

/**
 * The pods that have an intent (a setup in flight, or interrupted); with `sweep` (GC), stale
 * temporary files of intent writes are removed, as in `results/`.
 */
export async function podsWithIntents(
  cacheDir: string,
  options: { sweep?: boolean } = {},
): Promise<string[]> {
  const dir = intentsDir(cacheDir);
  const names = await readdir(dir).catch((error: unknown) => {
    // No directory, no intent; one that cannot be listed is said, as upstream says a results
    // directory it cannot read.
    if (errnoCode(error) === "ENOENT") return [];
    throw new WrappedError(`list setup intents in ${dir}`, error);
  });
  if (options.sweep) await sweepTempFiles(dir, names, STALE_TEMP_MS);
  // Only names this library writes: valid container IDs (no temp file, no intent set aside,
  // nothing foreign).
  return names.filter((n) => validateContainerID(n) === undefined);
}
