/**
 * A plugin process started by the spawner helper, shaped like a ChildProcess for a run.
 *
 * Its pipes live in the helper, which relays their bytes; this object turns the helper's
 * frames back into ChildProcess's events: `data` on stdout/stderr, `exit` once the helper
 * reaped the plugin, `close` once it was reaped and both output pipes are closed (or given up
 * from this side by `destroy()`).
 */
import { EventEmitter } from "node:events";
import { constants } from "node:os";
import type { LaunchedChild, LaunchedOutput, LaunchedStdin } from "../start/launcher.js";

/** What the child needs from the helper connection it runs on. */
export interface ChildLink {
  /** Sends the stdin bytes and closes the plugin's stdin after them. */
  sendStdin(id: number, data: Uint8Array): void;
  /** Stops relaying the run's pipes (the helper closes its ends). */
  sendClose(id: number): void;
}

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, n]) => [n, name as NodeJS.Signals]),
);

/** A raw wait status as Node reports it: an exit code, or the name of the killing signal. */
export function decodeWaitStatus(status: number): {
  code: number | null;
  signal: NodeJS.Signals | null;
} {
  const low = status & 0x7f;
  if (low === 0) return { code: (status >> 8) & 0xff, signal: null };
  // A signal Node has no name for (a real-time one) is Go's `signal 35`.
  return { code: null, signal: signalNames.get(low) ?? (`signal ${low}` as NodeJS.Signals) };
}

class Output extends EventEmitter implements LaunchedOutput {
  closed = false;
  constructor(private readonly onDestroy: () => void) {
    super();
  }
  destroy(): void {
    if (this.closed) return;
    this.closed = true;
    this.onDestroy();
  }
}

class Stdin extends EventEmitter implements LaunchedStdin {
  /** @param ended the bytes went with the start already: `end` has nothing left to send */
  constructor(
    private readonly write: (data: Uint8Array) => void,
    private ended = false,
  ) {
    super();
  }
  end(chunk: Uint8Array): void {
    if (this.ended) return;
    this.ended = true;
    this.write(chunk);
  }
  destroy(): void {
    // The helper closes the plugin's stdin with its other pipes (CLOSE).
    this.ended = true;
  }
}

/** One run in the helper. The connection calls the `on*` methods as frames arrive. */
export class SpawnedChild extends EventEmitter implements LaunchedChild {
  readonly stdin: Stdin;
  readonly stdout: Output;
  readonly stderr: Output;
  /** How the plugin ended, once the helper reaped it (a process of its pid may be another's). */
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private closed = false;
  private closeSent = false;
  // Frames that arrive before the caller had its turn to wire its listeners (the launch
  // promise settles in a microtask, frames may follow in the same chunk) wait here.
  private backlog: (() => void)[] | undefined = [];

  constructor(
    readonly pid: number,
    private readonly id: number,
    private readonly link: ChildLink,
    private readonly onClosed: () => void,
    stdinSent = false,
  ) {
    super();
    this.stdin = new Stdin((data) => link.sendStdin(id, data), stdinSent);
    this.stdout = new Output(() => this.destroyed());
    this.stderr = new Output(() => this.destroyed());
    setImmediate(() => {
      const backlog = this.backlog ?? [];
      this.backlog = undefined;
      for (const event of backlog) event();
    });
  }

  private deliver(event: () => void): void {
    if (this.backlog !== undefined) this.backlog.push(event);
    else event();
  }

  /** Output bytes of the plugin. */
  onOutput(which: "stdout" | "stderr", data: Uint8Array): void {
    const bytes = Uint8Array.prototype.slice.call(data);
    this.deliver(() => {
      const stream = this[which];
      if (!stream.closed) stream.emit("data", bytes);
    });
  }

  /** The helper saw the end of stdout or stderr. */
  onEof(which: "stdout" | "stderr"): void {
    this.deliver(() => {
      this[which].closed = true;
      this.maybeClose();
    });
  }

  /** The helper reaped the plugin. */
  onExit(status: number): void {
    this.deliver(() => {
      if (this.closed) return;
      this.exit = decodeWaitStatus(status);
      this.emit("exit", this.exit.code, this.exit.signal);
      this.maybeClose();
    });
  }

  /** The helper is gone: the run fails with `error`, and ends. */
  onLost(error: Error): void {
    this.deliver(() => {
      if (this.closed) return;
      this.stdout.closed = true;
      this.stderr.closed = true;
      this.emit("error", error);
      this.close(null, null);
    });
  }

  // A side given up from here (a grandchild holding the pipes) counts as closed, as for a
  // destroyed ChildProcess stream; the helper is told once both are.
  private destroyed(): void {
    if (this.stdout.closed && this.stderr.closed && !this.closeSent) {
      this.closeSent = true;
      this.link.sendClose(this.id);
    }
    this.maybeClose();
  }

  private maybeClose(): void {
    if (this.exit === undefined || !this.stdout.closed || !this.stderr.closed) return;
    this.close(this.exit.code, this.exit.signal);
  }

  private close(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.closed) return;
    this.closed = true;
    this.onClosed();
    this.emit("close", code, signal);
  }
}
