/**
 * Watching the conf dir: any event (a write, an editor's write-to-temp-then-rename, a delete,
 * a new file) schedules a reload after `debounce` ms of quiet; reloads never overlap (events
 * during one schedule the next); each successful reload swaps the whole set in at once, so a
 * call in flight finishes with the set it started with. A burst of writes costs one or two
 * reloads, not one per event.
 *
 * Events: `change` (a {@link NetworkSetChange}, when a network was added, removed or changed),
 * `reload` (the same, after every reload, changed or not), `error` (a reload failed, e.g. no
 * usable network left: the previous set stays), `close`.
 * Not watched: drop-in plugin directories (`<confDir>/<network>/*.conf`) and the conf dir
 * itself being removed (the watch then ends with an `error`).
 */
import { EventEmitter } from "node:events";
import { type FSWatcher, watch } from "node:fs";
import { WrappedError } from "../errors.js";
import { type LoadOptions, loadNetworkSet, type NetworkSet } from "./load.js";
import type { Network } from "./types.js";

/** Watch options. */
export interface WatchOptions {
  /** Quiet time before a reload, in ms; default 100. */
  debounce?: number;
  /** Keep the process alive while watching (fs.watch's `persistent`); default true. */
  persistent?: boolean;
}

/** What a reload changed, by network name. */
export interface NetworkSetChange {
  readonly set: NetworkSet;
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

/** What the watcher swaps into. */
export interface SwapTarget {
  readonly networkSet: NetworkSet;
  swap(set: NetworkSet): void;
}

function fingerprint(n: Network): string {
  return [
    n.file ?? "",
    ...[n.config.bytes, ...n.config.plugins.map((p) => p.bytes)].map((b) =>
      Buffer.from(b).toString("base64"),
    ),
  ].join("\0");
}

/** The differences between two sets, by network name. */
export function diffSets(before: NetworkSet, after: NetworkSet): NetworkSetChange {
  const old = new Map(before.networks.map((n) => [n.name, n]));
  const now = new Map(after.networks.map((n) => [n.name, n]));
  const added = [...now.keys()].filter((k) => !old.has(k));
  const removed = [...old.keys()].filter((k) => !now.has(k));
  const changed = [...now.entries()]
    .filter(([k, n]) => {
      const o = old.get(k);
      return o !== undefined && fingerprint(o) !== fingerprint(n);
    })
    .map(([k]) => k);
  if (before.defaultNetwork?.name !== after.defaultNetwork?.name) {
    for (const name of [before.defaultNetwork?.name, after.defaultNetwork?.name]) {
      if (name !== undefined && old.has(name) && now.has(name) && !changed.includes(name)) {
        changed.push(name);
      }
    }
  }
  return { set: after, added, removed, changed };
}

/** A conf-dir watcher; `close()` stops it. */
export class NetworkWatcher extends EventEmitter {
  private readonly fsWatcher: FSWatcher;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private closed = false;
  private readonly debounce: number;

  constructor(
    private readonly target: SwapTarget,
    private readonly load: LoadOptions,
    options: WatchOptions = {},
  ) {
    super();
    this.debounce = options.debounce ?? 100;
    const dir = load.confDir ?? "/etc/cni/net.d";
    try {
      this.fsWatcher = watch(dir, { persistent: options.persistent ?? true }, () =>
        this.schedule(),
      );
    } catch (error) {
      throw new WrappedError(`watch ${dir}`, error);
    }
    this.fsWatcher.on("error", (error) =>
      this.emit("error", new WrappedError(`watch ${dir}`, error)),
    );
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.trigger();
    }, this.debounce);
  }

  private trigger(): void {
    if (this.running !== undefined) {
      this.dirty = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  private async loop(): Promise<void> {
    do {
      this.dirty = false;
      await this.reloadOnce();
    } while (this.dirty && !this.closed);
  }

  private async reloadOnce(): Promise<void> {
    let set: NetworkSet;
    try {
      set = await loadNetworkSet(this.load);
    } catch (error) {
      if (!this.closed) this.emit("error", error);
      return;
    }
    if (this.closed) return;
    const change = diffSets(this.target.networkSet, set);
    this.target.swap(set);
    this.emit("reload", change);
    if (change.added.length + change.removed.length + change.changed.length > 0) {
      this.emit("change", change);
    }
  }

  /** Reloads now (skipping the debounce); resolves when the set is swapped in. */
  async flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.trigger();
    await this.running;
  }

  /** Stops watching; resolves once a reload in flight has finished (it swaps nothing). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.fsWatcher.close();
    await this.running;
    this.emit("close");
  }
}
