/** engines/spawner: the posix_spawn helper that starts plugins off the main thread. */
import { LibcniError, type LibcniErrorOptions } from "./base.js";

/** A failure of the spawner helper itself (not of a plugin it ran). */
export class SpawnerError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER";
}

/**
 * The spawner helper is missing, not executable or did not answer its handshake: `launcher:
 * "auto"` spawns directly instead, `launcher: "spawner"` fails a run with this as its cause.
 */
export class SpawnerUnavailableError extends SpawnerError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER_UNAVAILABLE";
}

/**
 * The spawner helper exited while a run was in flight: the plugin is killed with its process
 * group and the run fails with this as its cause (one whose plugin had not started is retried
 * once on a new helper first).
 */
export class SpawnerExitedError extends SpawnerError {
  static override readonly id: string = "LIBCNI_ERR_SPAWNER_EXITED";
  /** False: nothing ran, a retry is safe; true: the plugin ran and was killed, effects unknown. */
  readonly pluginStarted: boolean;
  constructor(message: string, options: LibcniErrorOptions & { pluginStarted?: boolean } = {}) {
    super(message, options);
    this.pluginStarted = options.pluginStarted ?? true;
  }
}
