/**
 * libcni: the CNI runtime library for Node, a drop-in port of upstream Go `libcni`.
 *
 * The main entry holds what a runtime needs to drive plugins as upstream's `libcni` package
 * does: {@link CNIConfig} and its verbs (upstream `libcni/api.go`); configuration loading,
 * injection and linting (`libcni/conf.go`, {@link lintNetworkList}); the core's error classes
 * (one model: see `LibcniError`); the names and message types of the diagnostics channels; and
 * the types a caller of the verbs meets (`Result`, `PluginConf`, `GCAttachment`, `PluginInfo`,
 * `TraceContext`). What each entry holds, and where each error class is exported, is one rule:
 * docs/public-surface.md.
 *
 * The other entry points (package.json `exports`; the README lists each, a test keeps the two
 * equal):
 * - `libcni/types`, `libcni/version`, `libcni/invoke`, `libcni/skel`, `libcni/utils`: upstream's
 *   packages of the same names (`pkg/types`, `pkg/version`, `pkg/invoke`, `pkg/skel`,
 *   `pkg/utils`);
 * - `libcni/runtime`: pods on the networks of a conf dir (containerd/go-cni and cri-o/ocicni in
 *   one);
 * - `libcni/netns`: pod network namespaces, created, entered and removed without forking Node;
 * - `libcni/otel`: OpenTelemetry spans and metrics from the diagnostics channels;
 * - `libcni/testing`: helpers for integration tests, and the plugin conformance checker.
 * @module
 */
export * from "./api/index.js";
export * from "./conf/index.js";
// The error classes from their areas' files, not the errors barrel, which would load the
// runtime, netns, spawner and testing ones too (a class is one module whichever way it is reached).
export {
  type ChainVerb,
  CheckNotSupportedError,
  ErrorCheckNotSupp,
  MultiError,
  PluginChainError,
  PluginVersionError,
} from "./errors/api.js";
export {
  InvalidArgumentError,
  LibcniError,
  type LibcniErrorJSON,
  type LibcniErrorOptions,
  WrappedError,
} from "./errors/base.js";
export {
  type AttachmentKey,
  CachedConfigKindError,
  CacheRecordRemoveError,
  CacheWriteError,
  CorruptCacheRecordError,
} from "./errors/cache.js";
export { ConfError, ConfFileError, NoConfigsFoundError, NotFoundError } from "./errors/conf.js";
export {
  CorruptInputError,
  GoPathError,
  JSONSyntaxError,
  UnmarshalTypeError,
  UnsupportedValueError,
} from "./errors/go.js";
export {
  PluginAbortedError,
  type PluginExecDetails,
  PluginExecError,
  PluginLookupError,
  PluginNotFoundError,
} from "./errors/invoke.js";
export {
  ArgsError,
  CNIError,
  type CNIErrorJSON,
  ConversionError,
  DecodeVersionError,
  isCNIError,
  ParseError,
  ResultVersionMismatchError,
  UnmarshalableArgsError,
  UnsupportedResultVersionError,
} from "./errors/types.js";
export { ErrorIncompatible, PrevResultError, VersionError } from "./errors/version.js";
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
export type { TraceContext } from "./internal/trace-context.js";
export type { GCAttachment } from "./types/gc.js";
export type { PluginConf } from "./types/plugin-conf.js";
export type { Result } from "./types/result.js";
export type { PluginInfo } from "./version/plugin-info.js";
