/**
 * A pod's attachments as the result cache holds them, in attach order, each with the
 * configuration it was ADDed with, every record read once (its bytes kept for its DEL, its
 * order taken from that read). Teardown, CHECK and GC work from these, not from today's
 * conf dir: an edited or deleted network, or shifted interface-name indexes, change nothing.
 *
 * Attach order. The cache keeps no sequence number and Go's record format must stay as it is,
 * so the order is rebuilt from the records: by modification time, as the read's fstat saw it
 * (a record is written when
 * its ADD succeeds, so a serial setup's records are in attach order), ties broken by the
 * interface name's allocation order (`lo`, `eth0`, then `net1`, `net2`, ... by their number).
 * File timestamps are coarse (a kernel tick), so attachments ADDed within one tick tie and the
 * names decide; a parallel setup has no order to keep.
 */
import { join } from "node:path";
import {
  CacheDir,
  type CNIConfig,
  type NetworkAttachment,
  type RuntimeConf,
} from "../api/index.js";
import { readIntent } from "../cache/intent.js";
import type { IntentRun, SetupOwner } from "../cache/owner.js";
import { readRecord } from "../cache/read.js";
import { CNICacheV1, decodeCacheRecord } from "../cache/record.js";
import { readPodRecords, resultsDir } from "../cache/results.js";
import {
  type NetworkConfigList,
  networkConfFromBytes,
  networkPluginConfFromBytes,
  type PluginConfig,
} from "../conf/index.js";
import { isTempName } from "../engines/file-write.js";
import { LibcniError } from "../errors/base.js";
import { CorruptCacheRecordError } from "../errors/cache.js";
import type { DamagedIntentError } from "../errors/runtime.js";
import { messageOf } from "../internal/error-message.js";
import { isJSONObject } from "../internal/json-kind.js";
import { validateContainerID } from "../utils/index.js";
import { restoreCapabilityStructs } from "./capabilities.js";
import type { NetworkSet } from "./load.js";

/**
 * The configuration a record holds, as upstream's `GetNetworkCachedConfig` serves it: a network
 * list (what `AddNetworkList` caches) or a single plugin's configuration (what Go's `AddNetwork`
 * caches when a runtime attaches a `.conf` alone). Each is run with its own verbs, as upstream's
 * `DelNetworkList`/`DelNetwork` would.
 */
export type CachedConfig =
  | { readonly kind: "list"; readonly list: NetworkConfigList }
  | { readonly kind: "plugin"; readonly plugin: PluginConfig };

/** One cached attachment, ready for a verb. */
export interface CachedAttachment {
  /** The network's name in the record. */
  readonly network: string;
  readonly ifName: string;
  /** The cached configuration (or the loaded list when it has the same bytes). */
  readonly config: CachedConfig;
  /** The cached netns, CNI_ARGS and capability args. */
  readonly rt: RuntimeConf;
  /** The record's bytes as read (its DEL passes them on); undefined for an intent's. */
  readonly record?: Uint8Array | undefined;
}

/** A cached attachment whose configuration cannot be used. */
export interface UnusableAttachment {
  readonly network: string;
  readonly ifName: string;
  readonly error: unknown;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

function hasPluginsKey(bytes: Uint8Array): boolean {
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof value === "object" && value !== null && Object.hasOwn(value, "plugins");
  } catch {
    return false;
  }
}

/**
 * A record's configuration by its kind: a list when it has plugins (or an explicit, empty
 * `plugins` key), else a single plugin's configuration when it has a `type`. The list parser
 * alone would take a plugin's configuration for a list without plugins, and its DEL would run
 * nothing and drop the record: whatever the plugin set up would leak.
 */
export function decodeCachedConfig(att: NetworkAttachment, bytes: Uint8Array): CachedConfig {
  const list = networkConfFromBytes(bytes);
  if (list.plugins.length > 0) return { kind: "list", list };
  let plugin: PluginConfig;
  try {
    plugin = networkPluginConfFromBytes(bytes);
  } catch (error) {
    if (hasPluginsKey(bytes)) return { kind: "list", list };
    throw new LibcniError(
      `cached configuration of ${att.network}/${att.ifName} is neither a network list nor a plugin configuration: ${messageOf(error)}`,
      { cause: error },
    );
  }
  return { kind: "plugin", plugin };
}

