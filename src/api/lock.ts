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

/** Releases a lock; calling it more than once has no further effect. */
export type Release = () => void;

interface Waiter {
  readonly shared: boolean;
  grant(): void;
}

/** A FIFO readers-writer lock: a waiting writer holds back the readers that queue after it. */
class RWLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Waiter[] = [];

  get idle(): boolean {
    return !this.writer && this.readers === 0 && this.queue.length === 0;
  }

  private canTake(shared: boolean): boolean {
    return shared ? !this.writer : !this.writer && this.readers === 0;
  }

  private take(shared: boolean): void {
    if (shared) this.readers++;
    else this.writer = true;
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canTake(this.queue[0].shared)) {
      this.queue.shift()?.grant();
    }
  }

  acquire(shared: boolean, signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queue.length === 0 && this.canTake(shared)) {
      this.take(shared);
      return Promise.resolve();
    }
    return new Promise<void>((resolvePromise, reject) => {
      const onAbort = (): void => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        // The waiter may have been holding back others (a writer at the head).
        this.drain();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        shared,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.take(shared);
          resolvePromise();
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  release(shared: boolean): void {
    if (shared) this.readers--;
    else this.writer = false;
    this.drain();
  }
}

/** Readers-writer locks by key, created on demand and dropped when idle. */
class KeyedLocks {
  private readonly locks = new Map<string, RWLock>();

  /** The number of keys with a holder or a waiter (for tests: it must return to 0). */
  get size(): number {
    return this.locks.size;
  }

  private dropIfIdle(key: string, lock: RWLock): void {
    if (lock.idle && this.locks.get(key) === lock) this.locks.delete(key);
  }

  async acquire(key: string, shared: boolean, signal?: AbortSignal): Promise<Release> {
    let lock = this.locks.get(key);
    if (lock === undefined) {
      lock = new RWLock();
      this.locks.set(key, lock);
    }
    const held = lock;
    try {
      await held.acquire(shared, signal);
    } catch (error) {
      this.dropIfIdle(key, held);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      held.release(shared);
      this.dropIfIdle(key, held);
    };
  }
}

const networks = new KeyedLocks();
const attachments = new KeyedLocks();

function networkKey(cacheDir: string, network: string): string {
  return `${resolve(cacheDir)}\0${network}`;
}

/**
 * Locks one attachment for ADD, CHECK or DEL: its network shared (so GC waits), then the
 * attachment exclusively. Rejects with the signal's reason if aborted while waiting.
 */
export async function lockAttachment(
  cacheDir: string,
  network: string,
  containerID: string,
  ifName: string,
  signal?: AbortSignal,
): Promise<Release> {
  const netKey = networkKey(cacheDir, network);
  const releaseNetwork = await networks.acquire(netKey, true, signal);
  try {
    const releaseAttachment = await attachments.acquire(
      `${netKey}\0${containerID}\0${ifName}`,
      false,
      signal,
    );
    return () => {
      releaseAttachment();
      releaseNetwork();
    };
  } catch (error) {
    releaseNetwork();
    throw error;
  }
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

/** Runs `fn` holding `lock`, releasing it however `fn` ends. */
export async function withLock<T>(lock: Promise<Release>, fn: () => Promise<T>): Promise<T> {
  const release = await lock;
  try {
    return await fn();
  } finally {
    release();
  }
}

/** How many network and attachment locks are live; both return to 0 when nothing runs. */
export function liveLocks(): { networks: number; attachments: number } {
  return { networks: networks.size, attachments: attachments.size };
}
