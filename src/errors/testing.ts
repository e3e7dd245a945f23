/** testing (libcni/testing): helpers of integration tests. */
import { LibcniError } from "./base.js";

/** How a program run in a namespace ended (libcni/netns's `ExecInNetnsResult`). */
export interface CommandResult {
  exitCode: number | undefined;
  signal: string | undefined;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** `eventually` gave up: `cause` is the last attempt's error. */
export class EventuallyError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_EVENTUALLY";
  constructor(
    message: string,
    /** Milliseconds from the first attempt to giving up. */
    readonly elapsedMs: number,
    /** How many times the function was called. */
    readonly attempts: number,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}

/** A program run in a namespace by `runInNetns` exited non-zero, was killed or timed out. */
export class CommandFailedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_COMMAND_FAILED";
  constructor(
    message: string,
    /** The program and its arguments. */
    readonly argv: readonly string[],
    /** The namespace it ran in. */
    readonly netns: string,
    /** How it ended, with its output. */
    readonly result: CommandResult,
  ) {
    super(message);
  }
}

/** Plugins a test needs are not installed in any plugin dir (`requirePlugins`). */
export class MissingPluginsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_MISSING_PLUGINS";
  constructor(
    message: string,
    /** The plugins not found. */
    readonly plugins: readonly string[],
    /** The dirs searched. */
    readonly dirs: readonly string[],
  ) {
    super(message);
  }
}

/**
 * Why a rootless sandbox could not be made: `userns-disabled` (Debian's and Ubuntu's older
 * kernels: kernel.unprivileged_userns_clone=0), `userns-limit` (user.max_user_namespaces=0),
 * `apparmor` (Ubuntu 24.04: kernel.apparmor_restrict_unprivileged_userns=1), `missing-command`
 * (util-linux's `unshare` or `setpriv`, or `mount`, not installed), `failed` (anything else:
 * a container's seccomp profile, a /proc that cannot be mounted).
 */
export type RootlessFailure =
  | "userns-disabled"
  | "userns-limit"
  | "apparmor"
  | "missing-command"
  | "failed";

/** `runRootless` (and `cnitool rootless`) could not make the sandbox; the command never ran. */
export class RootlessError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_ROOTLESS";
  /** Why, in one word. */
  readonly reason: RootlessFailure;
  /** The kernel setting that refuses, with its value, when one does. */
  readonly setting: string | undefined;
  /** How to allow it (a command for root), when there is a known fix. */
  readonly fix: string | undefined;
  /** What the setup (unshare, mount) printed, trimmed. */
  readonly output: string;
  constructor(
    message: string,
    reason: RootlessFailure,
    details: { setting?: string; fix?: string; output?: string; cause?: unknown } = {},
  ) {
    super(message, details.cause === undefined ? {} : { cause: details.cause });
    this.reason = reason;
    this.setting = details.setting;
    this.fix = details.fix;
    this.output = details.output ?? "";
  }
}
