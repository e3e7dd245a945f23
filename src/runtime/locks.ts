/**
 * The runtime's serialisation, per runtime object:
 * - setup, teardown and check of one pod run one after another, in call order (a FIFO mutex
 *   per pod ID); different pods run in parallel;
 * - GC is exclusive with all of them (a FIFO readers-writer lock: pod calls share it, GC
 *   takes it alone; a waiting GC holds back the pod calls queued after it, so it is not
 *   starved).
 * Lock order is always the GC lock, then the pod's: no cycle, no deadlock.
 */

/** Releases a lock; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  readonly shared: boolean;
  grant(): void;
}

/** A FIFO readers-writer lock (an exclusive-only use of it is a FIFO mutex). */
export class RWLock {
  private readers = 0;
  private writer = false;
  private readonly queue: Waiter[] = [];

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
    while (this.queue.length > 0 && this.canTake(this.queue[0].shared)) {
      this.queue.shift()?.grant();
    }
  }

  /** Waits for the lock; rejects with the signal's reason if aborted while waiting. */
  acquire(shared: boolean, signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.queue.length === 0 && this.canTake(shared)) return Promise.resolve(this.take(shared));
    return new Promise<Release>((resolve, reject) => {
      const onAbort = (): void => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
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

/** One FIFO mutex per key, created on demand and dropped when idle. */
export class KeyedMutex {
  private readonly locks = new Map<string, RWLock>();

  /** Keys with a holder or a waiter (0 when nothing runs). */
  get size(): number {
    return this.locks.size;
  }

  async acquire(key: string, signal?: AbortSignal): Promise<Release> {
    let lock = this.locks.get(key);
    if (lock === undefined) {
      lock = new RWLock();
      this.locks.set(key, lock);
    }
    const held = lock;
    const drop = (): void => {
      if (held.idle && this.locks.get(key) === held) this.locks.delete(key);
    };
    let release: Release;
    try {
      release = await held.acquire(false, signal);
    } catch (error) {
      drop();
      throw error;
    }
    return () => {
      release();
      drop();
    };
  }
}

/** The locks of one runtime. */
export class RuntimeLocks {
  readonly gc = new RWLock();
  readonly pods = new KeyedMutex();

  /** A pod call: the GC lock shared, then the pod's mutex. */
  async pod(id: string, signal?: AbortSignal): Promise<Release> {
    const releaseGC = await this.gc.acquire(true, signal);
    try {
      const releasePod = await this.pods.acquire(id, signal);
      return () => {
        releasePod();
        releaseGC();
      };
    } catch (error) {
      releaseGC();
      throw error;
    }
  }

  /** GC: the GC lock alone, once every pod call in flight has finished. */
  exclusive(signal?: AbortSignal): Promise<Release> {
    return this.gc.acquire(false, signal);
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
