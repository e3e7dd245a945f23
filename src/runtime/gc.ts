/**
 * GC across networks, given the pods still valid (upstream's open question,
 * containernetworking/cni#1091, answered per network): every cached attachment of a pod not
 * valid is DELeted as teardown DELs it, whether or not its network is still loaded (upstream's
 * GCNetworkList DELs with today's config); then each loaded network gets GC with its valid
 * attachments as the cache holds them (not as today's interface-name allocation would name
 * them): every cached attachment of a pod this GC did not collect, a valid pod's, one in flight
 * in another process, one begun since. Everything is tried; the failures are thrown together.
 * A dry run stops after the reads.
 */

import type { GCArgs, NetworkAttachment } from "../api/index.js";
import { podsWithIntents, readIntent, setupRunning } from "../cache/intent.js";
import { listRecordNames, type ValidFromListing, validFromListing } from "../cache/results.js";
import { LibcniError } from "../errors/base.js";
import { type NetworkFailure, RuntimeGCError } from "../errors/runtime.js";
import type { GCAttachment } from "../types/index.js";
import { validateContainerID } from "../utils/index.js";
import {
  type CacheCallContext,
  cacheDirOf,
  cachedAttachments,
  deleteAll,
  type RemovedAttachment,
  withDeadline,
} from "./cached-pod.js";
import type { PodCallOptions } from "./types.js";

/** One stale attachment of a GC: the pod, the network and the interface. */
export interface CollectedAttachment extends RemovedAttachment {
  podID: string;
}

/** What a GC removed, or (a dry run) would remove. */
export interface GCReport {
  /** Stale attachments DELeted (a dry run: those a GC would DEL), per pod, in DEL order. */
  removed: CollectedAttachment[];
  /** Pods not valid whose setup is in flight in another live process or thread: left to it. */
  inFlightElsewhere: string[];
  /** True for a dry run (nothing was run, removed or written); absent for a GC. */
  dryRun?: true;
  /** Dry run only: what a GC would fail on as the cache stands (docs/runtime.md). */
  unusable?: NetworkFailure[];
}

/** Options of `gc`. */
export interface GCOptions extends PodCallOptions {
  /** Collect nothing: report what a GC would do now, running no plugin and touching no file. */
  dryRun?: boolean;
}

/**
 * Runs the GC (or its dry run); the caller holds the runtime's exclusive lock. `removed` is
 * filled as each stale pod is collected (the caller's diagnostics message holds it, so a GC
 * that fails or is aborted still says what it collected).
 */
