/**
 * Watching the conf dir (docs/reliability.md, "The conf dir"): any event schedules a reload
 * after `debounce` ms of quiet; reloads never overlap (events during one schedule the next), so
 * a burst of writes costs one or two, and each swaps the whole set in. The dir's nearest
 * existing ancestor is watched too (for a dir created, removed or replaced later), and the dir
 * polled for what file events miss. Not watched: drop-in plugin directories.
 *
 * Events: `change` (a {@link NetworkSetChange}, when a network was added, removed or changed),
 * `reload` (the same, after every reload), `error` (to a listener only), `close`.
 */
import { EventEmitter } from "node:events";
import { type FSWatcher, watch } from "node:fs";
import { lstat, readdir, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { assertDuration, WrappedError } from "../errors/base.js";
import { debug } from "../internal/diagnostics.js";
import { errnoCode } from "../internal/errno.js";
import { messageOf } from "../internal/error-message.js";
import { type LoadOptions, loadNetworkSet, type NetworkSet, nextSet } from "./load.js";
import type { Network } from "./types.js";

/** Watch options. */
export interface WatchOptions {
  /** Quiet time before a reload, in ms; default 100, at most 2147483647 (a timer's longest). */
  debounce?: number;
  /** Keep the process alive while watching (fs.watch's `persistent`); default true. */
  persistent?: boolean;
  /**
   * Also look at the conf dir every `poll` ms and reload when its listing changed, for what file
   * events miss (NFS, some FUSE and overlay mounts, an inotify limit); default 2000, 0 turns it
   * off, at most 2147483647.
   */
  poll?: number;
  /** Use file events (fs.watch); default true. False leaves the poll alone to see changes. */
  fsEvents?: boolean;
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
  /** Numbers a load; its set is swapped in unless a later load's is already (true when). */
  beginLoad(): (set: NetworkSet) => boolean;
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
  /** The watch on the conf dir itself, while it exists. */
  private dirWatcher: FSWatcher | undefined;
  /** The conf dir's inode when it was watched: a dir replaced under its name is watched anew. */
  private dirIno: number | bigint | undefined;
  /** The anchor saw the conf dir's path change: watched anew even at the same inode (reused). */
  private dirPathChanged = false;
  /** The watch on the nearest existing ancestor: sees the conf dir appear, go or be replaced. */
  private anchorWatcher: FSWatcher | undefined;
  private anchor = "";
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private dirty = false;
  private closed = false;
  private readonly debounce: number;
  private readonly persistent: boolean;
  private readonly fsEvents: boolean;
  private readonly dir: string;
  private pollTimer: NodeJS.Timeout | undefined;
  /** The conf dir's listing as of the last load (or poll); undefined before the first. */
  private listing: Promise<string> | undefined;
  /**
   * The last reload's error (the conf dir could not be read, a watch failed), undefined after a
   * reload that succeeded; emitted as `error` only to a listener.
   */
  lastError: unknown;

  constructor(
    private readonly target: SwapTarget,
    private readonly load: LoadOptions,
    options: WatchOptions = {},
  ) {
    super();
    // Before anything is watched: a refused option leaves nothing armed.
    assertDuration("debounce", options.debounce);
    assertDuration("poll", options.poll);
    this.debounce = options.debounce ?? 100;
    this.persistent = options.persistent ?? true;
    this.fsEvents = options.fsEvents ?? true;
    this.dir = resolve(load.confDir ?? "/etc/cni/net.d");
    if (this.fsEvents) {
      this.armAnchor();
      this.armDir();
    }
    const poll = options.poll ?? 2000;
    if (poll > 0) {
      // No listing yet: the first poll reloads once and takes it then, right before the load
      // (a listing taken now could already show a file written after the set was loaded).
      this.pollTimer = setInterval(() => void this.pollOnce(), poll);
      if (!this.persistent) this.pollTimer.unref();
    }
  }

  /** What the poll compares: the dir's inode and each entry's name, kind, size, time, inode. */
  private async dirListing(): Promise<string> {
    try {
      const dirStat = await stat(this.dir);
      const names = (await readdir(this.dir)).sort();
      const entries = await Promise.all(
        names.map(async (n) => {
          const st = await lstat(join(this.dir, n)).catch(() => undefined);
          return st === undefined ? n : `${n} ${st.mode} ${st.size} ${st.mtimeMs} ${st.ino}`;
        }),
      );
      return [`${dirStat.ino}`, ...entries].join("\n");
    } catch (error) {
      return `absent: ${errnoCode(error) ?? ""}`;
    }
  }

  private async pollOnce(): Promise<void> {
    if (this.closed) return;
    if (this.listing === undefined) {
      this.schedule();
      return;
    }
    const [before, now] = await Promise.all([this.listing, this.dirListing()]);
    if (this.closed) return;
    if (before !== now) {
      this.listing = Promise.resolve(now);
      this.schedule();
    }
  }

  /** Keeps the error for `lastError` and says it on NODE_DEBUG; emits it only to a listener. */
  private report(error: unknown): void {
    this.lastError = error;
    debug("watch %s: %s", this.dir, messageOf(error));
    if (this.listenerCount("error") > 0) this.tell("error", error);
  }

  /**
   * Emits `event`; a listener's throw is thrown as Node throws one from an I/O callback's
   * listener (an uncaughtException), not into the reload loop, flush() or close(): they go on.
   */
  private tell(event: string, ...args: unknown[]): void {
    try {
      this.emit(event, ...args);
    } catch (error) {
      process.nextTick(() => {
        throw error;
      });
    }
  }

  private fsWatch(path: string, onEvent: (name: string | null) => void): FSWatcher {
    const w = watch(path, { persistent: this.persistent }, (_event, name) => onEvent(name));
    w.on("error", (error) => {
      // A watched dir removed ends its watch; the anchor's events re-arm it on the next reload.
      if (!this.closed && path === this.anchor) {
        this.report(new WrappedError(`watch ${path}`, error));
      }
    });
    return w;
  }

  /**
   * Watches the nearest existing ancestor of the conf dir (its parent, normally); false when
   * none can be (an inotify limit, say: reported, and the poll follows the dir still).
   */
  private armAnchor(): boolean {
    let parent = dirname(this.dir);
    for (;;) {
      try {
        const next =
          this.dir === parent
            ? ""
            : (this.dir
                .slice(parent.length)
                .split(sep)
                .find((c) => c !== "") ?? "");
        const w = this.fsWatch(parent, (name) => {
          if (name !== null && name !== next) return;
          this.dirPathChanged = true;
          this.schedule();
        });
        this.anchorWatcher?.close();
        this.anchorWatcher = w;
        this.anchor = parent;
        return true;
      } catch (error) {
        const up = dirname(parent);
        if (up === parent) {
          this.report(new WrappedError(`watch ${this.dir}`, error));
          return false;
        }
        parent = up;
      }
    }
  }

  /** Watches the conf dir when it exists; false when it does not (the anchor waits for it). */
  private armDir(): boolean {
    this.dirWatcher?.close();
    this.dirWatcher = undefined;
    try {
      this.dirWatcher = this.fsWatch(this.dir, () => this.schedule());
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Before each reload: watch the conf dir again if it appeared, was removed or was replaced
   * (`mv net.d old && mkdir net.d`), the anchor if its ancestors changed; false if refused.
   */
  private async rearm(): Promise<boolean> {
    const st = await stat(this.dir).catch(() => undefined);
    const ino = st?.isDirectory() ? st.ino : undefined;
    if (this.closed) return true;
    if (ino !== this.dirIno || this.dirWatcher === undefined || this.dirPathChanged) {
      this.dirPathChanged = false;
      this.dirIno = this.armDir() ? ino : undefined;
    }
    if (this.anchor === dirname(this.dir) && ino !== undefined) return true;
    return this.armAnchor();
  }

  private schedule(): void {
    if (this.closed) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.trigger();
    }, this.debounce);
    if (!this.persistent) this.timer.unref();
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
    let watching = true;
    const swap = this.target.beginLoad();
    try {
      if (this.fsEvents) watching = await this.rearm();
      if (this.pollTimer !== undefined) this.listing = this.dirListing();
      set = nextSet(this.target.networkSet, await loadNetworkSet(this.load));
    } catch (error) {
      // Nothing was learnt: the next poll reloads again whatever the listing says.
      this.listing = undefined;
      if (!this.closed) this.report(error);
      return;
    }
    if (this.closed) return;
    if (watching) this.lastError = undefined;
    const before = this.target.networkSet;
    // A reload begun later has swapped in a newer set already: that one stands.
    if (!swap(set)) return;
    const change = diffSets(before, set);
    this.tell("reload", change);
    if (change.added.length + change.removed.length + change.changed.length > 0) {
      this.tell("change", change);
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
    if (this.pollTimer !== undefined) clearInterval(this.pollTimer);
    this.dirWatcher?.close();
    this.anchorWatcher?.close();
    await this.running;
    this.tell("close");
  }
}
