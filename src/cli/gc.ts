/**
 * `cnitool gc <net> <netns>`: upstream's GC of one network (`GCNetworkList`: every cached
 * attachment of the network that `--valid` does not keep is DELeted with its cached netns and
 * args, then, from 1.1.0, each plugin gets GC), and what it collected printed: one
 * `<container-id>:<ifname>` a line (the form `--valid` takes; nothing when it collected
 * nothing, so upstream's silent output is unchanged), or with `--json` an object. An attachment
 * counts as collected when its record is gone after the GC. With `--dry-run` it prints what a
 * GC would collect and runs nothing: no plugin, no file touched. These are additions of this
 * port (docs/deviations/cnitool.md).
 */
import type { CNIConfig, GCArgs, NetworkAttachment } from "../api/index.js";
import type { NetworkConfigList } from "../conf/index.js";
import { marshalIndent } from "../encoding/json.js";
import { validateNetworkName } from "../utils/index.js";

/** What gc prints to. */
export interface GCIO {
  stdout: { write(text: string): unknown };
}

/** The gc flags, as parsed. */
export interface GCFlags {
  /** The GC args from `--valid`, or undefined without the flag (upstream's nil args). */
  args: GCArgs | undefined;
  dryRun: boolean;
  json: boolean;
}

const key = (containerID: string, ifName: string): string => `${containerID}\0${ifName}`;

/**
 * The cached attachments of the network that a GC would DEL: all of them without args, else
 * those the args do not keep (upstream's rule); none with `disableGC`.
 */
async function staleAttachments(
  cni: CNIConfig,
  list: NetworkConfigList,
  args: GCArgs | undefined,
  signal: AbortSignal | undefined,
): Promise<NetworkAttachment[]> {
  if (list.disableGC) return [];
  const keep = new Set((args?.validAttachments ?? []).map((a) => key(a.containerID, a.ifname)));
  const cached = await cni.getCachedAttachments("", { signal });
  return cached.filter((a) => a.network === list.name && !keep.has(key(a.containerID, a.ifName)));
}

function print(
  io: GCIO,
  list: NetworkConfigList,
  flags: GCFlags,
  attachments: readonly NetworkAttachment[],
): void {
  if (flags.json) {
    const view = {
      network: list.name,
      dryRun: flags.dryRun,
      collected: attachments.map((a) => ({
        containerID: a.containerID,
        ifName: a.ifName,
        netNS: a.netNS || undefined,
      })),
    };
    io.stdout.write(`${marshalIndent(view)}\n`);
    return;
  }
  for (const a of attachments) io.stdout.write(`${a.containerID}:${a.ifName}\n`);
}

/**
 * Runs gc (or its dry run) and prints what was (or would be) collected; a GC that fails prints
 * what it did collect, then throws its error.
 * @throws what gcNetworkList throws; a dry run throws the invalid network name it would.
 */
export async function gcCommand(
  cni: CNIConfig,
  list: NetworkConfigList,
  flags: GCFlags,
  io: GCIO,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (flags.dryRun) {
    const invalid = list.disableGC ? undefined : validateNetworkName(list.name);
    if (invalid) throw invalid;
    print(io, list, flags, await staleAttachments(cni, list, flags.args, signal));
    return;
  }
  const stale = await staleAttachments(cni, list, flags.args, signal);
  let failure: { error: unknown } | undefined;
  try {
    await cni.gcNetworkList(list, flags.args, { signal });
  } catch (error) {
    failure = { error };
  }
  const left = new Set(
    (await cni.getCachedAttachments("").catch(() => stale))
      .filter((a) => a.network === list.name)
      .map((a) => key(a.containerID, a.ifName)),
  );
  print(
    io,
    list,
    flags,
    stale.filter((a) => !left.has(key(a.containerID, a.ifName))),
  );
  if (failure) throw failure.error;
}
