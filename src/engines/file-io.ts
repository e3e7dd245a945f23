/**
 * Reading and writing files: the one interface of the file engines that the rest of the
 * library sees (conf files, cache records, setup intents). Everything outside engines/ imports
 * it from here, never from the modules behind it.
 *
 * - Reading a file whole: {@link readWhole} (files/read-whole.ts). The fast way: the spawner
 *   helper's file channel reads every file of a directory asked for in one turn in one request.
 *   The plain way is the caller's own fs read, with its checks and error texts (conf/files.ts,
 *   cache/read.ts): `readWhole` answers undefined, or a promise of undefined, for every file the
 *   helper did not read (no helper here, `LIBCNI_LAUNCHER=direct`, not a regular file, too
 *   large, any error). Whether the helper serves reads is decided once per process.
 * - Replacing a file atomically and durably: {@link cacheWriteThread}'s `write`
 *   (files/write-thread.ts). The fast way: one request to a worker thread
 *   (files/write-worker.ts) that runs the whole write. The plain way: {@link writeFileAtomic}
 *   (files/atomic-write.ts), the same steps (files/atomic-write-steps.ts) through the main
 *   thread's callback fs calls, which the thread falls back to when it cannot start, for a
 *   record of 1 MiB or more, and for every write with `LIBCNI_CACHE_WRITE=inline`.
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
export { type ReadWholeOptions, readWhole } from "./files/read-whole.js";
export { cacheWriteThread } from "./files/write-thread.js";
