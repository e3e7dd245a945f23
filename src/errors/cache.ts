/**
 * cache: the result cache (writing, reading and removing records).
 */

import { messageOf } from "../internal/error-message.js";
import { goQuote } from "../internal/go-quote.js";
import { LibcniError } from "./base.js";

/** The attachment a cache operation was about. */
export interface AttachmentKey {
  /** The network's name. */
  network: string;
  /** The container ID. */
  containerID: string;
  /** The interface name. */
  ifName: string;
}

/**
 * ADD succeeded in every plugin but the result could not be cached: upstream's
 * `failed to set network "<n>" cached result: <err>`, then what it means: the attachment is up
 * and uncached, so a DEL with the same config and runtime config is needed to remove it.
 * `result` is the chain's result, `attachment` names it.
 */
export class CacheWriteError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_WRITE";
  /** The attachment that is configured but not recorded. */
  readonly attachment: AttachmentKey;
  /** The result the plugins returned (a `Result`), which nothing recorded. */
  readonly result: unknown;
  constructor(attachment: AttachmentKey, result: unknown, cause: unknown) {
    super(
      `failed to set network ${goQuote(attachment.network)} cached result: ${messageOf(cause)} (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)`,
      { cause },
    );
    this.attachment = attachment;
    this.result = result;
  }
}

/**
 * A cache record that cannot be one: not a regular file (a symlink, a FIFO, a device, a
 * socket, a directory) or larger than the cap. DEL and CHECK treat it as a corrupt record (no
 * cache; DEL removes the entry, never what a link points at); the getters throw this.
 */
export class CorruptCacheRecordError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_RECORD_CORRUPT";
  /** The record's path. */
  readonly path: string;
  constructor(path: string, reason: string) {
    super(`cache record ${path} ${reason}`);
    this.path = path;
  }
}

/**
 * A cache record could not be removed after its attachment's DEL succeeded (a read-only or
 * failing cache dir): the attachment is down but still listed. `libcni/runtime` reports it
 * rather than the attachment as removed, and the next teardown or GC tries again. (`CNIConfig`
 * keeps upstream's semantics and ignores the failed removal.)
 */
export class CacheRecordRemoveError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_RECORD_REMOVE";
  /** The record's path. */
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`cache record ${path} could not be removed: ${messageOf(cause)}`, { cause });
    this.path = path;
  }
}

/** `read cached network "<n>" config has wrong kind: <kind>` (upstream's text). */
export class CachedConfigKindError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHED_CONFIG_WRONG_KIND";
  /** The record's `kind`. */
  readonly kind: string;
  constructor(quotedNetName: string, kind: string) {
    super(`read cached network ${quotedNetName} config has wrong kind: ${kind}`);
    this.kind = kind;
  }
}
