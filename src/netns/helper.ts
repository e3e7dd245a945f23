/**
 * The spawner helper's side of pinning: it unshares a network namespace, bind-mounts it on the
 * mount point and returns to its own namespace; and it unmounts one. This process sends a
 * request and never forks.
 */

/** Pins and unpins namespaces. */
export interface NetnsPinner {
  /** Pins a new network namespace on the existing empty file `path`. */
  pin(path: string): Promise<void>;
  /** Unmounts the namespace pinned at `path` (lazily; the file stays). */
  unpin(path: string): Promise<void>;
}

/**
 * The helper's pinner, or undefined when the helper cannot run here (`required`: throw the
 * reason instead).
 */
export async function helperPinner(_required: boolean): Promise<NetnsPinner | undefined> {
  return undefined;
}
