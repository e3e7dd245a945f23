/**
 * Setup intents: what a pod's setup is about to attach, recorded durably before its first
 * plugin runs, so that a runtime killed mid-setup leaves nothing recovery cannot find. Go's
 * record of an attachment is written only when its whole chain succeeded; a network whose
 * plugins were running when the process died has none, and whatever they set up (an IPAM
 * lease, a veth, NAT chains) would leak. Recovery (teardown, GC) DELs every attachment of the
 * intent that has no record, with exactly what it was started with, then removes the intent.
 *
 * One file per pod, written once per setup (not per plugin), where Go does not look:
 * `<cacheDir>/libcni/setup-intents/<podID>`; Go's `results/` stays byte for byte Go's. The
 * format (docs/reliability.md):
 *
 *   {"kind":"libcniSetupIntentV1","containerId":"<pod>",
 *    "owner":{"pid":<n>,"start":"<ticks>","run":"<run ID>"},
 *    "attachments":[
 *     {"networkName":"<n>","ifName":"<if>","netns":"<path>","config":"<base64 of the list>",
 *      "cniArgs":[["K","V"]],"capabilityArgs":{...}}, ...]}
 *
 * written atomically (temp file, fsync, rename, directory fsync) like a cache record.
 *
 * Read like a conf file: a regular file only (never a symlink), opened without blocking, at
 * most {@link MAX_INTENT_BYTES}. One that cannot be used (a directory, a FIFO, bad JSON, ...) is
 * a DamagedIntentError; teardown and GC set it aside ({@link setAsideIntent}) under a name that
 * {@link podsWithIntents} never lists, so it is reported once and never trips a later call.
 */
