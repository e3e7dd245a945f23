/**
 * Names of what the testing helpers and the checker create, one scheme for all of them:
 * `<prefix>-<pid>-<start>.<ns>-<n>[-<label>]` (docs/testing.md, "Names, and what a killed run
 * leaves"). `<start>` is the owner's start time (field 22 of /proc/<pid>/stat, base 36), which
 * tells a later process with the same pid apart; `<ns>` a digest of its pid and time
 * namespaces, where alone a pid and a start time mean something; `<n>` a per-process counter,
 * so parallel test files never pick the same name (`<thread>t<n>` in a worker thread, whose
 * counter is its own). An owner that cannot be told (no /proc, or
 * one of another pid namespace) is written `0.0`, which no sweep matches.
 */
import { threadId } from "node:worker_threads";
import { readProcStat } from "../internal/proc-stat.js";
import { namespaceDigest } from "../internal/process-identity.js";

/** The prefix of every namespace and temp dir tempNetns and testHost create. */
export const testNamePrefix = "lcnitest";

/** The prefix of every namespace, network and container ID the conformance checker uses. */
export const checkNamePrefix = "lcnicheck";

/** Who owns a name: a process, in its namespaces. */
export interface TestNameOwner {
  readonly pid: number;
  /** Its start time, clock ticks since boot, as /proc/<pid>/stat writes it (decimal). */
  readonly start: string;
  /** The digest of its pid and time namespaces (8 base-36 digits). */
  readonly ns: string;
}

/** A name of the scheme, taken apart. */
export interface ParsedTestName {
  readonly prefix: string;
  readonly owner: TestNameOwner;
  readonly n: number;
  /** The worker thread that made it (`threadId`), 0 for the main thread. */
  readonly thread: number;
  /** What follows the counter (a label, a temp dir's random suffix), without the dash. */
  readonly rest: string | undefined;
}

const namePattern = new RegExp(
  `^(${testNamePrefix}|${checkNamePrefix})-([1-9][0-9]{0,9})-([0-9a-z]{1,13})\\.([0-9a-z]{8})-(?:([1-9][0-9]{0,9})t)?([1-9][0-9]{0,15})(?:-(.+))?$`,
);

/** A name of the scheme taken apart; undefined for any other (`0.0` included): never swept. */
export function parseTestName(name: string): ParsedTestName | undefined {
  const match = namePattern.exec(name);
  if (match === null) return undefined;
  const [, prefix, pid, start36, ns, thread, n, rest] = match;
  const owner = { pid: Number(pid), start: base36ToDecimal(start36), ns };
  return { prefix, owner, n: Number(n), thread: Number(thread ?? 0), rest };
}

function base36ToDecimal(text: string): string {
  let value = 0n;
  for (const digit of text) value = value * 36n + BigInt(Number.parseInt(digit, 36));
  return value.toString();
}

/** The start time of process `pid` as this process's /proc shows it; undefined when unreadable. */
export async function processStart(pid: number | "self"): Promise<string | undefined> {
  return (await readProcStat(pid))?.start;
}

let self: Promise<TestNameOwner | undefined> | undefined;

/** This process as an owner (read once); undefined without /proc, or another pid ns's /proc. */
export function thisOwner(): Promise<TestNameOwner | undefined> {
  self ??= (async () => {
    const [own, byPid, ns] = await Promise.all([
      processStart("self"),
      processStart(process.pid),
      namespaceDigest(),
    ]);
    if (own === undefined || own !== byPid || ns === undefined) return undefined;
    return { pid: process.pid, start: own, ns };
  })();
  return self;
}

/** The owner part of a name: `<pid>-<start>.<ns>`. */
export function ownerPart(owner: TestNameOwner | undefined, pid: number = process.pid): string {
  if (owner === undefined) return `${pid}-0.0`;
  return `${owner.pid}-${BigInt(owner.start).toString(36)}.${owner.ns}`;
}

// One counter for every copy of this module in the process (two copies of the package), so
// their names never meet.
const counterKey = Symbol.for("libcni.testing.nameCounter");
const counterHolder = globalThis as { [counterKey]?: number };

/** A name unique to this process and owned by it, `-<label>` appended when given. */
export async function uniqueTestName(
  label?: string,
  prefix: string = testNamePrefix,
): Promise<string> {
  const owner = await thisOwner();
  const n = (counterHolder[counterKey] ?? 0) + 1;
  counterHolder[counterKey] = n;
  const counter = threadId === 0 ? `${n}` : `${threadId}t${n}`;
  return labelledTestName(`${prefix}-${ownerPart(owner)}-${counter}`, label);
}

/** `<name>-<label>`: another thing of the same owner and counter (a pod's netns beside its ID). */
export function labelledTestName(name: string, label: string | undefined): string {
  return label === undefined || label === "" ? name : `${name}-${label}`;
}
