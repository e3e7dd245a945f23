/**
 * The result cache's two exported constants, apart from results.ts and record.ts (which
 * re-export them) so that the main entry names them without loading the cache's code.
 */

/** Upstream's default cache directory (`libcni.CacheDir`). */
export const CacheDir = "/var/lib/cni";

/** The `kind` of a cache record written by libcni 0.7 and later (upstream `CNICacheV1`). */
export const CNICacheV1 = "cniCacheV1";
