/**
 * Reading a file whole (conf files, cache records): the file engines' read as the rest of the
 * library sees it, apart from file-write.ts so that a reader does not load the writer
 * (docs/development.md, "Where the fast paths live"). Where {@link readWhole} answers undefined
 * the caller reads with its own fs calls, checks and error texts.
 */
export { type ReadWholeOptions, readWhole } from "./files/read-whole.js";
