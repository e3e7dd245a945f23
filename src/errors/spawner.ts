/**
 * engines/spawner: the posix_spawn helper that starts plugins off the main thread.
 */
import { LibcniError, type LibcniErrorOptions } from "./base.js";

/** A failure of the spawner helper itself (not of a plugin it ran). */
export class SpawnerError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER";
}

/**
 * The spawner helper cannot be used: its binary is missing for this platform, is not
 * executable, or did not answer its handshake. With `launcher: "auto"` the library uses the
 * direct spawn instead; with `launcher: "spawner"` a run fails with this as its cause.
 */
export class SpawnerUnavailableError extends SpawnerError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER_UNAVAILABLE";
}

/**
 * The spawner helper exited (crashed, was killed, or broke its protocol) while a run was in
 * flight: the run's plugin is killed with its process group and the run fails with this as its
 * cause. The next run starts a new helper. A run whose plugin had not started yet is started
 * again on a new helper, once, before this is reported.
 */
export class SpawnerExitedError extends SpawnerError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER_EXITED";
  /**
   * Whether the run's plugin had started when the helper went: false means nothing ran and a
   * retry is safe; true means the plugin ran (and was killed), so its effects are unknown.
   */
  readonly pluginStarted: boolean;
  constructor(message: string, options: LibcniErrorOptions & { pluginStarted?: boolean } = {}) {
    super(message, options);
    this.pluginStarted = options.pluginStarted ?? true;
  }
}
