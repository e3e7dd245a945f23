/**
 * The records of libcni/runtime: networks as loaded from a conf dir, pods as a runtime
 * describes them (with every well-known capability of the CNI conventions document, typed:
 * https://www.cni.dev/docs/conventions/#well-known-capabilities), and the options of each call.
 */
import type { NetworkConfigList } from "../conf/index.js";
import type { TraceContext } from "../internal/trace-context.js";

/** The well-known capability names, as plugins declare them in `capabilities`. */
export const CapabilityNames = {
  portMappings: "portMappings",
  bandwidth: "bandwidth",
  ipRanges: "ipRanges",
  dns: "dns",
  aliases: "aliases",
  mac: "mac",
  ips: "ips",
  infinibandGUID: "infinibandGUID",
  deviceID: "deviceID",
  cgroupPath: "cgroupPath",
  podAnnotations: "io.kubernetes.cri.pod-annotations",
} as const;

/** One of the well-known capability names. */
export type CapabilityName = (typeof CapabilityNames)[keyof typeof CapabilityNames];

/** A port mapping (`portMappings`; go-cni `PortMapping`). */
export interface PortMapping {
  hostPort: number;
  containerPort: number;
  /** `tcp`, `udp` or `sctp`; Go's zero value "" when absent. */
  protocol?: string;
  /** The host address to bind; "" (any) when absent. */
  hostIP?: string;
}

/** Rate limits in bits per second, bursts in bits (`bandwidth`; go-cni `BandWidth`). */
export interface Bandwidth {
  ingressRate?: number;
  ingressBurst?: number;
  egressRate?: number;
  egressBurst?: number;
}

/** One IPAM range (`ipRanges`; go-cni `IPRanges`). */
export interface IPRange {
  subnet: string;
  rangeStart?: string;
  rangeEnd?: string;
  gateway?: string;
}

/** Resolver settings (`dns`; go-cni `DNS`). */
export interface DNSCapability {
  servers?: string[];
  searches?: string[];
  options?: string[];
}

/** The capability arguments of a pod, typed; `extra` passes any other capability as is. */
export interface CapabilityArgs {
  portMappings?: PortMapping[];
  bandwidth?: Bandwidth;
  /** Range sets, as the conventions and host-local take them: `[[range, ...], ...]`. */
  ipRanges?: IPRange[][];
  dns?: DNSCapability;
  /** Network name to the pod's DNS aliases on it. */
  aliases?: Record<string, string[]>;
  mac?: string;
  ips?: string[];
  infinibandGUID?: string;
  deviceID?: string;
  cgroupPath?: string;
  /** `io.kubernetes.cri.pod-annotations`. */
  podAnnotations?: Record<string, string>;
  /** Any other capability, by its name, sent as given (go-cni's `WithCapability`). */
  extra?: Record<string, unknown>;
}

/** Whose bytes the structured capabilities take: go-cni's (the default) or ocicni's. */
export type CapabilityStyle = "go-cni" | "ocicni";

/** One network of the set: a conf-dir file's list (or the built-in loopback). */
export interface Network {
  /** The network's name (the list's `name`). */
  readonly name: string;
  /** The parsed list, as CNIConfig takes it. */
  readonly config: NetworkConfigList;
  /** The file it came from; undefined for the built-in loopback. */
  readonly file: string | undefined;
  /** True for the built-in loopback network (`lo`, attached first). */
  readonly loopback: boolean;
}

/** What could not be used while loading: a file (or a network's plugin) and why. */
export interface LoadProblem {
  /** The conf file. */
  readonly file: string;
  /** The network's name, when the file parsed. */
  readonly network?: string;
  /** `invalid`: the file was skipped; `missing-plugin`: kept, but a plugin is not installed. */
  readonly kind: "invalid" | "missing-plugin";
  readonly error: unknown;
}

/** `CNI_ARGS` pairs: an object (keys in insertion order) or `[key, value]` pairs. */
export type PodArgs = Readonly<Record<string, string>> | readonly (readonly [string, string])[];

/** One network a pod asks for, with what is particular to it. */
export interface PodNetworkRequest {
  /** The network's name. */
  name: string;
  /** The interface name in the pod; allocated when absent. */
  ifName?: string;
  /** Capability args for this network, replacing the pod's field by field. */
  capabilities?: CapabilityArgs;
  /** `CNI_ARGS` for this network, after the pod's. */
  args?: PodArgs;
}

/** A pod (sandbox) as the runtime sees it. */
export interface Pod {
  /** The container (sandbox) ID: `CNI_CONTAINERID` and the cache key. */
  id: string;
  /** The network namespace path (`CNI_NETNS`). */
  netns: string;
  /**
   * The networks to attach, in order; a name or a request. Default: every network of the set
   * (the default network first), as go-cni.
   */
  networks?: readonly (string | PodNetworkRequest)[];
  /** Capability args sent to every network (each plugin gets those it declares). */
  capabilities?: CapabilityArgs;
  /** `CNI_ARGS` sent to every network. */
  args?: PodArgs;
}

/**
 * A pod, or just its ID, for the calls that work from the cache. `netns` is used only for a
 * record that holds none (records of Go libcni before 1.2 do not keep the netns): a cached
 * netns is always the one used, as it is the one the attachment was made in.
 */
export type PodRef = string | { readonly id: string; readonly netns?: string | undefined };

/** Options of one pod-level call. */
export interface PodCallOptions {
  /** Aborts the call; a setup is still rolled back (the rollback ignores this signal). */
  signal?: AbortSignal | undefined;
  /** W3C trace context passed to every plugin the call runs (as CNIConfig's `traceContext`). */
  traceContext?: TraceContext | undefined;
  /**
   * Per-network time limit in ms, overriding the runtime's `timeout` (0: none); at most
   * 2147483647, the longest a Node timer waits (a longer one is refused).
   */
  timeout?: number;
}

/** What teardownPod does for a pod the cache holds nothing for (see `ifNoRecords`). */
export type IfNoRecords = "nothing" | "current-config";

/** Options of teardownPod. */
export interface TeardownOptions extends PodCallOptions {
  /**
   * For a pod with nothing cached (no record, no setup intent): succeed doing nothing
   * (`"nothing"`, the default), or DEL each network the pod would be set up on now with the
   * current configuration and setupPod's interface names (`"current-config"`, as go-cni's
   * `Remove` always does and ocicni's `TearDownPod` when the cache has no record; each removed
   * attachment then says `fromCurrentConfig: true`). A pod with records is always torn down
   * from them.
   */
  ifNoRecords?: IfNoRecords;
}

/** Options of setupPod. */
export interface SetupOptions extends PodCallOptions {
  /** Attach the networks at once instead of one after another (go-cni `Setup`). */
  parallel?: boolean;
  /**
   * Check before anything runs that `pod.netns` exists and is a network namespace (an nsfs
   * mount or a `/proc/<pid>/ns/net` link), else throw PodNetnsError; overrides the runtime's
   * `checkNetns`.
   */
  checkNetns?: boolean;
}
