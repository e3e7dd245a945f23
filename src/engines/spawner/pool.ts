/**
 * The spawner launcher: plugin starts through one or two spawner helpers.
 *
 * Helpers are started lazily, on the first run, and again after one exits. A second helper
 * is started for a burst (every helper already has `burstInFlight` runs), so that two
 * helpers start plugins: on a busy machine one helper, waiting for each new plugin to be
 * scheduled before it can start the next, holds sustained bursts back
 * (bench/HISTORY.md, "The second helper started by the first"). Runs beyond `maxInFlight` wait
 * for a free slot, in order.
 */
import { SpawnerExitedError } from "../../errors/spawner.js";
import { debug } from "../../internal/diagnostics.js";
import { directLauncher } from "../start/direct.js";
import { type LaunchedChild, type LaunchRun, OwnLauncher } from "../start/launcher.js";
import type { EnvEntries, PluginEnv } from "../start/plugin-env.js";
import type { FileChannel } from "./files.js";
import { SpawnerInstance } from "./instance.js";

/** Options of a {@link SpawnerLauncher}. */
export interface SpawnerLauncherOptions {
  /** The helper binary. Default: the one built for this platform, {@link spawnerBinaryPath}. */
  binaryPath: string;
  /** The most helpers at once. Default 2. */
  maxInstances?: number;
  /** Runs in flight on every helper before another is started. Default 8. */
  burstInFlight?: number;
  /** The most runs in flight over all helpers; later ones wait. Default 128. */
  maxInFlight?: number;
}

/** Node's spawn would refuse these (NUL bytes), or search PATH (no slash): it handles them. */
function needsDirect(path: string, env: EnvEntries): boolean {
  return !path.includes("/") || path.includes("\0") || env.hasNul;
}

/** Starts plugins through spawner helpers; see the module comment. */
export class SpawnerLauncher extends OwnLauncher {
  readonly name = "spawner";
  readonly binaryPath: string;
  private readonly maxInstances: number;
  private readonly burstInFlight: number;
  private readonly maxInFlight: number;
  private readonly instances: SpawnerInstance[] = [];
  private readonly waiting: (() => void)[] = [];
  private inFlight = 0;

  constructor(options: SpawnerLauncherOptions) {
    super();
    this.binaryPath = options.binaryPath;
    this.maxInstances = Math.max(1, options.maxInstances ?? 2);
    this.burstInFlight = Math.max(1, options.burstInFlight ?? 8);
    this.maxInFlight = Math.max(1, options.maxInFlight ?? 128);
  }

  /** The live helpers (tests kill them, the bench measures them). */
  get helpers(): readonly SpawnerInstance[] {
    return this.instances;
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
    // A freed slot is handed to the run that waited (done), so no run started meanwhile takes it.
    if (this.inFlight < this.maxInFlight && !run?.signal?.aborted) this.inFlight++;
    else await this.slot(run?.signal);
    // The RUN frame waits in the pipe if the helper has not said HELLO yet.
    const launch = () => this.instance().launch(path, entries, run);
    let child: LaunchedChild;
    try {
      child = await launch().catch((error: unknown) => {
        // The helper went before the plugin started (killed while idle, say, its exit not yet
        // seen when the run was sent): nothing ran, so the run goes to a new helper, once, but
        // for a run given up on (instance.ts may have killed the helper for it).
        if (!(error instanceof SpawnerExitedError && !error.pluginStarted) || run?.signal?.aborted)
          throw error;
        debug("spawner %s: %s; starting the run on a new helper", this.binaryPath, error.message);
        return launch();
      });
    } catch (error) {
      this.done();
      throw error;
    }
    child.once("close", () => this.done());
    return child;
  }

  /** Closes every helper's control pipe; they exit (tests, and a runtime shutting down). */
  stop(): void {
    for (const instance of this.instances.splice(0)) instance.stop();
  }

  /** The slot a finished run hands over; rejected (out of the queue) once `signal` aborts. */
  private slot(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const take = () => resolve(signal?.removeEventListener("abort", abort));
      const abort = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(signal?.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      this.waiting.push(take);
      signal?.addEventListener("abort", abort, { once: true });
    });
  }

  private done(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.inFlight--;
    else next();
  }

  /**
   * PIN or UNPIN a network namespace in the helper (libcni/netns): see
   * {@link SpawnerInstance.netnsRequest}. Resolves to the errno (0: done).
   */
  netnsRequest(pin: boolean, path: string, shareDir = false): Promise<number> {
    return this.instance().netnsRequest(pin, path, shareDir);
  }

  /**
   * A helper's file channel (files.ts): a live helper's, else a new helper's; undefined when
   * the runtime gave the helper no fd 3.
   */
  fileChannel(): FileChannel | undefined {
    const live = this.instances.find((instance) => instance.alive && instance.files?.alive);
    return live === undefined ? this.instance().files : live.files;
  }

  // The least busy live helper, or a new one when there is none or all are busy and there is
  // room for another (started by Node's spawn, as the first).
  private instance(): SpawnerInstance {
    let best: SpawnerInstance | undefined;
    for (const instance of this.instances) {
      if (best === undefined || instance.inFlight < best.inFlight) best = instance;
    }
    const busy = best === undefined || best.inFlight >= this.burstInFlight;
    if (best !== undefined && !(busy && this.instances.length < this.maxInstances)) return best;
    const instance = new SpawnerInstance(this.binaryPath, (gone) => {
      const at = this.instances.indexOf(gone);
      if (at >= 0) this.instances.splice(at, 1);
    });
    this.instances.push(instance);
    return instance;
  }
}
