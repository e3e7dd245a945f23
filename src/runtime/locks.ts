/**
 * The runtime's serialisation, per runtime object:
 * - setup, teardown and check of one pod run one after another, in call order (a FIFO mutex
 *   per pod ID); different pods run in parallel;
 * - GC is exclusive with all of them (a FIFO readers-writer lock: pod calls share it, GC
 *   takes it alone; a waiting GC holds back the pod calls queued after it, so it is not
 *   starved).
 * Lock order is always the GC lock, then the pod's: no cycle, no deadlock.
 */

import { acquireNested, KeyedLocks, type Release, RWLock } from "../internal/keyed-lock.js";

export { type Release, withLock } from "../internal/keyed-lock.js";

/** The locks of one runtime. */
export class RuntimeLocks {
  readonly gc = new RWLock();
  /** One FIFO mutex per pod ID (the keyed locks, always taken exclusively). */
  readonly pods = new KeyedLocks();

  /** A pod call: the GC lock shared, then the pod's mutex. */
  pod(id: string, signal?: AbortSignal): Promise<Release> {
    return acquireNested(
      () => this.gc.acquire(true, signal),
      () => this.pods.acquire(id, false, signal),
    );
  }

  /** GC: the GC lock alone, once every pod call in flight has finished. */
  exclusive(signal?: AbortSignal): Promise<Release> {
    return this.gc.acquire(false, signal);
  }
}
