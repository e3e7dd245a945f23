/**
 * At most one process start per turn of the event loop.
 *
 * Node's `spawn()` forks the whole Node process on the main thread and waits there for the
 * exec; the fork copies the page tables, so each start blocks the loop for milliseconds, more
 * as the heap grows. A burst of calls (100 concurrent ADDs) would otherwise run dozens of
 * starts back to back inside one turn and stall every timer and socket of the runtime for
 * the whole burst (bench: event-loop delay p99 90 ms, max 644 ms). Queued here, each turn
 * holds at most one start, and I/O and timers run between them (p99 ≈ one fork).
 */

/** A queued start; `job` is cleared once it has run or was cancelled. */
interface Entry {
  job: (() => void) | undefined;
}

/** Runs a callback on a later turn of the event loop (`setImmediate` by default). */
export type Scheduler = (callback: () => void) => void;

/**
 * A FIFO of start jobs, run one per turn of the event loop. The jobs must not throw: a job
 * that does would surface as an uncaught exception (the next job still runs).
 */
export class SpawnGate {
  private entries: Entry[] = [];
  private head = 0;
  private live = 0;
  private scheduled = false;

  /** @param schedule how the next turn is reached; `setImmediate` runs after the loop's I/O. */
  constructor(private readonly schedule: Scheduler = (callback) => setImmediate(callback)) {}

  /** How many jobs wait for their turn. */
  get pending(): number {
    return this.live;
  }

  /**
   * Queues `job` to run on a later turn, after every job queued before it. Returns a function
   * that cancels the job if it has not run yet (true) or does nothing (false); a cancelled job
   * takes no turn.
   */
  enqueue(job: () => void): () => boolean {
    const entry: Entry = { job };
    this.entries.push(entry);
    this.live++;
    this.wake();
    return () => {
      if (entry.job === undefined) return false;
      entry.job = undefined;
      this.live--;
      return true;
    };
  }

  private wake(): void {
    if (this.scheduled || this.live === 0) return;
    this.scheduled = true;
    this.schedule(this.drain);
  }

  // One job per turn; the next turn is booked before the job runs, so a job that throws does
  // not stall the queue.
  private readonly drain = (): void => {
    this.scheduled = false;
    const job = this.take();
    this.wake();
    job?.();
  };

  private take(): (() => void) | undefined {
    while (this.head < this.entries.length) {
      const entry = this.entries[this.head++];
      const { job } = entry;
      if (job !== undefined) {
        entry.job = undefined;
        this.live--;
        this.compact();
        return job;
      }
    }
    this.compact();
    return undefined;
  }

  // Drops the consumed prefix now and then, so the array does not grow with every start.
  private compact(): void {
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}

/** The gate every plugin start of this process goes through. */
export const spawnGate: SpawnGate = new SpawnGate();
