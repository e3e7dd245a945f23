/**
 * `cnitool gc <net> <netns>`: upstream's GC of one network (`GCNetworkList`), then what it
 * collected printed, `<container-id>:<ifname>` a line (nothing when nothing, as upstream) or
 * `--json`; `--dry-run` prints what a GC would collect and runs nothing. These are additions
 * of this port (docs/cnitool.md, docs/deviations/cnitool.md).
 */
import type { CNIConfig, GCArgs, NetworkAttachment } from "../api/index.js";
import type { NetworkConfigList } from "../conf/index.js";
import { marshalIndent } from "../encoding/json.js";
import { InvalidArgumentError } from "../errors/base.js";
import { goQuote } from "../internal/go-quote.js";
import { validateContainerID, validateInterfaceName, validateNetworkName } from "../utils/index.js";
import { flagIsTrue, type ParsedFlags } from "./flags.js";
import type { CnitoolIO } from "./runtime-config.js";

const key = (containerID: string, ifName: string): string => `${containerID}\0${ifName}`;

/**
 * `--valid cid:ifname,...` into GC args: the attachments to keep, split at commas or newlines
 * (a dry run's lines). An empty value keeps none (plugins then receive `[]` where upstream's
 * cnitool sends `null`).
 * @throws InvalidArgumentError for an entry that is not `<container-id>:<ifname>`, each a valid
 *   name: `" B:eth0"` (after `, `) would match nothing, and GC would DEL what it was to keep.
 */
function parseValid(text: string): GCArgs {
  const entries = text === "" ? [] : text.split(/[,\n]/);
  return {
    validAttachments: entries.map((entry) => {
      const at = entry.lastIndexOf(":");
      const [containerID, ifname] = [entry.slice(0, at), entry.slice(at + 1)];
      if (at <= 0 || validateContainerID(containerID) || validateInterfaceName(ifname)) {
        throw new InvalidArgumentError(
          "--valid",
          `invalid --valid attachment ${goQuote(entry)}: want <container-id>:<ifname>`,
        );
      }
      return { containerID, ifname };
    }),
  };
}

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

/**
 * Runs gc (or its dry run) and prints what was (or would be) collected: what is gone from the
 * cache after the GC. A GC that fails prints what it did collect, then throws its error.
 * @throws what gcNetworkList throws; a dry run throws the invalid network name it would.
 */
export async function gcCommand(
  cni: CNIConfig,
  list: NetworkConfigList,
  parsed: ParsedFlags,
  io: Pick<CnitoolIO, "stdout" | "signal">,
): Promise<void> {
  // Without --valid, as upstream (no GC args): every cached attachment of the network goes.
  const valid = parsed.values.get("valid");
  const args = valid === undefined ? undefined : parseValid(valid);
  const dryRun = flagIsTrue(parsed, "dry-run");
  const print = (attachments: readonly NetworkAttachment[]) => {
    if (!flagIsTrue(parsed, "json")) {
      for (const a of attachments) io.stdout.write(`${a.containerID}:${a.ifName}\n`);
      return;
    }
    const collected = attachments.map((a) => ({
      containerID: a.containerID,
      ifName: a.ifName,
      netNS: a.netNS || undefined,
    }));
    io.stdout.write(`${marshalIndent({ network: list.name, dryRun, collected })}\n`);
  };
  const invalid = dryRun && !list.disableGC ? validateNetworkName(list.name) : undefined;
  if (invalid) throw invalid;
  // A listing that fails is the GC's to report (upstream's text), and the plugins' GC still runs.
  const stale = await staleAttachments(cni, list, args, io.signal).catch((error: unknown) =>
    dryRun ? Promise.reject(error) : [],
  );
  if (dryRun) return print(stale);
  const failure = await cni.gcNetworkList(list, args, { signal: io.signal }).then(
    () => undefined,
    (error: unknown) => ({ error }),
  );
  const left = new Set(
    (await cni.getCachedAttachments("").catch(() => stale))
      .filter((a) => a.network === list.name)
      .map((a) => key(a.containerID, a.ifName)),
  );
  print(stale.filter((a) => !left.has(key(a.containerID, a.ifName))));
  if (failure) throw failure.error;
}
