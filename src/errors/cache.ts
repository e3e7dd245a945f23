/** cache: the result cache (writing, reading and removing records). */
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

/** Every plugin of an ADD succeeded but the result could not be cached: up, uncached. */
export class CacheWriteError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHE_WRITE";
  constructor(
    /** The attachment that is configured but not recorded. */
    readonly attachment: AttachmentKey,
    /** The result the plugins returned (a `Result`), which nothing recorded. */
    readonly result: unknown,
    cause: unknown,
  ) {
    super(
      `failed to set network ${goQuote(attachment.network)} cached result: ${messageOf(cause)} (the plugins succeeded: the attachment is up but uncached; DEL it with the same configuration)`,
      { cause },
    );
  }
}

/**
 * A cache record that cannot be one. DEL and CHECK treat it as a corrupt record (no cache; DEL
 * removes the entry, never what a link points at); the getters throw this.
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
 * A cache record could not be removed after its attachment's DEL succeeded. `libcni/runtime`
 * reports it (the next teardown or GC tries again); `CNIConfig`, as upstream, ignores it.
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

/** A cache record of another `kind`. */
export class CachedConfigKindError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_CACHED_CONFIG_WRONG_KIND";
  /** The record's `kind`. */
  readonly kind: string;
  constructor(quotedNetName: string, kind: string) {
    super(`read cached network ${quotedNetName} config has wrong kind: ${kind}`);
    this.kind = kind;
  }
}