/** The name a cached configuration gives its network. */
export function cachedConfigName(config: CachedConfig): string {
  return config.kind === "list" ? config.list.name : config.plugin.network.name;
}

/** The CNI version of a cached configuration. */
export function cachedConfigVersion(config: CachedConfig): string {
  return config.kind === "list" ? config.list.cniVersion : config.plugin.network.cniVersion;
}

function configOf(att: NetworkAttachment, set: NetworkSet | undefined): CachedConfig {
  const loaded = set?.get(att.network)?.config;
  if (att.config === undefined) {
    if (loaded !== undefined) return { kind: "list", list: loaded };
    throw new LibcniError(
      `cached attachment ${att.network}/${att.ifName} has no configuration and network ${att.network} is not loaded`,
    );
  }
  // The loaded list has the drop-in plugins (<confDir>/<name>/*.conf) that the bytes lack.
  if (loaded !== undefined && sameBytes(loaded.bytes, att.config)) {
    return { kind: "list", list: loaded };
  }
  const config = decodeCachedConfig(att, att.config);
  const name = cachedConfigName(config);
  if (name !== att.network) {
    // Upstream's lookups key the record by the network's name; a mismatch would miss the result.
    throw new LibcniError(
      `cached configuration of ${att.network}/${att.ifName} names network ${name}`,
    );
  }
  return config;
}

