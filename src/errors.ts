/**
 * The library's error model, in one module (undici's `lib/core/errors.js` is the model).
 *
 * - Every error a public function throws is a {@link LibcniError}: one `catch` tells the
 *   library's errors from a bug.
 * - Each class has a stable string identifier, `id` (`LIBCNI_ERR_PLUGIN_NOT_FOUND`, ...), on the
 *   class and on each instance; the README's error table lists them. `name` is the class name.
 * - `instanceof` answers by a registry-symbol brand, so it holds for an error made by another
 *   copy of the package in the same process (a runtime and a plugin helper bundled apart).
 * - `code` is the spec's numeric CNI error code, on {@link CNIError} and its subclasses only
 *   (Go's `types.Error.Code`); an OS errno name is `errno`, never `code`.
 * - What an error wraps is the standard `cause`, as Go's `%w`: `err.cause` is what
 *   `errors.Unwrap(err)` returns in Go.
 *
 * The classes of each area live below, grouped; the modules that throw them import them from here.
 */

const brandKey = Symbol.for("libcni.error.ids");

interface Branded {
  readonly [brandKey]: readonly string[];
}

function idsOf(value: unknown): readonly string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const ids = (value as Partial<Branded>)[brandKey];
  return Array.isArray(ids) ? ids : undefined;
}

/** The ids of `cls` and of every library class above it, most derived first. */
function classIds(cls: unknown): string[] {
  const ids: string[] = [];
  for (let c = cls; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
    if (Object.hasOwn(c, "id")) ids.push((c as unknown as { id: string }).id);
  }
  return ids;
}

/** Options every library error takes. */
export interface LibcniErrorOptions {
  /** The underlying error (Go's `%w` operand). */
  cause?: unknown;
}

/** The base of every error the library throws. */
export class LibcniError extends Error {
  /** The stable identifier of this class. */
  static readonly id: string = "LIBCNI_ERR";
  /** The stable identifier of the error's class (see the README's error table). */
  readonly id: string;

  constructor(message: string, options: LibcniErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const cls = new.target;
    const ids = classIds(cls);
    this.id = ids[0] ?? LibcniError.id;
    this.name = cls.name;
    Object.defineProperty(this, brandKey, { value: ids });
  }

  /**
   * True for an error of this class made by this copy of the library or another. A subclass
   * without an `id` of its own (a caller's subclass) keeps the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof LibcniError !== "function" || !Object.hasOwn(LibcniError, "id")) {
      return Function.prototype[Symbol.hasInstance].call(LibcniError, value);
    }
    const ids = idsOf(value);
    if (ids === undefined) return false;
    return ids.includes((LibcniError as unknown as { id: string }).id);
  }
}

/** The message of any thrown value, as Go's `err.Error()`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * An error that wraps another with context, as Go's `fmt.Errorf("<context>: %w", err)`:
 * `<context>: <cause's message>`, with `cause` the wrapped error.
 */
export class WrappedError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_WRAPPED";
  constructor(context: string, cause: unknown) {
    super(`${context}: ${messageOf(cause)}`, { cause });
  }
}

// ---------------------------------------------------------------------------------------------
// runtime (libcni/runtime): pods and networks
// ---------------------------------------------------------------------------------------------

/** One network's failure inside a pod-level operation. */
export interface NetworkFailure {
  /** The network's name. */
  network: string;
  /** The pod's interface on that network. */
  ifName: string;
  /** What the network's plugins (or the layer) threw. */
  error: unknown;
}

function failureLines(failures: readonly NetworkFailure[]): string {
  return failures.map((f) => `${f.network} (${f.ifName}): ${messageOf(f.error)}`).join("; ");
}

/** No usable network remains after loading a conf dir (every file broken, or none). */
export class NoNetworksError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NO_NETWORKS";
  /** The conf dir. */
  readonly confDir: string;
  /** Each file that could not be used, with its error. */
  readonly problems: readonly { file: string; error: unknown }[];
  constructor(confDir: string, problems: readonly { file: string; error: unknown }[]) {
    const detail =
      problems.length === 0
        ? ""
        : `: ${problems.map((p) => `${p.file}: ${messageOf(p.error)}`).join("; ")}`;
    super(`no valid networks found in ${confDir}${detail}`);
    this.confDir = confDir;
    this.problems = problems;
  }
}

