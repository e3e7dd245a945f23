/** runtime (libcni/runtime): loading networks; pod setup, check, teardown; GC. */
import { messageOf } from "../internal/error-message.js";
import { InvalidArgumentError, LibcniError, type LibcniErrorOptions } from "./base.js";

/** One network's failure inside a pod-level operation. */
export interface NetworkFailure {
  /** The network's name ("" when the failure is the pod's, not one network's: its setup intent). */
  network: string;
  /** The pod's interface on that network ("" for a network's own GC, or none known). */
  ifName: string;
  /** What the network's plugins (or the layer) threw. */
  error: unknown;
  /** The pod the failure is about, in a GC (which works on many pods); absent elsewhere. */
  podID?: string;
}

/** `[pod <id>: ][<network> (<ifName>): ]<message>`, an empty part left out. */
function failureLine(f: NetworkFailure): string {
  const pod = f.podID ? `pod ${f.podID}: ` : "";
  const where = f.network && f.ifName ? `${f.network} (${f.ifName})` : f.network || f.ifName;
  return `${pod}${where ? `${where}: ` : ""}${failureText(f)}`;
}

/** The failure's error, a NetworkTimeoutError of that network without its `network <name>: `. */
function failureText(f: NetworkFailure): string {
  const e = f.error;
  return e instanceof NetworkTimeoutError && f.network !== "" && e.network === f.network
    ? timeoutText(e.verb, e.timeout)
    : messageOf(e);
}

function failureLines(failures: readonly NetworkFailure[]): string {
  return failures.map(failureLine).join("; ");
}

/**
 * The runtime has no usable network yet. A state, not a failure of the load: `status()` reports
 * it and `setupPod` throws it until a reload (or the watcher) brings a network in.
 */
export class NoNetworksError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NO_NETWORKS";
  constructor(
    /** The conf dir. */
    readonly confDir: string,
    /** Each file that could not be used, with its error. */
    readonly problems: readonly { file: string; error: unknown }[],
    /** Why: the dir is missing or unreadable, holds no usable network, or lacks the default one. */
    readonly reason: string = `no valid networks found in ${confDir}`,
    options: LibcniErrorOptions = {},
  ) {
    const detail =
      problems.length === 0
        ? ""
        : `: ${problems.map((p) => `${p.file}: ${messageOf(p.error)}`).join("; ")}`;
    super(`${reason}${detail}`, options);
  }
}

/**
 * The runtime's `defaultNetwork` is not among the conf dir's usable networks: a pod that names
 * no networks is refused, one that names its networks may still be set up (ocicni's rule).
 */
export class DefaultNetworkNotFoundError extends NoNetworksError {
  static override readonly id: string = "LIBCNI_ERR_DEFAULT_NETWORK_NOT_FOUND";
  constructor(
    confDir: string,
    /** The default network's name. */
    readonly network: string,
    problems: readonly { file: string; error: unknown }[] = [],
  ) {
    super(confDir, problems, `default network ${JSON.stringify(network)} not found in ${confDir}`);
  }
}

/** A conf file's network has the name of an earlier file's: the later one is skipped. */
export class DuplicateNetworkError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_DUPLICATE_NETWORK";
  /** The repeated name. */
  readonly network: string;
  /** @param by what has the name already: an earlier file, or the runtime's loopback network. */
  constructor(network: string, by = "an earlier file") {
    super(`network ${JSON.stringify(network)} is already defined by ${by}`);
    this.network = network;
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

/**
 * A pod's interface names collide or are not valid, found before any lock or plugin; `cause` is
 * upstream's validation error (a CNIError with its code) when there is one.
 */
export class InterfaceNameError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_INTERFACE_NAME";
}