/** Interface-name order: `lo`, then by the trailing number (eth0, net1, net2), then by name. */
export function compareIfNames(a: string, b: string): number {
  const key = (s: string): [number, number] => {
    if (s === "lo") return [0, 0];
    const m = /(\d+)$/.exec(s);
    return [1, m ? Number(m[1]) : Number.POSITIVE_INFINITY];
  };
  const [ra, na] = key(a);
  const [rb, nb] = key(b);
  if (ra !== rb) return ra - rb;
  if (na !== nb) return na < nb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The cache directory a CNIConfig uses. */
export function cacheDirOf(cni: CNIConfig): string {
  return cni.cacheDir === "" ? CacheDir : cni.cacheDir;
}

function toCached(
  att: NetworkAttachment,
  set: NetworkSet | undefined,
  netns: string | undefined,
  record?: Uint8Array,
): CachedAttachment {
  const rt: RuntimeConf = {
    containerID: att.containerID,
    netNS: att.netNS === "" ? (netns ?? "") : att.netNS,
    ifName: att.ifName,
  };
  if (att.cniArgs !== undefined) rt.args = att.cniArgs;
  if (att.capabilityArgs !== undefined) {
    rt.capabilityArgs = restoreCapabilityStructs(att.capabilityArgs);
  }
  return { network: att.network, ifName: att.ifName, config: configOf(att, set), rt, record };
}

/** A pod's attachments as the cache and its setup intent hold them. */
export interface PodAttachments {
  readonly podID: string;
  /** The recorded attachments, in attach order. */
  usable: CachedAttachment[];
  /** Records (or an intent) that cannot be used. */
  unusable: UnusableAttachment[];
  /**
   * The attachments of an interrupted setup that have no record (their chain was running when
   * the runtime died, or its rollback failed), in planned order.
   */
  interrupted: CachedAttachment[];
  /**
   * The pod's setup intent: none, one whose attachments are read (it is removed once every
   * interrupted attachment is DELeted), or one that cannot be read (reported in `unusable`,
   * and kept).
   */
  intent: "none" | "read" | "unusable";
  /** The intent that cannot be used (also in `unusable`): teardown and GC set it aside. */
  damagedIntent?: DamagedIntentError | undefined;
  /** The process that wrote the intent (when one was read and names it). */
  owner?: SetupOwner | undefined;
  /** The setup the intent records, as recovery tells its plugins (when one was read). */
  run?: IntentRun | undefined;
}

/**
 * The pod's records that the cache's listing skipped (upstream's `GetCachedAttachments` skips
 * what it cannot decode) but whose top level says they are the pod's (`kind` cniCacheV1 and its
 * `containerId`): a record nested past Go's 10,000 levels, or with a field of the wrong type.
 * Nothing can DEL them as they were ADDed, and passing over them would report the pod removed
 * while they stay: each is an attachment that cannot be used, its record named. Files whose
 * content does not name the pod (not JSON, another pod's, a FIFO, over the size cap) are left
 * to the listing's rule, as a name alone is ambiguous (`n-a-b-eth0` may be pod `a`'s or `a-b`'s).
 */
async function undecodableRecords(
  cacheDir: string,
  podID: string,
  names: readonly string[],
  listed: readonly NetworkAttachment[],
): Promise<UnusableAttachment[]> {
  if (podID === "") return [];
  const dir = resultsDir(cacheDir);
  const seen = new Set(listed.map((a) => `${a.network}-${a.containerID}-${a.ifName}`));
  const part = `-${podID}-`;
  const out: UnusableAttachment[] = [];
  for (const name of names) {
    if (seen.has(name) || isTempName(name) || name.indexOf(part) <= 0) continue;
    const path = join(dir, name);
    const found = await readRecord(path);
    if (found.kind !== "bytes") continue;
    let top: unknown;
    try {
      // V8's parser takes any depth, and only the top level is looked at.
      top = JSON.parse(new TextDecoder().decode(found.bytes));
    } catch {
      continue;
    }
    if (!isJSONObject(top) || top.kind !== CNICacheV1 || top.containerId !== podID) continue;
    let reason: string | undefined;
    try {
      decodeCacheRecord(found.bytes);
    } catch (error) {
      reason = `cannot be decoded: ${messageOf(error)}`;
    }
    // Decoded after all: written since the listing, or without a name (skipped as upstream).
    if (reason === undefined) continue;
    out.push({
      network: typeof top.networkName === "string" ? top.networkName : "",
      ifName: typeof top.ifName === "string" ? top.ifName : "",
      error: new CorruptCacheRecordError(path, reason),
    });
  }
  return out;
}

/**
 * The pod's attachments: its records in attach order, those that cannot be used, and the
 * attachments of an interrupted setup that have no record. A record without a netns (written
 * by Go libcni before 1.2) gets `netns` when the caller knows it.
 */
export async function cachedAttachments(
  cni: CNIConfig,
  podID: string,
  set: NetworkSet | undefined,
  netns?: string,
): Promise<PodAttachments> {
  const cacheDir = cacheDirOf(cni);
  // A pod ID that could not be a file name (a record's, read by GC) has no intent.
  const [{ records, names }, intent] = await Promise.all([
    readPodRecords(cacheDir, podID),
    validateContainerID(podID) === undefined
      ? readIntent(cacheDir, podID)
      : ({ kind: "none" } as const),
  ]);
  records.sort((x, y) =>
    x.mtimeNs !== y.mtimeNs
      ? x.mtimeNs < y.mtimeNs
        ? -1
        : 1
      : compareIfNames(x.attachment.ifName, y.attachment.ifName),
  );
  const found = records.map((r) => r.attachment);
  const out: PodAttachments = { podID, usable: [], unusable: [], interrupted: [], intent: "none" };
  for (const { attachment: att, bytes } of records) {
    try {
      out.usable.push(toCached(att, set, netns, bytes));
    } catch (error) {
      out.unusable.push({ network: att.network, ifName: att.ifName, error });
    }
  }
  out.unusable.push(...(await undecodableRecords(cacheDir, podID, names, found)));
  if (intent.kind === "unusable") {
    out.intent = "unusable";
    out.damagedIntent = intent.error;
    out.unusable.push({ network: "", ifName: "", error: intent.error });
  } else if (intent.kind === "attachments") {
    out.intent = "read";
    out.owner = intent.owner;
    out.run = {
      podID,
      owner: intent.owner,
      runID: intent.runID,
      attachments: intent.attachments.map((a) => ({
        netNS: a.netNS ?? "",
        ifName: a.ifName,
        cniArgs: a.cniArgs,
      })),
    };
    const recorded = new Set(found.map((a) => `${a.network}\0${a.ifName}`));
    for (const att of intent.attachments) {
      if (recorded.has(`${att.network}\0${att.ifName}`)) continue;
      try {
        out.interrupted.push(toCached(att, set, netns));
      } catch (error) {
        out.unusable.push({ network: att.network, ifName: att.ifName, error });
      }
    }
  }
  return out;
}
