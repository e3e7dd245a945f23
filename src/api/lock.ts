/**
 * In-process serialisation of operations on attachments (upstream has none), as the spec asks:
 * ADD, CHECK and DEL on one attachment run in call order, on different ones in parallel; GC of
 * a network excludes them (a FIFO readers-writer lock, so GC is not starved). Keyed by the
 * resolved cache directory, so two `CNIConfig`s sharing one share the locks; other processes
 * are not covered.
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
 * Locks one attachment: its network shared (so GC waits), then the attachment exclusively.
 * Rejects with the signal's reason if aborted while waiting.
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

/** Locks a whole network for GC, exclusive of every ADD, CHECK and DEL on it. */
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
