/**
 * libcni: the CNI runtime library for Node, a drop-in port of upstream Go `libcni`.
 *
 * The main entry holds what a runtime needs: {@link CNIConfig} and its verbs (upstream
 * `libcni/api.go`), configuration loading (`libcni/conf.go`), every error class of the library
 * (one model: see `LibcniError`), and the result types. The packages behind it have their own
 * entries, named after upstream's: `libcni/types`, `libcni/version`, `libcni/invoke`,
 * `libcni/skel`, `libcni/utils`.
 * @module
 */
export * from "./api/index.js";
export * from "./conf/index.js";
export {
  ArgsError,
  type AttachmentKey,
  CachedConfigKindError,
  CacheRecordRemoveError,
  CacheWriteError,
  CacheWriteThreadExitedError,
  type ChainVerb,
  CheckNotSupportedError,
  CNIError,
  type CNIErrorJSON,
  CommandFailedError,
  type CommandResult,
  ConfError,
  ConfFileError,
  ConversionError,
  CorruptCacheRecordError,
  CorruptInputError,
  DecodeVersionError,
  ErrorCheckNotSupp,
  ErrorIncompatible,
  EventuallyError,
  GoPathError,
  InvalidArgumentError,
  isCNIError,
  JSONSyntaxError,
  LibcniError,
  type LibcniErrorOptions,
  MissingPluginsError,
  MultiError,
  NetnsError,
  type NetnsFailure,
  NoConfigsFoundError,
  NotFoundError,
  ParseError,
  PluginAbortedError,
  PluginChainError,
  type PluginExecDetails,
  PluginExecError,
  PluginLookupError,
  PluginNotFoundError,
  PluginVersionError,
  PrevResultError,
  ResultVersionMismatchError,
  UnmarshalableArgsError,
  UnmarshalTypeError,
  UnsupportedResultVersionError,
  UnsupportedValueError,
  VersionError,
  WrappedError,
} from "./errors.js";
export {
  type CacheRemoveFailedMessage,
  diagnosticsChannelNames,
  type ExecMessage,
  type PodMessage,
  type PodOperation,
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
export type { GCAttachment } from "./types/gc.js";
export type { PluginConf } from "./types/plugin-conf.js";
export type { Result } from "./types/result.js";
export type { PluginInfo } from "./version/plugin-info.js";
