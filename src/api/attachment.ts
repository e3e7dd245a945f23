/**
 * One call's attachment: the network and the RuntimeConf, and what a verb derives from them,
 * each once per call: the cache directory, the names' validation and the record's path.
 */

import { attachmentNameError } from "../cache/names.js";
import { CacheDir, missingNameError, recordPathIn } from "../cache/results.js";
import type { CNIError } from "../errors/types.js";
import { assertRuntimeConf } from "./assert-args.js";
import { lockAttachment, type Release } from "./lock.js";
import type { RuntimeConf } from "./types.js";

/** An attachment as one call of a verb sees it. */
export class Attachment {
  /** Upstream `getCacheDir`: the CNIConfig's, else the RuntimeConf's (deprecated), else `/var/lib/cni`. */
  readonly cacheDir: string;
  // undefined: not validated yet; null: valid.
  private nameError: CNIError | null | undefined;
  private path: string | undefined;

  constructor(
    configuredCacheDir: string,
    /** The network's name (the list's, or the single plugin's). */
    readonly network: string,
    readonly rt: RuntimeConf,
  ) {
    assertRuntimeConf(rt);
    this.cacheDir = configuredCacheDir !== "" ? configuredCacheDir : rt.cacheDir || CacheDir;
  }

  /**
   * ADD's validation of the container ID, network name and interface name (upstream's order
   * and codes), and of the record name's length; undefined when they are valid.
   */
  invalid(): CNIError | undefined {
    if (this.nameError === undefined) {
      this.nameError =
        attachmentNameError(this.network, this.rt.containerID, this.rt.ifName) ?? null;
    }
    return this.nameError ?? undefined;
  }

  /**
   * The record's path, `<cacheDir>/results/<net>-<cid>-<ifname>`. An empty part fails with
   * upstream's message, then an invalid one as ADD fails it (see `cacheFilePath`).
   */
  recordPath(): string {
    if (this.path !== undefined) return this.path;
    const { network, rt } = this;
    const invalid = missingNameError(network, rt.containerID, rt.ifName) ?? this.invalid();
    if (invalid) throw invalid;
    this.path = recordPathIn(this.cacheDir, network, rt.containerID, rt.ifName);
    return this.path;
  }

  /** Serialises ADD, CHECK and DEL on this attachment in-process (lock.ts). */
  lock(signal: AbortSignal | undefined): Promise<Release> {
    return lockAttachment(this.cacheDir, this.network, this.rt.containerID, this.rt.ifName, signal);
  }
}
