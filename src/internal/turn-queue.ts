/**
 * A FIFO drained on later turns of the event loop, under the pacer and the spawn gate (each
 * keeps its own policy of how much runs per turn). The owner pushes items and books a turn; on
 * that turn its callback takes what its policy allows and books the next while items remain.
 * Taken items are let go at once, and the consumed prefix of the array is dropped now and
 * then, so that a long burst holds neither finished items nor an ever-growing array.
 */

/** Runs a callback on a later turn of the event loop. */
export type TurnScheduler = (callback: () => void) => void;

/** `setImmediate`: the next turn, after the loop's I/O. */
export const nextTurn: TurnScheduler = (callback) => setImmediate(callback);

/** How many taken slots may stay at the array's head before it is compacted. */
const compactAfter = 1024;

/** A FIFO of items whose owner is called back on a later turn of the event loop. */
export class TurnQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  private booked = false;

  /**
   * @param onTurn what runs on a booked turn (the owner's policy)
   * @param schedule how a later turn is reached
   */
  constructor(
    private readonly onTurn: () => void,
    private readonly schedule: TurnScheduler = nextTurn,
  ) {}

  /** How many items wait. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Adds `item` at the tail. */
  push(item: T): void {
    this.items.push(item);
  }

  /** Takes the item at the head, its slot let go; undefined when none waits. */
  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > compactAfter && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Books the owner's callback on a later turn, unless one is booked already. */
  bookTurn(): void {
    if (this.booked) return;
    this.booked = true;
    this.schedule(this.turn);
  }

  private readonly turn = (): void => {
    this.booked = false;
    this.onTurn();
  };
}
