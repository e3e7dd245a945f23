/**
 * The spawner helper's file channel (protocol 5): bulk reads served by threads of the helper
 * (native/spawner.c) over its fd 3, a socket pair of its own, so that the files of a
 * directory (a conf dir's lists, a cache dir's records) are one request and one answer
 * instead of four thread-pool round trips each (open, fstat, read, close), and never wait
 * behind a plugin run's frames. (Durable writes were measured through it too and were slower
 * than the thread pool's: bench/HISTORY.md, "The library's file work".)
 */
import type { Duplex } from "node:stream";
import { encodeFileRead, FileRep, type Frame, FrameReader } from "./protocol.js";

/** A READ in flight: the files answered so far. */
interface Waiter {
  files: (Uint8Array | undefined)[];
  resolve(files: (Uint8Array | undefined)[]): void;
  reject(error: unknown): void;
}

const u32 = (bytes: Uint8Array, at: number): number =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);

/** What keeps the process alive while requests are in flight (the helper's own count). */
export interface Hold {
  retain(): void;
  release(): void;
}

/** The file channel of one helper; requests fail with the helper's error once it is gone. */
export class FileChannel {
  private readonly reader = new FrameReader();
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 1;
  private gone: Error | undefined;
  private corked = false;

  constructor(
    private readonly socket: Duplex,
    private readonly hold: Hold,
  ) {
    socket.on("error", () => {
      // EPIPE or a reset when the helper died: its exit fails what is in flight.
    });
    socket.on("data", (chunk: Buffer) => {
      try {
        this.reader.push(chunk, (frame) => this.dispatch(frame));
      } catch (error) {
        this.fail(error as Error);
        socket.destroy();
      }
    });
    socket.on("close", () => this.fail(new Error("the helper's file channel closed")));
  }

  /** True until the channel failed. */
  get alive(): boolean {
    return this.gone === undefined;
  }

  /**
   * Reads the regular files `names` of `dir` whole (`nofollow`: a symlink is not followed),
   * each at most `maxBytes`: the bytes per name, or undefined for one the helper did not read
   * (not a regular file, too large, any error), which the caller reads itself.
   */
  read(
    dir: string,
    names: readonly string[],
    nofollow: boolean,
    maxBytes: number,
  ): Promise<(Uint8Array | undefined)[]> {
    if (this.gone !== undefined) return Promise.reject(this.gone);
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffffffff ? 1 : this.nextId + 1;
    const files = Array.from<Uint8Array | undefined>({ length: names.length });
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.hold.retain();
      this.waiting.set(id, { files, resolve, reject });
      // The requests of one tick go out in one write (one wakeup of the helper's reader).
      if (!this.corked) {
        this.corked = true;
        this.socket.cork();
        process.nextTick(() => {
          this.corked = false;
          this.socket.uncork();
        });
      }
      this.socket.write(encodeFileRead(id, dir, names, nofollow, maxBytes));
    });
  }

  private dispatch({ type, id, payload }: Frame): void {
    const waiter = this.waiting.get(id);
    if (waiter === undefined) return;
    if (type === FileRep.file) {
      const index = u32(payload, 0);
      // The payload is a view into the read buffer: the file's bytes are copied out.
      if (payload[4] === 0 && index < waiter.files.length) {
        waiter.files[index] = Uint8Array.prototype.slice.call(payload, 5);
      }
    } else if (type === FileRep.readEnd) {
      this.settled(id);
      waiter.resolve(waiter.files);
    }
  }

  private settled(id: number): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.hold.release();
  }

  /** Fails every request in flight and every later one with `reason`. */
  fail(reason: Error): void {
    if (this.gone !== undefined) return;
    this.gone = reason;
    const waiters = [...this.waiting.values()];
    if (waiters.length > 0) this.hold.release();
    this.waiting.clear();
    for (const w of waiters) w.reject(reason);
  }
}
