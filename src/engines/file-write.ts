/**
 * Replacing a file atomically and durably: the file engines' write, as the rest of the library
 * sees it (cache records, setup intents). Everything outside engines/ imports it from here (or
 * reads through file-read.ts), never from the modules behind it.
 *
 * The write is {@link writeFileAtomic} (files/atomic-write.ts) on the main thread's callback fs
 * calls; around it {@link mkdirDurable} (Go's MkdirAll, flushed), the temporary files' names
 * ({@link isTempName}) and the sweep of the ones a crashed writer left ({@link sweepTempFiles}).
 */
export {
  isTempName,
  mkdirDurable,
  sweepTempFiles,
  writeFileAtomic,
} from "./files/atomic-write.js";