/** checkPod found the pod's loopback interface not up (go-cni#124's check). */
export class LoopbackDownError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_LOOPBACK_DOWN";
  /** The pod's ID. */
  readonly podID: string;
  /** The netns looked in. */
  readonly netns: string;
  /** `down`: lo is there and not up; `no-netns`: the netns is not a network namespace any more. */
  readonly reason: "down" | "no-netns";
  /** lo's flags as `ip link` showed them (`LOOPBACK`, ...), when it was seen. */
  readonly flags: readonly string[];
  constructor(
    podID: string,
    netns: string,
    reason: "down" | "no-netns",
    flags: readonly string[] = [],
    options: LibcniErrorOptions = {},
  ) {
    super(
      reason === "down"
        ? `check pod ${podID}: lo is not up in ${netns} (flags <${flags.join(",")}>)`
        : `check pod ${podID}: lo cannot be up: ${netns} is not a network namespace`,
      options,
    );
    this.podID = podID;
    this.netns = netns;
    this.reason = reason;
    this.flags = Object.freeze([...flags]);
  }
}

/** Why a pod's netns was refused before its setup ran anything. */
export type PodNetnsProblem = "missing" | "not-a-netns" | "unreadable";

/**
 * A pod's `netns` is not a network namespace, found before its setup takes a lock or runs a
 * plugin (upstream leaves it to each plugin's `ns.GetNS`, after the plugins before it ran).
 */
export class PodNetnsError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_POD_NETNS";
  constructor(
    /** The pod's ID. */
    readonly podID: string,
    /** The netns path given (`CNI_NETNS`). */
    readonly netns: string,
    /** What is wrong with it. */
    readonly reason: PodNetnsProblem,
    options: LibcniErrorOptions = {},
  ) {
    const what =
      netns === ""
        ? "no netns given"
        : `netns ${JSON.stringify(netns)} ${
            reason === "missing"
              ? "does not exist"
              : reason === "not-a-netns"
                ? "is not a network namespace (an nsfs mount or a /proc/<pid>/ns/net link)"
                : `cannot be looked at: ${messageOf(options.cause)}`
          }`;
    super(
      "pod.netns",
      `set up pod ${podID}: ${what} (nothing was run; checkNetns: false if the plugins create it)`,
      options,
    );
  }
}

/** A pod's capability argument is not in the CNI conventions' form (found before any plugin). */
export class CapabilityArgError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_CAPABILITY_ARG";
}

/** Which of the API server's rules a NetworkDeviceData breaks (Kubernetes' field error types). */
export type NetworkDeviceDataFailure = "too-long" | "too-many" | "invalid" | "duplicate";

/**
 * A KEP-4817 NetworkDeviceData (a ResourceClaim's `status.devices[].networkData`) breaks a rule
 * the API server enforces; `argument` is the field's path as the API server names it.
 */
export class NetworkDeviceDataError extends InvalidArgumentError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_DEVICE_DATA";
  /** The rule broken. */
  readonly reason: NetworkDeviceDataFailure;
  /** The network that reported the interface, when known. */
  readonly network: string | undefined;
  constructor(
    argument: string,
    reason: NetworkDeviceDataFailure,
    message: string,
    network?: string,
  ) {
    super(argument, message);
    this.reason = reason;
    this.network = network;
  }
}

function timeoutText(verb: string, timeout: number): string {
  return `${verb} timed out after ${timeout} ms`;
}

/** One network of a pod took longer than the per-network timeout. */
export class NetworkTimeoutError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_NETWORK_TIMEOUT";
  /** The timeout, in milliseconds. */
  readonly timeout: number;
  /** The network's name. */
  readonly network: string;
  /** The verb that took too long (`ADD`, `CHECK`, `DEL`, `GC`). */
  readonly verb: string;
  constructor(network: string, verb: string, timeout: number, cause?: unknown) {
    super(`network ${network}: ${timeoutText(verb, timeout)}`, { cause });
    this.timeout = timeout;
    this.network = network;
    this.verb = verb;
  }
}

/** One attachment of a pod: its network and interface. */
export interface PodAttachmentRef {
  network: string;
  ifName: string;
}

/**
 * Setting a pod up failed and the networks whose plugins had started were rolled back. A network
 * none of whose plugins started had nothing to undo and is in neither list.
 */
