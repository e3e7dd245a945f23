/**
 * netns (libcni/netns): pinned network namespaces, and programs run inside them.
 */
import { LibcniError, type LibcniErrorOptions } from "./base.js";

/** Why a network namespace operation failed, as the OS said it (or the check that refused it). */
export type NetnsFailure =
  | "permission"
  | "exists"
  | "missing"
  | "busy"
  | "not-a-netns"
  | "invalid-name"
  | "failed";

/**
 * A network namespace could not be created, removed or entered, or a program could not be run
 * in one. `reason` says why in one word (`permission`: a namespace operation was refused, the
 * process lacks CAP_SYS_ADMIN; `exists`, `missing`, `busy`: the path, or `missing` the program
 * to run; `not-a-netns`: the path is something else; `invalid-name`; `failed`: anything else,
 * a program that cannot be executed included), `path` which namespace, `errno` the OS's code.
 * Every error the netns functions throw is one; what failed under it (the spawner helper's
 * error when the helper died, a command's failure) is its `cause`.
 */
export class NetnsError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETNS";
  /** What failed, in one word. */
  readonly reason: NetnsFailure;
  /** The namespace's path (or name, for an invalid one). */
  readonly path: string;
  /** The OS's errno name, when the OS refused (EPERM, EEXIST, ENOENT, EBUSY...). */
  readonly errno: string | undefined;
  constructor(
    message: string,
    reason: NetnsFailure,
    path: string,
    options: LibcniErrorOptions & { errno?: string } = {},
  ) {
    super(message, options);
    this.reason = reason;
    this.path = path;
    this.errno = options.errno;
  }
}
