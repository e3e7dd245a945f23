/**
 * The options of a `CNIConfig` and the trailing options of every verb, apart from cni-config.ts
 * so that the verbs' body (cni-engine.ts), which the class loads, does not import the class back.
 */
import type { TraceContext } from "../internal/trace-context.js";
import type { Exec } from "../invoke/exec.js";

/** How a `CNIConfig` finds plugins and where it keeps its cache. */
export interface CNIConfigOptions {
  /** Directories searched for plugin executables, in order (upstream `Path`). */
  path?: string[];
  /**
   * The cache directory (`<cacheDir>/results/...`). Default: the deprecated `cacheDir` of each
   * call's RuntimeConf, else `/var/lib/cni`, as upstream.
   */
  cacheDir?: string;
  /** How plugins are found and run. Default: the shared `defaultExec()` of libcni/invoke. */
  exec?: Exec;
  /**
   * The network namespace (a path) plugins run in instead of this process's: a `DefaultExec`
   * with that `netns` (see RawExec's option). Not with `exec` (set it on that Exec instead).
   */
  pluginNetns?: string;
  /**
   * fsync each cache record and its directory (default true). Turning it off keeps records
   * atomic (never torn by a crash of this process) but not durable across a power loss.
   */
  durableCache?: boolean;
}

/** The trailing options of every call (upstream's `context.Context`). */
export interface CallOptions {
  /** Aborting stops the plugin running (its process group) and rejects the call. */
  signal?: AbortSignal | undefined;
  /**
   * W3C trace context passed to every plugin of the call as TRACEPARENT, TRACESTATE and
   * BAGGAGE (upstream main); dropped whole when the traceparent is malformed.
   */
  traceContext?: TraceContext | undefined;
}

/**
 * Options of the verbs that read an attachment's cache record: CHECK, DEL and the cached
 * result (`getNetworkListCachedResult`, `getNetworkCachedResult`).
 */
export interface RecordOptions extends CallOptions {
  /**
   * The attachment's cache record as the caller has just read it (a runtime working from a
   * pod's records): its result is the one used (the plugins' `prevResult`, or the one
   * returned), and the record is not read again. Not in upstream, which reads it in each call.
   */
  cachedRecord?: Uint8Array | undefined;
}

/** Options of DEL (`delNetworkList`, `delNetwork`). */
export interface DelOptions extends RecordOptions {
  /**
   * Reject with CacheRecordRemoveError when the plugins succeeded but the record stays
   * (upstream ignores a failed removal, as the default does).
   */
  requireRecordRemoved?: boolean | undefined;
}
