/**
 * Reading a file whole: the file engines' read, as the rest of the library sees it (conf files,
 * cache records). Everything outside engines/ imports it from here (or writes through
 * file-write.ts), never from the modules behind it; the two are apart so that a reader (the
 * conf loader) does not load the write thread.
 *
 * {@link readWhole} (files/read-whole.ts): the fast way, the spawner helper's file channel,
 * reads every file of a directory asked for in one turn in one request. The plain way is the
 * caller's own fs read, with its checks and error texts (conf/files.ts, cache/read.ts):
 * `readWhole` answers undefined, or a promise of undefined, for every file the helper did not
 * read (no helper here, `LIBCNI_LAUNCHER=direct`, not a regular file, too large, any error).
 * Whether the helper serves reads is decided once per process.
 */
export { type ReadWholeOptions, readWhole } from "./files/read-whole.js";
