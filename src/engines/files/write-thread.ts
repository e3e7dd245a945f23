/**
 * The durable cache write in one request: a worker thread (write-worker.ts) runs the
 * whole atomic write (temporary file, write, fdatasync, close, rename, grouped directory
 * fsync) and answers once, so the main thread takes one message per record instead of five to
 * eight thread-pool callbacks, each a turn of its event loop.
 *
 * The thread is started on the first write and never keeps the process alive (unref'd while
 * no write is in flight). Should it be unavailable (its file missing, worker_threads refused),
 * writes run on the main thread as before (`writeFileAtomic`), said once on NODE_DEBUG=libcni;
 * a thread that starts but dies before it answered any write counts as one that could not
 * start (its writes are run on the main thread). Should it die later with writes in flight,
 * those fail with a {@link CacheWriteThreadExitedError}
 * (each record is then the old one or the new one, as after any failed write) and the next
 * write starts a new thread. `LIBCNI_CACHE_WRITE=inline` keeps every write on the main thread.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { debuglog } from "node:util";
import { Worker } from "node:worker_threads";
import { CacheWriteThreadExitedError } from "../../errors/cache.js";
import { writeFileAtomic } from "./atomic-write.js";

const debug = debuglog("libcni");

/** A failed write's error, as it crosses threads (an Error's own fields are not cloned). */
export interface WriteFailure {
  message: string;
  code?: string | undefined;
  errno?: number | undefined;
  syscall?: string | undefined;
  path?: string | undefined;
  dest?: string | undefined;
}

/** The worker's answer to request `id` (id 0: the worker is ready). */
export interface WriteReply {
  id: number;
  error?: WriteFailure;
}

/** The error the write failed with on the worker, with the same message, code and fields. */
function rebuild(failure: WriteFailure): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException & { dest?: string } = new Error(failure.message);
  if (failure.errno !== undefined) error.errno = failure.errno;
  if (failure.code !== undefined) error.code = failure.code;
  if (failure.syscall !== undefined) error.syscall = failure.syscall;
  if (failure.path !== undefined) error.path = failure.path;
  if (failure.dest !== undefined) error.dest = failure.dest;
  return error;
}

interface Pending {
  resolve(): void;
  reject(error: unknown): void;
  /** Runs the write on the calling thread instead (a thread that never served). */
  inline(): Promise<void>;
}

/**
 * The worker's module: the one built next to this module. A run from the TypeScript sources
 * (the project's tests) has none beside it and names the built one as a bundle does,
 * with `LIBCNI_CACHE_WRITE_WORKER`.
 */
export const defaultWorkerUrl = new URL("./write-worker.js", import.meta.url);

/**
 * From this size a record is written on the calling thread (async, through libuv's pool): a
 * few more round trips matter nothing beside its bytes, and posting it would copy it whole
 * into the worker (a 16 MiB result's record: 16 MiB more at the peak).
 */
const inlineMinBytes = 1024 * 1024;

/** One cache-write thread, started lazily, with the writes in flight on it. */
export class CacheWriteThread {
  private worker: Worker | undefined;
  private ready: Promise<boolean> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private unavailable = false;
  /** The worker once it said it is ready. */
  private live: Worker | undefined;
  /** A write was answered by a thread: one that dies now is lost, not unusable here. */
  private served = false;

  /** @param url the worker's module; `inline` writes on the main thread only. */
  constructor(
    private readonly url: URL = defaultWorkerUrl,
    private readonly inline = false,
  ) {}

  /** True once the thread could not be started (writes then run on the main thread). */
  get fallback(): boolean {
    return this.inline || this.unavailable;
  }

  /** Replaces `path` with `data` atomically (and durably), as `writeFileAtomic` does. */
  async write(path: string, data: Uint8Array, mode: number, durable: boolean): Promise<void> {
    if (data.byteLength >= inlineMinBytes) return writeFileAtomic(path, data, { mode, durable });
    // Started: posted in the caller's tick (in flight at once).
    if (this.live !== undefined) return this.post(path, data, mode, durable);
    if (this.fallback || !(await this.start())) {
      return writeFileAtomic(path, data, { mode, durable });
    }
    return this.post(path, data, mode, durable);
  }

