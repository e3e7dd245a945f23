/**
 * The cache-write thread's entry point (a worker_threads Worker started by
 * write-thread.ts): each message is one whole record write, answered by one message.
 *
 * On the main thread the same write is five to eight thread-pool round trips (open, write,
 * fdatasync, close, rename, then open, fsync and close of the directory), each a turn of the
 * event loop that waits behind the runtime's other work. Here the steps (atomic-write-steps.ts,
 * the ones the main thread runs) use synchronous calls for the cheap ones (this thread has
 * nothing else to do). The two flushes go to the thread pool when writes come together, so
 * they flush in parallel and share directory fsyncs (a DirSyncGroup); a write that comes alone
 * (no other request queued, none in flight) flushes synchronously, which spares it four thread
 * hops, a measurable part of a sequential durable ADD. The main thread handles one message per
 * write.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { type MessagePort, parentPort, receiveMessageOnPort } from "node:worker_threads";
import {
  DirSyncGroup,
  runWriteSteps,
  TempNames,
  type WriteRequest,
  type WriteSteps,
} from "./atomic-write-steps.js";
import type { WriteFailure, WriteReply } from "./write-thread.js";

const flush = (fd: number, sync: typeof fsync): Promise<void> =>
  new Promise((resolve, reject) => sync(fd, (error) => (error ? reject(error) : resolve())));

async function fsyncDir(dir: string): Promise<void> {
  const fd = openSync(dir, "r");
  try {
    await flush(fd, fsync);
  } finally {
    closeSync(fd);
  }
}

const dirSyncs = new DirSyncGroup(fsyncDir);

/** Writes that come together: the flushes in the thread pool, directory fsyncs grouped. */
const steps: WriteSteps = {
  open: (path, mode) => openSync(path, "wx", mode),
  write(fd, data) {
    // writeSync may write less than asked (a signal, a full disk); loop as fs.writeFile does.
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
  },
  fdatasync: (fd) => flush(fd, fdatasync),
  close: closeSync,
  rename: renameSync,
  unlink: unlinkSync,
  syncDir: (dir) => dirSyncs.sync(dir),
};

/** A write alone: the same steps, flushed on this thread (its own directory fsync, begun after its rename). */
const aloneSteps: WriteSteps = {
  ...steps,
  fdatasync: fdatasyncSync,
  async syncDir(dir) {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
};

/** Writes on the thread-pool path not yet answered. */
let inFlight = 0;

const temps = new TempNames(`${randomBytes(6).toString("hex")}-`);

function failure(error: unknown): WriteFailure {
  const e = error as NodeJS.ErrnoException & { dest?: string };
  return {
    message: e instanceof Error ? e.message : String(error),
    code: e.code,
    errno: e.errno,
    syscall: e.syscall,
    path: e.path,
    dest: e.dest,
  };
}

type Request = WriteRequest & { id: number };

function handle(req: Request, alone: boolean): void {
  if (!alone) inFlight++;
  runWriteSteps(req, temps.for(req.path), alone ? aloneSteps : steps)
    .then(
      () => parentPort?.postMessage({ id: req.id } satisfies WriteReply),
      (error: unknown) =>
        parentPort?.postMessage({ id: req.id, error: failure(error) } satisfies WriteReply),
    )
    .finally(() => {
      if (!alone) inFlight--;
    });
}

/** False where `receiveMessageOnPort` cannot take `parentPort` (Deno): no batching there. */
let canDrain = true;

/** The next request already queued, if any. */
function queued(): Request | undefined {
  if (!canDrain) return undefined;
  try {
    return receiveMessageOnPort(parentPort as MessagePort)?.message as Request | undefined;
  } catch {
    canDrain = false;
    return undefined;
  }
}

parentPort?.on("message", (first: Request) => {
  // The requests already queued come with this one: together they take the thread pool.
  const batch = [first];
  for (let next = queued(); next !== undefined; next = queued()) batch.push(next);
  const alone = batch.length === 1 && inFlight === 0;
  for (const req of batch) handle(req, alone);
});
parentPort?.postMessage({ id: 0 } satisfies WriteReply);
