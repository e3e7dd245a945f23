/**
 * What an attachment leaves in a world, and the assertion that DEL (or GC) left nothing: no
 * veth on the host side, no host-local reservation, no iptables chain or rule of the
 * container, no cache record.
 */
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { ipamReservations, iptablesRules, linksOfKind } from "./inspect.js";
import type { E2EWorld } from "./world.js";

/** Everything of one network a world still holds. */
export interface WorldTraces {
  /** Host-side veth ends. */
  veths: string[];
  /** host-local reservations as `ip containerID`. */
  reservations: string[];
  /**
   * nat-table lines (chains and rules, IPv6 ones prefixed `[v6] `) naming a container of the
   * list by comment, or one of its chains.
   */
  natLines: string[];
  /** Cache records (file names under <cacheDir>/results). */
  cacheRecords: string[];
}

/**
 * The per-container chain names the plugins derive from the network name and container ID
 * (plugins' utils.FormatChainName: SHA-512 of name+id, cut to iptables' 28 characters):
 * `CNI-<24 hex>` (bridge/ptp ipMasq) and `CNI-DN-<21 hex>` (portmap DNAT).
 */
export function containerChains(network: string, containerID: string): string[] {
  const hash = createHash("sha512")
    .update(network + containerID)
    .digest("hex");
  return [`CNI-${hash.slice(0, 24)}`, `CNI-DN-${hash.slice(0, 21)}`];
}

/**
 * The traces of `containerIDs` on network `network`. Per-container iptables state is found by
 * the comment every CNI plugin puts on its rules (`name: "<net>" id: "<cid>"`) and by the
 * per-container chains ({@link containerChains}).
 */
export async function tracesOf(
  world: E2EWorld,
  network: string,
  containerIDs: readonly string[],
): Promise<WorldTraces> {
  const veths = (await linksOfKind(world.hostNs, "veth")).map((l) => l.ifname);
  const reservations = (await ipamReservations(world.ipamDir, network))
    .filter((r) => containerIDs.includes(r.containerID))
    .map((r) => `${r.ip} ${r.containerID}`);
  const ids = containerIDs.map((id) => `id: \\"${id}\\"`);
  const chains = containerIDs.flatMap((id) => containerChains(network, id));
  const nat4 = await iptablesRules(world.hostNs, "nat", 4);
  const nat6 = (await iptablesRules(world.hostNs, "nat", 6)).map((line) => `[v6] ${line}`);
  const natLines = [...nat4, ...nat6].filter(
    (line) =>
      ids.some((id) => line.includes(id)) ||
      chains.some((chain) => line.split(" ").includes(chain)),
  );
  let cacheRecords: string[] = [];
  try {
    cacheRecords = (await readdir(join(world.cacheDir, "results"))).filter((name) =>
      containerIDs.some((id) => name.startsWith(`${network}-${id}-`)),
    );
  } catch {
    cacheRecords = [];
  }
  return { veths, reservations, natLines, cacheRecords };
}

/** The traces a clean world has: none. */
export const noTraces: WorldTraces = {
  veths: [],
  reservations: [],
  natLines: [],
  cacheRecords: [],
};