/** A pod asked for a network that is not loaded. */
export class NetworkNotFoundError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_NOT_FOUND";
  /** The name asked for. */
  readonly network: string;
  constructor(network: string) {
    super(`network ${JSON.stringify(network)} not found`);
    this.network = network;
  }
}

/** A pod's interface names collide or are not valid. */
export class InterfaceNameError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_INTERFACE_NAME";
}

/** One network of a pod took longer than the per-network timeout. */
export class NetworkTimeoutError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_TIMEOUT";
  /** The timeout, in milliseconds. */
  readonly timeout: number;
  /** The network's name. */
  readonly network: string;
  constructor(network: string, verb: string, timeout: number, cause?: unknown) {
    super(`network ${network}: ${verb} timed out after ${timeout} ms`, { cause });
    this.timeout = timeout;
    this.network = network;
  }
}

/**
 * Setting a pod up failed: `failure` is the network that failed (`cause` is its error); the
 * networks set up before it were rolled back, and `rollbackFailures` lists the DELs that failed
 * (empty when the rollback was clean).
 */
export class PodSetupError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_SETUP";
  /** The pod's ID. */
  readonly podID: string;
  /** The network whose ADD failed (the first one, in attach order). */
  readonly failure: NetworkFailure;
  /** Every other network whose ADD failed (parallel setup only). */
  readonly otherFailures: readonly NetworkFailure[];
  /** The rollback DELs that failed: what may be left behind. */
  readonly rollbackFailures: readonly NetworkFailure[];
  constructor(
    podID: string,
    failure: NetworkFailure,
    otherFailures: readonly NetworkFailure[],
    rollbackFailures: readonly NetworkFailure[],
  ) {
    const rb =
      rollbackFailures.length === 0
        ? "rolled back"
        : `rollback failed: ${failureLines(rollbackFailures)}`;
    super(
      `set up pod ${podID}: network ${failure.network} (${failure.ifName}): ${messageOf(failure.error)} (${rb})`,
      { cause: failure.error },
    );
    this.podID = podID;
    this.failure = failure;
    this.otherFailures = otherFailures;
    this.rollbackFailures = rollbackFailures;
  }
}

/** Tearing a pod down left attachments behind: each failed DEL, after trying every one. */
export class PodTeardownError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_TEARDOWN";
  /** The pod's ID. */
  readonly podID: string;
  /** Each attachment whose DEL failed. */
  readonly failures: readonly NetworkFailure[];
  constructor(podID: string, failures: readonly NetworkFailure[]) {
    super(`tear down pod ${podID}: ${failureLines(failures)}`, { cause: failures[0]?.error });
    this.podID = podID;
    this.failures = failures;
  }
}

/** CHECK of a pod failed on one or more of its attachments. */
export class PodCheckError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_CHECK";
  /** The pod's ID. */
  readonly podID: string;
  /** Each attachment whose CHECK failed. */
  readonly failures: readonly NetworkFailure[];
  constructor(podID: string, failures: readonly NetworkFailure[]) {
    super(`check pod ${podID}: ${failureLines(failures)}`, { cause: failures[0]?.error });
    this.podID = podID;
    this.failures = failures;
  }
}

/** A pod has no attachment in the result cache (CHECK of a pod never set up, or torn down). */
export class PodNotFoundError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_NOT_FOUND";
  /** The pod's ID. */
  readonly podID: string;
  constructor(podID: string) {
    super(`pod ${podID} has no cached attachments`);
    this.podID = podID;
  }
}

/** Garbage collection across networks: every failure, after trying everything. */
export class RuntimeGCError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_RUNTIME_GC";
  /** Stale attachments whose DEL failed, and networks whose GC failed (`ifName` ""). */
  readonly failures: readonly NetworkFailure[];
  constructor(failures: readonly NetworkFailure[]) {
    super(`gc: ${failureLines(failures)}`, { cause: failures[0]?.error });
    this.failures = failures;
  }
}

/** A conf file's network has the name of an earlier file's: the later one is skipped. */
export class DuplicateNetworkError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_DUPLICATE_NETWORK";
  /** The repeated name. */
  readonly network: string;
  constructor(network: string) {
    super(`network ${JSON.stringify(network)} is already defined by an earlier file`);
    this.network = network;
  }
}
