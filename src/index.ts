/**
 * libcni: the CNI runtime library for Node, a drop-in port of upstream Go `libcni`.
 *
 * The main entry holds what a runtime needs: {@link CNIConfig} and its verbs (upstream
 * `libcni/api.go`), configuration loading (`libcni/conf.go`), and the result and error types.
 * The packages behind it have their own entries, named after upstream's: `libcni/types`,
 * `libcni/version`, `libcni/invoke`, `libcni/skel`, `libcni/utils`.
 * @module
 */
export * from "./api/index.js";
export * from "./conf/index.js";
export {
  diagnosticsChannelNames,
  type ExecMessage,
  type Verb,
  type VerbMessage,
  type VerbMethod,
} from "./internal/diagnostics.js";
export {
  type OTelApiLike,
  type OTelBaggageLike,
  type OTelSpanContextLike,
  type TraceContext,
  traceContextFromOTel,
} from "./internal/trace-context.js";
export { PluginExecError } from "./invoke/index.js";
export {
  CNIError,
  convertResult,
  createResult,
  createResultForVersion,
  ErrDecodingFailure,
  ErrIncompatibleCNIVersion,
  ErrInternal,
  ErrInvalidEnvironmentVariables,
  ErrInvalidNetNS,
  ErrInvalidNetworkConfig,
  ErrIOFailure,
  ErrLimitedConnectivity,
  ErrPluginNotAvailable,
  ErrTryAgainLater,
  ErrUnknown,
  ErrUnknownContainer,
  ErrUnsupportedField,
  type GCAttachment,
  isCNIError,
  type PluginConf,
  type Result,
} from "./types/index.js";
export type { PluginInfo } from "./version/index.js";