export async function collectGarbage(
  ctx: CacheCallContext,
  validPodIDs: ReadonlySet<string>,
  dryRun: boolean,
  removed: CollectedAttachment[] = [],
): Promise<GCReport> {
  const cacheDir = cacheDirOf(ctx.cni);
  const failures: NetworkFailure[] = [];
  const [all, interrupted] = await Promise.all([
    ctx.cni.getCachedAttachments(""),
    // Intents that cannot be listed are this GC's failure; the records are collected still.
    podsWithIntents(cacheDir, { sweep: !dryRun }).catch((error: unknown) => {
      failures.push({ podID: "", network: "", ifName: "", error });
      return [];
    }),
  ]);
  const preview: CollectedAttachment[] = [];
  // Pods with records, and pods whose setup was interrupted before any record was written.
  const stalePods = [...new Set([...all.map((a) => a.containerID), ...interrupted])].filter(
    (id) => !validPodIDs.has(id),
  );
  const inFlightElsewhere: string[] = [];
  // The pods this GC collects (or tries to): the plugins' GC is told every other cached one.
  const attempted = new Set<string>();
  for (const podID of stalePods) {
    attempted.add(podID);
    // A record that names no container (the listing's "" is "every pod", valid ones too) or an
    // ID no pod can have (a path, say) is reported, never taken for a pod's.
    const bad = podID === "" ? "no container ID" : validateContainerID(podID)?.message;
    if (bad !== undefined) {
      for (const { network, ifName } of all.filter((a) => a.containerID === podID)) {
        const error = new LibcniError(`cached attachment ${network}/${ifName} names ${bad}`);
        failures.push({ podID, network, ifName, error });
      }
      continue;
    }
    try {
      const pod = await cachedAttachments(ctx, podID);
      const { intent } = pod;
      if (intent.kind === "attachments" && (await setupRunning(cacheDir, podID, intent.owner))) {
        inFlightElsewhere.push(podID);
        attempted.delete(podID);
        continue;
      }
      if (dryRun) {
        // What deleteAll would DEL, in its order.
        for (const a of [...[...pod.interrupted].reverse(), ...[...pod.usable].reverse()]) {
          preview.push({ podID, network: a.network, ifName: a.ifName });
        }
        failures.push(...pod.unusable.map((u) => ({ ...u, podID })));
        continue;
      }
      const outcome = await deleteAll(ctx, pod);
      failures.push(...outcome.failures.map((f) => ({ ...f, podID })));
      removed.push(...outcome.done.map((a) => ({ podID, network: a.network, ifName: a.ifName })));
    } catch (error) {
      // An abort ends the GC; anything else is this pod's failure, and the next pod is tried.
      if (ctx.signal?.aborted) throw error;
      failures.push({ podID, network: "", ifName: "", error });
    }
  }
  if (dryRun) return { removed: preview, inFlightElsewhere, dryRun, unusable: failures };
  for (const n of ctx.set?.networks ?? []) {
    // Decided under the network's lock from its own listing: a setup in flight elsewhere or
    // ended since keeps its records, which a listing of before would have the GC DEL.
    const valid: ValidFromListing = (listed) =>
      validAttachments(cacheDir, n.name, listed, attempted);
    await withDeadline(ctx, n.name, "GC", (options) =>
      ctx.cni.gcNetworkList(n.config, { [validFromListing]: valid } as GCArgs, options),
    ).catch((error: unknown) => {
      failures.push({ network: n.name, ifName: "", error });
    });
  }
  if (failures.length > 0) throw new RuntimeGCError(failures);
  return { removed, inFlightElsewhere };
}

/**
 * A network's valid attachments for its GC: every cached one of a pod this GC did not collect,
 * and every one a pod's setup intent plans (a setup in flight, here or elsewhere: its plugins
 * may hold what they reserved before any record is written). A record the listing did not
 * decode (written since, or torn) of such a pod is its attachment still, told by its name
 * (<network>-<pod>-<ifName>): else the plugins' GC frees what a running pod holds.
 */
async function validAttachments(
  cacheDir: string,
  network: string,
  listed: readonly NetworkAttachment[],
  attempted: ReadonlySet<string>,
): Promise<GCAttachment[]> {
  const valid = new Map<string, GCAttachment>();
  const keep = (containerID: string, ifname: string) =>
    valid.set(`${containerID}\0${ifname}`, { containerID, ifname });
  // The intents, then the names: a setup writes its records before its intent goes, so the
  // names hold what a setup that ended in between no longer has in its intent.
  const ids = (await podsWithIntents(cacheDir)).filter((id) => !attempted.has(id));
  const intents = await Promise.all(ids.map((id) => readIntent(cacheDir, id)));
  const names = await listRecordNames(cacheDir);
  for (const a of listed) {
    if (a.network === network && !attempted.has(a.containerID)) keep(a.containerID, a.ifName);
  }
  for (const intent of intents) {
    if (intent.kind !== "attachments") continue;
    for (const a of intent.attachments) if (a.network === network) keep(a.containerID, a.ifName);
  }
  const decoded = new Set(listed.map((a) => `${a.network}-${a.containerID}-${a.ifName}`));
  const prefix = `${network}-`;
  for (const name of names) {
    if (decoded.has(name) || !name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    // Each dash may end the pod's ID (IDs and interface names hold dashes): every kept one.
    for (let at = rest.indexOf("-", 1); at !== -1; at = rest.indexOf("-", at + 1)) {
      const id = rest.slice(0, at);
      if (!attempted.has(id) && at + 1 < rest.length) keep(id, rest.slice(at + 1));
    }
  }
  return [...valid.values()];
}
