/**
 * In-process serialisation of operations on attachments (upstream has none).
 *
 * The spec forbids parallel operations on the same container and wants GC exclusive with ADD
 * and DEL. Within one process this module provides exactly that:
 * - ADD, CHECK and DEL on one attachment (cache directory, network, container ID, interface)
 *   run one after another, in call order; on different attachments they run in parallel;
 * - GC of a network waits for the ADD, CHECK and DEL in flight on that network and holds off
 *   the ones that come after it (a FIFO readers-writer lock, so GC is not starved).
 * Locks are process-wide, keyed by the resolved cache directory, so two `CNIConfig` objects
 * sharing a cache directory share them too. Other processes are not covered.
 */
import { resolve } from "node:path";
import { acquireNested, KeyedLocks, type Release } from "../internal/keyed-lock.js";

export { type Release, withLock } from "../internal/keyed-lock.js";

const networks = new KeyedLocks();
const attachments = new KeyedLocks();

function networkKey(cacheDir: string, network: string): string {
  return `${resolve(cacheDir)}\0${network}`;
}

/**
 * Locks one attachment for ADD, CHECK or DEL: its network shared (so GC waits), then the
 * attachment exclusively. Rejects with the signal's reason if aborted while waiting.
 */
export function lockAttachment(
  cacheDir: string,
  network: string,
  containerID: string,
  ifName: string,
  signal?: AbortSignal,
): Promise<Release> {
  const netKey = networkKey(cacheDir, network);
  return acquireNested(
    () => networks.acquire(netKey, true, signal),
    () => attachments.acquire(`${netKey}\0${containerID}\0${ifName}`, false, signal),
  );
}

/**
 * Locks a whole network for GC: waits for every ADD, CHECK and DEL in flight on it, and holds
 * off those that come later until released.
 */
export function lockNetwork(
  cacheDir: string,
  network: string,
  signal?: AbortSignal,
): Promise<Release> {
  return networks.acquire(networkKey(cacheDir, network), false, signal);
}

/** How many network and attachment locks are live; both return to 0 when nothing runs. */
export function liveLocks(): { networks: number; attachments: number } {
  return { networks: networks.size, attachments: attachments.size };
}
