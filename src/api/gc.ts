/**
 * Garbage collection of a network (upstream `GCNetworkList`): stale cached attachments deleted,
 * then each plugin told which are still valid; every error collected, everything tried.
 */

import { validateNames } from "../cache/names.js";
import {
  listCachedAttachments,
  type ValidFromListing,
  validFromListing,
} from "../cache/results.js";
import { injectConf, type NetworkConfigList, type PluginConfig } from "../conf/index.js";
import { EncodedJSON, quoteString, RawJSON } from "../encoding/json.js";
import { WrappedError } from "../errors/base.js";
import type { ExecOptions } from "../invoke/index.js";
import type { GCAttachment } from "../types/gc.js";
import { greaterThanOrEqualTo } from "../version/index.js";
import type { PluginRunner } from "./runner.js";
import type { CollectedAttachment } from "./trace-verbs.js";
import type { GCArgs, NetworkAttachment, RuntimeConf } from "./types.js";

/** What GC needs from its CNIConfig. */
export interface GCContext {
  readonly cacheDir: string;
  readonly runner: PluginRunner;
  /** DEL of the list for one attachment, without locking (GC holds the network). */
  delList(list: NetworkConfigList, rt: RuntimeConf, options: ExecOptions): Promise<void>;
  /** Where a traced GC lists each attachment it DELeted (`libcni:verb`'s `collected`). */
  readonly collected?: CollectedAttachment[] | undefined;
}

/** DELs each cached attachment of `list`'s network `args` does not list (all without args). */
async function deleteStale(
  ctx: GCContext,
  list: NetworkConfigList,
  attachments: readonly NetworkAttachment[],
  args: GCArgs | undefined,
  options: ExecOptions,
  errors: unknown[],
): Promise<void> {
  const key = (containerID: string, ifName: string): string => `${containerID}\0${ifName}`;
  const valid =
    args === undefined
      ? undefined
      : new Set((args.validAttachments ?? []).map((a) => key(a.containerID, a.ifname)));
  for (const attachment of attachments) {
    if (attachment.network !== list.name) continue;
    if (valid?.has(key(attachment.containerID, attachment.ifName))) continue;
    const rt: RuntimeConf = {
      containerID: attachment.containerID,
      netNS: attachment.netNS,
      ifName: attachment.ifName,
      args: attachment.cniArgs,
      capabilityArgs: attachment.capabilityArgs,
    };
    try {
      // A record is a file anyone could write: its names must not steer a removal.
      validateNames(list.name, rt);
      await ctx.delList(list, rt, options);
      ctx.collected?.push({ containerID: rt.containerID, ifName: rt.ifName });
    } catch (error) {
      errors.push(
        new WrappedError(`failed to delete stale attachment ${rt.containerID} ${rt.ifName}`, error),
      );
    }
  }
}

/**
 * Go's encoding of the valid attachments (`[]types.GCAttachment`: `containerID` then `ifname`,
 * never omitted), written once for every plugin and both keys, without `marshal`'s walk.
 */
export function encodeValidAttachments(valid: readonly GCAttachment[]): EncodedJSON {
  const parts = valid.map(
    (a) => `{"containerID":${quoteString(a.containerID)},"ifname":${quoteString(a.ifname)}}`,
  );
  return new EncodedJSON(`[${parts.join(",")}]`);
}

/**
 * From 1.1.0, GC of each plugin with `name`, `cniVersion` and, when there are args, the valid
 * attachments under both `cni.dev/valid-attachments` and `cni.dev/attachments` (upstream #1101).
 */
async function gcPlugins(
  ctx: GCContext,
  list: NetworkConfigList,
  args: GCArgs | undefined,
  options: ExecOptions,
  errors: unknown[],
): Promise<void> {
  try {
    if (!greaterThanOrEqualTo(list.cniVersion, "1.1.0")) return;
  } catch (error) {
    // Upstream skips the plugins' GC silently on a version that does not parse.
    errors.push(error);
    return;
  }
  const inject: Record<string, unknown> = { name: list.name, cniVersion: list.cniVersion };
  if (args !== undefined) {
    // Go injects the slice even when it is nil, which encodes as null (injectConf refuses a
    // bare null, so the null goes in pre-encoded).
    const valid =
      args.validAttachments === undefined
        ? new RawJSON("null")
        : encodeValidAttachments(args.validAttachments);
    inject["cni.dev/valid-attachments"] = valid;
    inject["cni.dev/attachments"] = valid;
  }
  for (const plugin of list.plugins) {
    let conf: PluginConfig;
    try {
      conf = injectConf(plugin, inject);
    } catch (error) {
      // Upstream main records the error, then runs the plugin with a nil config (a panic);
      // skipping the plugin is upstream #1184 (open), whose texts are not taken: these are main's.
      const what = `failed to generate configuration to GC plugin ${plugin.network.type}`;
      errors.push(new WrappedError(what, error));
      continue;
    }
    await ctx.runner.runWithoutAttachment("GC", conf, options).catch((error: unknown) => {
      errors.push(new WrappedError(`failed to GC plugin ${plugin.network.type}`, error));
    });
  }
}

/** The body of a GC, run holding the network's lock; returns every error, in order. */
export async function collectGarbage(
  ctx: GCContext,
  list: NetworkConfigList,
  args: GCArgs | undefined,
  options: ExecOptions,
): Promise<unknown[]> {
  const errors: unknown[] = [];
  const listed = await listCachedAttachments(ctx.cacheDir, "", { sweep: true }).catch(
    (error: unknown) => {
      // Upstream main returns success here without GC-ing anything (its #1165, closed unmerged,
      // returned the error and skipped the plugins' GC too); here the plugins' GC still runs,
      // unless the valid attachments were to come from this listing.
      errors.push(new WrappedError("failed to list cached attachments", error));
      return undefined;
    },
  );
  const fromListing = (args as { [validFromListing]?: ValidFromListing } | undefined)?.[
    validFromListing
  ];
  if (fromListing !== undefined) {
    // The runtime's GC DELeted its stale pods with their cached configs: none again with today's.
    if (listed === undefined) return errors;
    args = { validAttachments: await fromListing(listed) };
  } else await deleteStale(ctx, list, listed ?? [], args, options, errors);
  await gcPlugins(ctx, list, args, options, errors);
  return errors;
}
