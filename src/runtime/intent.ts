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
 *   {"kind":"libcniSetupIntentV1","containerId":"<pod>","owner":{"pid":<n>,"start":"<ticks>"},
 *    "attachments":[
 *     {"networkName":"<n>","ifName":"<if>","netns":"<path>","config":"<base64 of the list>",
 *      "cniArgs":[["K","V"]],"capabilityArgs":{...}}, ...]}
 *
 * written atomically (temp file, fsync, rename, directory fsync) like a cache record.
 */
import { readdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import { sweepTempFiles } from "../api/atomic-write.js";
import { STALE_TEMP_MS, writeCacheRecord } from "../api/cache.js";
import { readRecord } from "../api/record-read.js";
import { goStruct, marshal } from "../encoding/json.js";
import type { NetworkAttachment } from "../index.js";
import { errnoCode } from "../internal/errno.js";
import { validateContainerID } from "../utils/index.js";
import { type SetupOwner, thisOwner } from "./owner.js";
import type { PlannedAttachment } from "./plan.js";

/** The `kind` of an intent file. */
export const SETUP_INTENT_KIND = "libcniSetupIntentV1";

/** The intents' directory under a cache dir. */
export function intentsDir(cacheDir: string): string {
  return join(cacheDir, "libcni", "setup-intents");
}

function intentPath(cacheDir: string, podID: string): string {
  return join(intentsDir(cacheDir), podID);
}

/** Records durably what `plan` is about to attach for the pod. */
export async function writeIntent(
  cacheDir: string,
  podID: string,
  plan: readonly PlannedAttachment[],
  durable: boolean,
): Promise<void> {
  const attachments = plan.map(({ network, ifName, rt }) =>
    goStruct({
      networkName: network.name,
      ifName,
      netns: rt.netNS,
      config: Buffer.from(network.config.bytes).toString("base64"),
      cniArgs: rt.args,
      capabilityArgs: rt.capabilityArgs,
    }),
  );
  const owner = await thisOwner();
  const text = marshal(
    goStruct({
      kind: SETUP_INTENT_KIND,
      containerId: podID,
      ...(owner !== undefined && { owner: goStruct({ pid: owner.pid, start: owner.start }) }),
      attachments,
    }),
  );
  await writeCacheRecord(intentPath(cacheDir, podID), new TextEncoder().encode(text), {
    durable,
  });
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const isPairs = (v: unknown): v is [string, string][] =>
  Array.isArray(v) &&
  v.every((p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === "string"));

/** The owner an intent names; undefined for none (an intent of an earlier version). */
function decodeOwner(value: unknown): SetupOwner | undefined {
  if (value === undefined) return undefined;
  if (
    !isObject(value) ||
    typeof value.pid !== "number" ||
    !Number.isInteger(value.pid) ||
    typeof value.start !== "string" ||
    !/^\d+$/.test(value.start)
  ) {
    throw new Error("its owner is malformed");
  }
  return { pid: value.pid, start: value.start };
}

/** An intent's attachments, as the cache's attachments are listed; a bad entry is an error. */
function decodeIntent(
  podID: string,
  bytes: Uint8Array,
): { attachments: NetworkAttachment[]; owner: SetupOwner | undefined } {
  const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
  if (!isObject(value) || value.kind !== SETUP_INTENT_KIND || value.containerId !== podID) {
    throw new Error(`not a ${SETUP_INTENT_KIND} record of pod ${podID}`);
  }
  if (!Array.isArray(value.attachments)) throw new Error("no attachments");
  const owner = decodeOwner(value.owner);
  const attachments = value.attachments.map((e: unknown, i: number) => {
    if (
      !isObject(e) ||
      typeof e.networkName !== "string" ||
      typeof e.ifName !== "string" ||
      typeof e.netns !== "string" ||
      typeof e.config !== "string" ||
      (e.cniArgs !== undefined && !isPairs(e.cniArgs)) ||
      (e.capabilityArgs !== undefined && !isObject(e.capabilityArgs))
    ) {
      throw new Error(`attachment ${i} is malformed`);
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
  return { attachments, owner };
}

/** What the pod's intent holds: nothing, its attachments, or why it cannot be used. */
export type IntentRead =
  | { kind: "none" }
  | { kind: "attachments"; attachments: NetworkAttachment[]; owner: SetupOwner | undefined }
  | { kind: "unusable"; error: Error };

/** Reads the pod's intent (a regular file only, never blocking, with the records' size cap). */
export async function readIntent(cacheDir: string, podID: string): Promise<IntentRead> {
  const path = intentPath(cacheDir, podID);
  const found = await readRecord(path);
  if (found.kind === "none") return { kind: "none" };
  if (found.kind === "corrupt") {
    return { kind: "unusable", error: new Error(`setup intent ${path} ${found.reason}`) };
  }
  try {
    return { kind: "attachments", ...decodeIntent(podID, found.bytes) };
  } catch (error) {
    return {
      kind: "unusable",
      error: new Error(`setup intent ${path} cannot be read: ${(error as Error).message}`),
    };
  }
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
  // Only names this library writes: valid container IDs (no temp file, nothing foreign).
  return names.filter((n) => validateContainerID(n) === undefined);
}