export class PodSetupError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_SETUP";
  constructor(
    /** The pod's ID. */
    readonly podID: string,
    /** The network whose ADD failed (the first one, in attach order). */
    readonly failure: NetworkFailure,
    /** Every other network whose ADD failed (parallel setup only). */
    readonly otherFailures: readonly NetworkFailure[],
    /** The rollback DELs that failed: what may be left behind. */
    readonly rollbackFailures: readonly NetworkFailure[],
    /** The attachments the rollback DELeted, in DEL order. */
    readonly rolledBack: readonly PodAttachmentRef[] = [],
  ) {
    const rb =
      rollbackFailures.length > 0
        ? `rollback failed: ${failureLines(rollbackFailures)}`
        : rolledBack.length > 0
          ? "rolled back"
          : "nothing to undo";
    super(
      `set up pod ${podID}: network ${failure.network} (${failure.ifName}): ${failureText(failure)} (${rb})`,
      { cause: failure.error },
    );
  }
}

/** Tearing a pod down left attachments behind: each failed DEL, after trying every one. */
export class PodTeardownError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_TEARDOWN";
  constructor(
    /** The pod's ID. */
    readonly podID: string,
    /** Each attachment whose DEL failed. */
    readonly failures: readonly NetworkFailure[],
  ) {
    super(`tear down pod ${podID}: ${failureLines(failures)}`, { cause: failures[0]?.error });
  }
}

/** CHECK of a pod failed on one or more of its attachments. */
export class PodCheckError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_POD_CHECK";
  constructor(
    /** The pod's ID. */
    readonly podID: string,
    /** Each attachment whose CHECK failed. */
    readonly failures: readonly NetworkFailure[],
  ) {
    super(`check pod ${podID}: ${failureLines(failures)}`, { cause: failures[0]?.error });
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

/**
 * A pod's setup intent that cannot be used (docs/reliability.md, "A damaged setup intent"). The
 * message never quotes the file's content.
 */
export class DamagedIntentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SETUP_INTENT_DAMAGED";
  /** The pod's ID. */
  readonly podID: string;
  /** The intent's path. */
  readonly path: string;
  /** What is wrong with it (`is a directory, not a regular file`, `cannot be read: ...`). */
  readonly reason: string;
  /** Where teardown or GC moved it; undefined while it is still at `path`. */
  readonly setAsideAs: string | undefined;
  constructor(
    podID: string,
    path: string,
    reason: string,
    options: { setAsideAs?: string | undefined; setAsideFailure?: unknown } = {},
  ) {
    const { setAsideAs, setAsideFailure } = options;
    const aside =
      setAsideAs !== undefined
        ? `; set aside as ${setAsideAs}`
        : setAsideFailure !== undefined
          ? `; it could not be set aside: ${messageOf(setAsideFailure)}`
          : "";
    super(`setup intent ${path} of pod ${podID} ${reason}${aside}`, { cause: setAsideFailure });
    this.podID = podID;
    this.path = path;
    this.reason = reason;
    this.setAsideAs = setAsideAs;
  }
}

/**
 * setupPod refused a pod whose setup intent is on disk: an earlier setup of it was interrupted
 * (its rollback's DEL failed, or its runtime died), or runs in another runtime or process. A
 * new intent would forget what that setup attached; teardownPod undoes it (docs/reliability.md).
 */
export class InterruptedSetupError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SETUP_INTERRUPTED";
  constructor(
    /** The pod's ID. */
    readonly podID: string,
    /** The intent's path. */
    readonly path: string,
    /** True when its setup runs: in another runtime or thread of this process, or its live owner. */
    readonly inFlightElsewhere: boolean,
  ) {
    super(
      inFlightElsewhere
        ? `pod ${podID} is being set up by another runtime or process (setup intent ${path})`
        : `pod ${podID} has an interrupted setup (setup intent ${path}): tear the pod down before setting it up again`,
    );
  }
}

/** What is wrong with an intent's content (a DamagedIntentError's cause), never quoting it. */
export class MalformedIntentError extends LibcniError {
  static override readonly id: string = "LIBCNI_ERR_SETUP_INTENT_MALFORMED";
}
