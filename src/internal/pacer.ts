/**
 * The library's synchronous steps paced over turns of the event loop.
 *
 * A runtime that starts 100 ADDs in one turn (`Promise.all`) would otherwise have every
 * plugin's stdin built back to back in that turn, and later, when a read from the spawner
 * helper brings 30 plugin exits at once, 30 results decoded and 30 cache records encoded in
 * one turn: a stretch, growing with the burst, in which no timer or socket of the runtime
 * runs. Those steps go through a {@link Pacer}: a step runs at once while the library's steps
 * in the current turn stayed within a small budget and no earlier step waits, else on a later
 * turn, in the order they came. A lone call never waits; only a burst is spread.
 *
 * The steps are the small ones (under 1 MiB): a large document already yields between its
 * stages (src/large-documents/slices.ts).
 */
import { nextTurn, TurnQueue, type TurnScheduler } from "./turn-queue.js";

interface Waiting {
  job: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A FIFO of synchronous steps, run within a time budget per turn of the event loop. */
export class Pacer {
  private readonly queue: TurnQueue<Waiting>;
  /** When the current turn's first step ran; -1 while no turn is being counted. */
  private turnStart = -1;

  /**
   * @param budgetMs the steps' time per turn before the next step waits for a later turn
   * @param now a monotonic clock in milliseconds
   * @param schedule how a later turn is reached; `setImmediate` runs after the loop's I/O
   */
  constructor(
    private readonly budgetMs: number = 1,
    private readonly now: () => number = () => performance.now(),
    schedule: TurnScheduler = nextTurn,
  ) {
    this.queue = new TurnQueue(() => this.tick(), schedule);
  }

  /** How many steps wait for a later turn. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Runs `job` now if the turn's budget allows and no step waits, else on a later turn after
   * every step that waits. The promise settles with what `job` returned or threw.
   */
  run<T>(job: () => T): Promise<T> {
    if (this.waiting === 0 && this.withinBudget()) {
      try {
        return Promise.resolve(job());
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ job, resolve: resolve as (value: unknown) => void, reject });
      this.queue.bookTurn();
    });
  }

  /** True while the current turn's steps stayed within the budget; starts counting a turn. */
  private withinBudget(): boolean {
    const now = this.now();
    if (this.turnStart < 0) {
      this.turnStart = now;
      // The next tick ends this turn's count.
      this.queue.bookTurn();
      return true;
    }
    return now - this.turnStart < this.budgetMs;
  }

  // A new turn: the steps that wait run while the budget lasts (at least one, so every turn
  // makes progress); a tick follows while any wait, and one more to end the turn's count.
  private tick(): void {
    if (this.waiting === 0) {
      this.turnStart = -1;
      return;
    }
    this.turnStart = this.now();
    do {
      const step = this.queue.shift() as Waiting;
      try {
        step.resolve(step.job());
      } catch (error) {
        step.reject(error);
      }
    } while (this.waiting > 0 && this.now() - this.turnStart < this.budgetMs);
    this.queue.bookTurn();
  }
}

/** The pacer of every verb's steps in this thread. */
export const pacer: Pacer = new Pacer();

/** Runs the synchronous step `job` through the thread's {@link pacer}. */
export function paced<T>(job: () => T): Promise<T> {
  return pacer.run(job);
}