  private post(path: string, data: Uint8Array, mode: number, durable: boolean): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return this.write(path, data, mode, durable);
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      const inline = () => writeFileAtomic(path, data, { mode, durable });
      this.pending.set(id, { resolve, reject, inline });
      worker.postMessage({ id, path, data, mode, durable });
    });
  }

  private start(): Promise<boolean> {
    if (this.worker !== undefined && this.ready !== undefined) return this.ready;
    let worker: Worker;
    try {
      worker = new Worker(this.url);
    } catch (error) {
      return Promise.resolve(this.giveUp(error));
    }
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<boolean>((resolve) => {
      let started = false;
      worker.on("message", (reply: WriteReply) => {
        if (reply.id === 0) {
          started = true;
          this.live = worker;
          resolve(true);
          return;
        }
        this.settle(worker, reply);
      });
      worker.on("error", (error) => {
        if (!started) resolve(this.giveUp(error));
        else this.lost(worker, error);
      });
      worker.on("exit", (code) => {
        if (!started) resolve(this.giveUp(new Error(`exited with code ${code}`)));
        else this.lost(worker, new Error(`exited with code ${code}`));
      });
    });
    return this.ready;
  }

  private settle(worker: Worker, reply: WriteReply): void {
    const pending = this.pending.get(reply.id);
    if (pending === undefined) return;
    this.pending.delete(reply.id);
    this.served = true;
    if (this.pending.size === 0) worker.unref();
    if (reply.error === undefined) pending.resolve();
    else pending.reject(rebuild(reply.error));
  }

  private giveUp(error: unknown): false {
    // Said once: a worker that fails to load reports an error and then its exit.
    if (this.unavailable) return false;
    this.unavailable = true;
    this.worker = undefined;
    debug(
      "cache writes on the main thread (no cache-write thread: %s; a bundled app bundles dist/engines/files/write-worker.js as an entry of its own and sets LIBCNI_CACHE_WRITE_WORKER, docs/bundling.md: Bundling)",
      (error as Error).message,
    );
    return false;
  }

  private lost(worker: Worker, cause: unknown): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.live = undefined;
    this.ready = undefined;
    const pending = [...this.pending.values()];
    this.pending.clear();
    if (!this.served) {
      // It said it was ready but never served a write (a runtime whose workers lack part of
      // Node's API): as a thread that could not start, the writes run here, now and from now
      // on. Each is an atomic replace of its record, so running it again is harmless.
      this.giveUp(cause);
      for (const p of pending) p.inline().then(p.resolve, p.reject);
      return;
    }
    for (const p of pending) p.reject(new CacheWriteThreadExitedError(cause));
  }

  /** Stops the thread (tests); writes in flight fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (worker === undefined) return;
    this.lost(worker, new Error("closed"));
    await worker.terminate();
  }
}

let shared: CacheWriteThread | undefined;

/**
 * The worker's module the process uses: `LIBCNI_CACHE_WRITE_WORKER` when set (a bundled app
 * bundles the worker as an entry point of its own), else the package's.
 */
function configuredWorkerUrl(): URL {
  const fromEnv = process.env.LIBCNI_CACHE_WRITE_WORKER;
  return fromEnv ? pathToFileURL(resolve(fromEnv)) : defaultWorkerUrl;
}

/**
 * The process's cache-write thread (`LIBCNI_CACHE_WRITE=inline`: none). A worker module that
 * cannot be loaded (a bundle without it) leaves the writes on the main thread, never failing
 * one, and says so on NODE_DEBUG=libcni.
 */
export function cacheWriteThread(): CacheWriteThread {
  shared ??= new CacheWriteThread(
    configuredWorkerUrl(),
    process.env.LIBCNI_CACHE_WRITE === "inline",
  );
  return shared;
}
