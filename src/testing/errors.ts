/**
 * The errors of libcni/testing, in the library's one error model ({@link LibcniError}: a
 * stable `id`, `instanceof` across copies of the package), so a test can tell a helper's
 * failure from the failure of the code under test.
 */
import { LibcniError } from "../errors.js";
import type { ExecInNetnsResult } from "../netns/index.js";

/** {@link eventually} gave up: `cause` is the last attempt's error. */
export class EventuallyError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_EVENTUALLY";
  /** Milliseconds from the first attempt to giving up. */
  readonly elapsedMs: number;
  /** How many times the function was called. */
  readonly attempts: number;
  constructor(message: string, elapsedMs: number, attempts: number, cause: unknown) {
    super(message, { cause });
    this.elapsedMs = elapsedMs;
    this.attempts = attempts;
  }
}

/** A program run in a namespace by {@link runInNetns} exited non-zero, was killed or timed out. */
export class CommandFailedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_COMMAND_FAILED";
  /** The program and its arguments. */
  readonly argv: readonly string[];
  /** The namespace it ran in. */
  readonly netns: string;
  /** How it ended, with its output. */
  readonly result: ExecInNetnsResult;
  constructor(message: string, argv: readonly string[], netns: string, result: ExecInNetnsResult) {
    super(message);
    this.argv = argv;
    this.netns = netns;
    this.result = result;
  }
}

/** Plugins a test needs are not installed in any plugin dir ({@link requirePlugins}). */
export class MissingPluginsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_MISSING_PLUGINS";
  /** The plugins not found. */
  readonly plugins: readonly string[];
  /** The dirs searched. */
  readonly dirs: readonly string[];
  constructor(message: string, plugins: readonly string[], dirs: readonly string[]) {
    super(message);
    this.plugins = plugins;
    this.dirs = dirs;
  }
}
