/**
 * The spawner launcher: plugin starts through one spawner helper.
 *
 * The helper is started lazily, on the first run, and again after it exits. Runs beyond
 * `maxInFlight` wait for a free slot, in order. One helper only: a second one for bursts made
 * no difference a user would notice (bench/second-helper.mjs: the first burst's time and
 * event-loop delay the same, throughput within a few percent once plugins do real work).
 */
import { debuglog } from "node:util";

import { SpawnerExitedError } from "../../errors.js";
import type { EnvEntries, PluginEnv } from "../plugin-env.js";
import { SpawnerInstance } from "./instance.js";
import { directLauncher, type LaunchedChild, type LaunchRun, OwnLauncher } from "./launcher.js";

const debug = debuglog("libcni");

/** Options of a {@link SpawnerLauncher}. */
export interface SpawnerLauncherOptions {
  /** The helper binary. Default: the one built for this platform, {@link spawnerBinaryPath}. */
  binaryPath: string;
  /** The most runs in flight; later ones wait. Default 128. */
  maxInFlight?: number;
}

/** Node's spawn would refuse these (NUL bytes), or search PATH (no slash): it handles them. */
function needsDirect(path: string, env: EnvEntries): boolean {
  return !path.includes("/") || path.includes("\0") || env.hasNul;
}

/** Starts plugins through a spawner helper; see the module comment. */
export class SpawnerLauncher extends OwnLauncher {
  readonly name = "spawner";
  readonly binaryPath: string;
  private readonly maxInFlight: number;
  private helper: SpawnerInstance | undefined;
  private readonly waiting: (() => void)[] = [];
  private inFlight = 0;

  constructor(options: SpawnerLauncherOptions) {
    super();
    this.binaryPath = options.binaryPath;
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 128);
  }

  /** The live helper, if any, as a list (tests kill it, the bench measures it). */
  get helpers(): readonly SpawnerInstance[] {
    return this.helper === undefined ? [] : [this.helper];
  }

  /**
   * Starts a helper now, without a run, and resolves once it answered; rejects with a
   * SpawnerUnavailableError when it cannot run.
   */
  async probe(): Promise<void> {
    await this.instance().handshake();
  }

  /**
   * As {@link launch}, from the run's environment: its list's entries go to the helper as they
   * are, and no env object is made unless the direct spawn takes the run.
   */
  start(
    path: string,
    env: PluginEnv,
    run: LaunchRun | undefined,
  ): LaunchedChild | Promise<LaunchedChild> {
    const entries = env.entries();
    // In the caller's tick: Node reports ENOENT on the next tick, before a promise would settle.
    if (needsDirect(path, entries)) return directLauncher.launch(path, env.object(), run);
    return this.launchInHelper(path, entries.entries, run);
  }

  private async launchInHelper(
    path: string,
    entries: readonly string[],
    run: LaunchRun | undefined,
  ): Promise<LaunchedChild> {
    if (this.inFlight >= this.maxInFlight) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.inFlight++;
    let child: LaunchedChild;
    try {
      // The RUN frame waits in the pipe if the helper has not said HELLO yet.
      child = await this.instance().launch(path, entries, run);
    } catch (error) {
      // The helper went before the plugin started (killed while idle, say, its exit not yet
      // seen when the run was sent): nothing ran, so the run goes to a new helper, once.
      if (!(error instanceof SpawnerExitedError && !error.pluginStarted)) {
        this.done();
        throw error;
      }
      debug("spawner %s: %s; starting the run on a new helper", this.binaryPath, error.message);
      try {
        child = await this.instance().launch(path, entries, run);
      } catch (again) {
        this.done();
        throw again;
      }
    }
    child.once("close", () => this.done());
    return child;
  }

  /** Closes the helper's control pipe; it exits (tests, and a runtime shutting down). */
  stop(): void {
    this.helper?.stop();
    this.helper = undefined;
  }

  private done(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }

  // The live helper, or a new one.
  /**
   * PIN or UNPIN a network namespace in the helper (libcni/netns): see
   * {@link SpawnerInstance.netnsRequest}. Resolves to the errno (0: done).
   */
  netnsRequest(pin: boolean, path: string, shareDir = false): Promise<number> {
    return this.instance().netnsRequest(pin, path, shareDir);
  }

  private instance(): SpawnerInstance {
    if (this.helper !== undefined) return this.helper;
    const instance = new SpawnerInstance(this.binaryPath, (gone) => {
      if (this.helper === gone) this.helper = undefined;
    });
    this.helper = instance;
    return instance;
  }
}
