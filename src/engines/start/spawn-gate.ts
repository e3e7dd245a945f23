/**
 * At most one process start per turn of the event loop.
 *
 * Node's `spawn()` forks the whole Node process on the main thread and waits there for the
 * exec; the fork copies the page tables, so each start blocks the loop for milliseconds, more
 * as the heap grows. A burst of calls (100 concurrent ADDs) would otherwise run dozens of
 * starts back to back inside one turn and stall every timer and socket of the runtime for
 * the whole burst. Queued here, each turn holds at most one start, and I/O and timers run
 * between them, so the loop's delay stays about one fork's.
 */
import { nextTurn, TurnQueue, type TurnScheduler } from "../../internal/turn-queue.js";

/** A queued start; `job` is cleared once it has run or was cancelled. */
interface Entry {
  job: (() => void) | undefined;
}

/**
 * A FIFO of start jobs, run one per turn of the event loop. The jobs must not throw: a job
 * that does would surface as an uncaught exception (the next job still runs).
 */
export class SpawnGate {
  private readonly queue: TurnQueue<Entry>;
  private live = 0;

  /** @param schedule how the next turn is reached; `setImmediate` runs after the loop's I/O. */
  constructor(schedule: TurnScheduler = nextTurn) {
    this.queue = new TurnQueue(() => this.drain(), schedule);
  }

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
    this.queue.push(entry);
    this.live++;
    this.queue.bookTurn();
    return () => {
      if (entry.job === undefined) return false;
      entry.job = undefined;
      this.live--;
      return true;
    };
  }

  // One job per turn; the next turn is booked before the job runs, so a job that throws does
  // not stall the queue.
  private drain(): void {
    const job = this.take();
    if (this.live > 0) this.queue.bookTurn();
    job?.();
  }

  // The first job not cancelled; the cancelled ones before it are dropped.
  private take(): (() => void) | undefined {
    for (let entry = this.queue.shift(); entry !== undefined; entry = this.queue.shift()) {
      const { job } = entry;
      if (job !== undefined) {
        entry.job = undefined;
        this.live--;
        return job;
      }
    }
    return undefined;
  }
}

/** The gate every plugin start of this process goes through. */
export const spawnGate: SpawnGate = new SpawnGate();
