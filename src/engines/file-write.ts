/**
 * Replacing a file atomically and durably: the file engines' write, as the rest of the library
 * sees it (cache records, setup intents). Everything outside engines/ imports it from here (or
 * reads through file-read.ts), never from the modules behind it.
 *
 * - {@link cacheWriteThread}'s `write` (files/write-thread.ts): the fast way, one request to a
 *   worker thread (files/write-worker.ts) that runs the whole write. The plain way:
 *   {@link writeFileAtomic} (files/atomic-write.ts), the same steps (files/atomic-write-steps.ts)
 *   through the main thread's callback fs calls, which the thread falls back to when it cannot
 *   start, for a record of 1 MiB or more, and for every write with `LIBCNI_CACHE_WRITE=inline`.
 * - Around the write: {@link mkdirDurable} (Go's MkdirAll, flushed), the temporary files'
 *   names ({@link isTempName}) and the sweep of the ones a crashed writer left
 *   ({@link sweepTempFiles}).
 */
export {
  isTempName,
  mkdirDurable,
  sweepTempFiles,
  writeFileAtomic,
} from "./files/atomic-write.js";
export { cacheWriteThread } from "./files/write-thread.js";
