/**
 * Replacing a file atomically and durably (cache records, setup intents): the file engines'
 * write as the rest of the library sees it (docs/development.md, "Where the fast paths live").
 */
export {
  flushCreatedDirs,
  fsyncDir,
  isTempName,
  mkdirDurable,
  sweepTempFiles,
  writeFileAtomic,
} from "./files/atomic-write.js";
