/** The in-process locks the library serialises calls with (upstream has none). */

/** Releases a lock; calling it more than once has no further effect. */
export type Release = () => void;

interface Waiter {
  readonly shared: boolean;
  grant(): void;
}

/**
 * A FIFO readers-writer lock: a waiting writer holds back the readers that queue after it, so
 * a writer is not starved (an exclusive-only use of it is a FIFO mutex).
 */
export class RWLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Waiter[] = [];

  /** @param onIdle called each time the lock is left with no holder and no waiter */
  constructor(private readonly onIdle?: () => void) {}

  /** No holder and no waiter. */
  get idle(): boolean {
    return !this.writer && this.readers === 0 && this.queue.length === 0;
  }

  private canTake(shared: boolean): boolean {
    return shared ? !this.writer : !this.writer && this.readers === 0;
  }

  private take(shared: boolean): Release {
    if (shared) this.readers++;
    else this.writer = true;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (shared) this.readers--;
      else this.writer = false;
      this.drain();
    };
  }

  private drain(): void {
    while (this.queue.length > 0 && this.canTake(this.queue[0].shared)) this.queue.shift()?.grant();
    if (this.idle) this.onIdle?.();
  }

  /** Waits for the lock; rejects with the signal's reason if aborted while waiting. */
  acquire(shared: boolean, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queue.length === 0 && this.canTake(shared)) return Promise.resolve(this.take(shared));
    return new Promise<Release>((resolve, reject) => {
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
          resolve(this.take(shared));
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }
}

/** Readers-writer locks by key, created on demand and dropped when idle. */
export class KeyedLocks {
  private readonly locks = new Map<string, RWLock>();

  /** The number of keys with a holder or a waiter. */
  get size(): number {
    return this.locks.size;
  }

  /** The lock of `key`, shared or exclusive; rejects with the signal's reason if aborted. */
  acquire(key: string, shared: boolean, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let lock = this.locks.get(key);
    if (lock === undefined) {
      // No closure of the call's own: an ADD in flight holds less (bench/README.md).
      const created = new RWLock(() => this.locks.get(key) === created && this.locks.delete(key));
      this.locks.set(key, created);
      lock = created;
    }
    return lock.acquire(shared, signal);
  }
}

/**
 * Takes `outer`, then `inner` (always in that order, so two such pairs cannot deadlock); the
 * release frees both, inner first. If `inner` fails (an abort), `outer` is freed.
 */
export async function acquireNested(
  outer: () => Promise<Release>,
  inner: () => Promise<Release>,
): Promise<Release> {
  const releaseOuter = await outer();
  try {
    const releaseInner = await inner();
    return () => {
      releaseInner();
      releaseOuter();
    };
  } catch (error) {
    releaseOuter();
    throw error;
  }
}

/** Runs `fn` holding the lock `acquire` gives, releasing it however `fn` ends. */
export async function withLock<T>(acquire: Promise<Release>, fn: () => Promise<T>): Promise<T> {
  const release = await acquire;
  try {
    return await fn();
  } finally {
    release();
  }
}