import { readdir, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import { goStruct, marshal } from "../encoding/json.js";
import { sweepTempFiles } from "../engines/file-write.js";
import { InvalidArgumentError } from "../errors/base.js";
import { DamagedIntentError, MalformedIntentError } from "../errors/runtime.js";
import { errnoCode } from "../internal/errno.js";
import { messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { validateContainerID } from "../utils/index.js";
import { assertPodID } from "./names.js";
import { isRunID, type SetupOwner, thisOwner } from "./owner.js";
import { readRecord } from "./read.js";
import { MAX_CAPABILITY_DEPTH, nestsDeeperThan } from "./record.js";
import type { NetworkAttachment } from "./results.js";
import { STALE_TEMP_MS, writeCacheRecord } from "./results.js";

/** The `kind` of an intent file. */
export const SETUP_INTENT_KIND = "libcniSetupIntentV1";

/** The intents' directory under a cache dir. */
export function intentsDir(cacheDir: string): string {
  return join(cacheDir, "libcni", "setup-intents");
}

/**
 * The largest intent read or written: a conf file's cap (the conf loader's 16 MiB). An intent
 * holds a pod's network lists (each a conf file's bytes, in base64) and its capability args,
 * kilobytes in practice; a file past this is not one the library wrote, and is refused at its
 * size, unread. `writeIntent` refuses to write more, so every intent written can be read back.
 */
export const MAX_INTENT_BYTES = 16 * 1024 * 1024;

/** The pod's intent path; the ID is checked again here, whatever the caller did. */
function intentPath(cacheDir: string, podID: string): string {
  assertPodID(podID, "podID");
  return join(intentsDir(cacheDir), podID);
}

/**
 * Records durably what the pod's setup is about to attach; `runID` is the one its plugins
 * carry (owner.ts), undefined when the runtime runs them through an Exec of the caller's.
 */
export async function writeIntent(
  cacheDir: string,
  podID: string,
  attachments: readonly Omit<NetworkAttachment, "containerID">[],
  durable: boolean,
  runID?: string,
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
  const owner = await thisOwner();
  const text = marshal(
    goStruct({
      kind: SETUP_INTENT_KIND,
      containerId: podID,
      ...(owner !== undefined && {
        owner: goStruct({
          pid: owner.pid,
          start: owner.start,
          ...(runID !== undefined && { run: runID }),
        }),
      }),
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
  await writeCacheRecord(path, bytes, { durable });
}

const isPairs = (v: unknown): v is [string, string][] =>
  Array.isArray(v) &&
  v.every((p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === "string"));

/** What an intent says of its writer. */
interface IntentWriter {
  /** Undefined for none (an intent of an earlier version, or written off Linux). */
  owner: SetupOwner | undefined;
  /** The run ID its plugins carry; undefined for none. */
  runID: string | undefined;
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
    (value.run !== undefined && !isRunID(value.run))
  ) {
    throw new MalformedIntentError("its owner is malformed");
  }
  return { owner: { pid: value.pid, start: value.start }, runID: value.run };
}

/** An intent's attachments, as the cache's attachments are listed; a bad entry is an error. */
function decodeIntent(
  podID: string,
  bytes: Uint8Array,
): { attachments: NetworkAttachment[] } & IntentWriter {
  let value: unknown;
  try {
    // V8's parser takes any depth; its message would quote the file's bytes, so it is dropped.
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new MalformedIntentError("it is not valid JSON");
  }
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
  return { attachments, ...writer };
}

/** What the pod's intent holds: nothing, its attachments, or why it cannot be used. */
export type IntentRead =
  | { kind: "none" }
  | ({ kind: "attachments"; attachments: NetworkAttachment[] } & IntentWriter)
  | { kind: "unusable"; error: DamagedIntentError };

/**
 * Reads the pod's intent: a regular file only (no symlink followed), opened without blocking,
 * refused unread past {@link MAX_INTENT_BYTES}.
 */
export async function readIntent(cacheDir: string, podID: string): Promise<IntentRead> {
  const path = intentPath(cacheDir, podID);
  const found = await readRecord(path, undefined, MAX_INTENT_BYTES);
  if (found.kind === "none") return { kind: "none" };
  if (found.kind === "corrupt") {
    return { kind: "unusable", error: new DamagedIntentError(podID, path, found.reason) };
  }
  try {
    return { kind: "attachments", ...decodeIntent(podID, found.bytes) };
  } catch (error) {
    return {
      kind: "unusable",
      error: new DamagedIntentError(podID, path, `cannot be read: ${messageOf(error)}`),
    };
  }
}

/** The name a damaged intent is set aside as: a leading dot, which no pod ID has. */
const damagedName = (podID: string): string => `.${podID}.${Date.now()}.damaged`;

/**
 * Moves a damaged intent aside, in the intents' dir, under a name {@link podsWithIntents} never
 * lists (kept for whoever wants to look at it; nothing reads or removes it). Returns the error
 * to report: `damaged` with where it went, or with why it could not be moved (then it stays,
 * and the next teardown or GC reports it again). One already gone is reported as it was.
 */
export async function setAsideIntent(
  cacheDir: string,
  damaged: DamagedIntentError,
): Promise<DamagedIntentError> {
  const { podID, path, reason } = damaged;
  const target = join(intentsDir(cacheDir), damagedName(podID));
  try {
    await rename(path, target);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return damaged;
    return new DamagedIntentError(podID, path, reason, { setAsideFailure: error });
  }
  return new DamagedIntentError(podID, path, reason, { setAsideAs: target });
}

/** Removes the pod's intent; a missing one is removed already. Rejects when it stays. */
export async function removeIntent(cacheDir: string, podID: string): Promise<void> {
  try {
    await unlink(intentPath(cacheDir, podID));
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
  }
}

/**
 * Removes the pod's intent once nothing depends on it (its setup is done, or fully rolled back).
 * A removal that fails leaves an intent whose attachments all have records or were undone: a
 * later teardown DELs them once more, which the spec allows, so the setup's outcome stands.
 */
export async function clearIntent(cacheDir: string, podID: string): Promise<void> {
  await removeIntent(cacheDir, podID).catch(() => undefined);
}

/**
 * The pods that have an intent (a setup in flight, or one that was interrupted). With `sweep`
 * (GC), the temporary files of intent writes a killed runtime left are removed once stale, as
 * GC does in `results/`.
 */
export async function podsWithIntents(
  cacheDir: string,
  options: { sweep?: boolean } = {},
): Promise<string[]> {
  const dir = intentsDir(cacheDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  if (options.sweep) await sweepTempFiles(dir, names, STALE_TEMP_MS);
  // Only names this library writes: valid container IDs (no temp file, no intent set aside,
  // nothing foreign).
  return names.filter((n) => validateContainerID(n) === undefined);
}
