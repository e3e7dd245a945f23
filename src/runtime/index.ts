/**
 * `libcni/runtime`: the pod-level layer a container runtime needs, on top of CNIConfig
 * (containerd/go-cni and cri-o/ocicni in one). {@link loadNetworks} loads the networks of a
 * conf dir; the {@link CNIRuntime} it returns sets pods up on them (interface names allocated,
 * typed capability args, rollback), tears them down from the result cache, CHECKs them, asks
 * STATUS, collects garbage across networks and watches the conf dir. Built only on the public
 * API of the rest of the library. docs/runtime.md ("Names from go-cni and ocicni") maps go-cni's and ocicni's names to these.
 * @module
 */

export {
  CapabilityArgError,
  DamagedIntentError,
  DefaultNetworkNotFoundError,
  DuplicateNetworkError,
  InterfaceNameError,
  InterruptedSetupError,
  LoopbackDownError,
  NetworkDeviceDataError,
  type NetworkDeviceDataFailure,
  type NetworkFailure,
  NetworkNotFoundError,
  NetworkTimeoutError,
  NoNetworksError,
  type PodAttachmentRef,
  PodCheckError,
  PodNetnsError,
  type PodNetnsProblem,
  PodNotFoundError,
  PodSetupError,
  PodTeardownError,
  RuntimeGCError,
} from "../errors/runtime.js";
export type {
  CheckedAttachment,
  PodAttachmentStatus,
  PodStatus,
  RemovedAttachment,
  TornDownAttachment,
} from "./cached-pod.js";
export {
  type NetworkDeviceData,
  type NetworkDeviceDataOptions,
  networkDeviceData,
  type PodNetworkDeviceData,
  validateNetworkDeviceData,
} from "./device-data.js";
export type { CollectedAttachment, GCOptions, GCReport } from "./gc.js";
export { defaultBinDirs, defaultConfDir, type LoadOptions, type NetworkSet } from "./load.js";
export {
  encodeCapabilityArgs,
  mergeCapabilityArgs,
  type PlannedAttachment,
  planPod,
  type StaticAddress,
  staticAddressArgs,
} from "./plan.js";
export { CNIRuntime, loadNetworks, type RuntimeOptions } from "./runtime.js";
export type { NetworkStatus, StatusReport } from "./status.js";
export type {
  AttachmentResult,
  InterfaceSummary,
  IPSummary,
  PodSetupResult,
  RouteSummary,
} from "./summary.js";
export {
  type Bandwidth,
  type CapabilityArgs,
  type CapabilityName,
  CapabilityNames,
  type CapabilityStyle,
  type DNSCapability,
  type IfNoRecords,
  type IPRange,
  type LoadProblem,
  type Network,
  type Pod,
  type PodArgs,
  type PodCallOptions,
  type PodNetworkRequest,
  type PodRef,
  type PortMapping,
  type SetupOptions,
  type TeardownOptions,
} from "./types.js";
export {
  type ConfDirFinding,
  type ConfDirFindingKind,
  type ConfDirReport,
  type ValidateConfDirOptions,
  validateConfDir,
} from "./validate-conf-dir.js";
export { type NetworkSetChange, NetworkWatcher, type WatchOptions } from "./watch.js";
