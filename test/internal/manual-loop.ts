/**
 * An event loop driven by hand, for the queues that run work on later turns (the spawn gate,
 * the pacer): `schedule` books a callback, `turn()` runs what was booked before it and says how
 * many ran; `now()` is a clock that moves only with `advance(ms)`.
 */
export function manualLoop(): {
  schedule: (cb: () => void) => void;
  turn: () => number;
  now: () => number;
  advance: (ms: number) => void;
} {
  let queued: Array<() => void> = [];
  let time = 0;
  return {
    schedule: (cb) => {
      queued.push(cb);
    },
    turn: () => {
      const now = queued;
      queued = [];
      for (const cb of now) cb();
      return now.length;
    },
    now: () => time,
    advance: (ms) => {
      time += ms;
    },
  };
}
