/**
 * The library's synchronous steps paced over turns of the event loop.
 *
 * A runtime that starts 100 ADDs in one turn (`Promise.all`) would otherwise have every
 * plugin's stdin built back to back in that turn, and later, when a read from the spawner
 * helper brings 30 plugin exits at once, 30 results decoded and 30 cache records encoded in
 * one turn: tens of milliseconds in which no timer or socket of the runtime runs (bench: the
 * caller's turn alone took 13-47 ms for 100 ADDs). Those steps go through a {@link Pacer}: a
 * step runs at once while the library's steps in the current turn stayed within a small
 * budget and no earlier step waits, else on a later turn, in the order they came. A lone call
 * never waits; only a burst is spread, a budget's worth per turn.
 *
 * The steps are the small ones (under 1 MiB): a large document already yields between its
 * stages (internal/yield.ts).
 */

/** Runs a callback on a later turn of the event loop (`setImmediate` by default). */
export type TurnScheduler = (callback: () => void) => void;

interface Waiting {
  job: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** The library's synchronous work allowed per turn of the event loop before it is deferred. */
const turnBudgetMs = 1;

/** A FIFO of synchronous steps, run within a time budget per turn of the event loop. */
export class Pacer {
  private queue: (Waiting | undefined)[] = [];
  private head = 0;
  /** When the current turn's first step ran; -1 while no turn is being counted. */
  private turnStart = -1;
  private ticking = false;

  /**
   * @param budgetMs the steps' time per turn before the next step waits for a later turn
   * @param now a monotonic clock in milliseconds
   * @param schedule how a later turn is reached; `setImmediate` runs after the loop's I/O
   */
  constructor(
    private readonly budgetMs: number = turnBudgetMs,
    private readonly now: () => number = () => performance.now(),
    private readonly schedule: TurnScheduler = (callback) => setImmediate(callback),
  ) {}

  /** How many steps wait for a later turn. */
  get waiting(): number {
    return this.queue.length - this.head;
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
      this.tickLater();
    });
  }

  /** True while the current turn's steps stayed within the budget; starts counting a turn. */
  private withinBudget(): boolean {
    const now = this.now();
    if (this.turnStart < 0) {
      this.turnStart = now;
      // The next tick ends this turn's count.
      this.tickLater();
      return true;
    }
    return now - this.turnStart < this.budgetMs;
  }

  private tickLater(): void {
    if (this.ticking) return;
    this.ticking = true;
    this.schedule(this.tick);
  }

  // A new turn: the steps that wait run while the budget lasts (at least one, so every turn
  // makes progress); a tick follows while any wait, and one more to end the turn's count.
  private readonly tick = (): void => {
    this.ticking = false;
    if (this.waiting === 0) {
      this.turnStart = -1;
      return;
    }
    this.turnStart = this.now();
    do {
      const step = this.queue[this.head] as Waiting;
      // Its slot let go at once: a long burst does not hold every finished step.
      this.queue[this.head++] = undefined;
      try {
        step.resolve(step.job());
      } catch (error) {
        step.reject(error);
      }
    } while (this.waiting > 0 && this.now() - this.turnStart < this.budgetMs);
    if (this.waiting === 0) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.tickLater();
  };
}

/** The pacer of every verb's steps in this thread. */
export const pacer: Pacer = new Pacer();

/** Runs the synchronous step `job` through the thread's {@link pacer}. */
export function paced<T>(job: () => T): Promise<T> {
  return pacer.run(job);
}
