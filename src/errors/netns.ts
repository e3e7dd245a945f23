/** netns (libcni/netns): pinned network namespaces, and programs run inside them. */
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
 * A network namespace could not be created, removed or entered, or a program run in one: every
 * error the netns functions throw (`permission`: the process lacks CAP_SYS_ADMIN; `missing`:
 * the path, or the program to run); what failed under it is its `cause`.
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
