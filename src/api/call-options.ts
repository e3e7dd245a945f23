/**
 * The trailing options of every verb, apart from cni-config.ts so that the verbs' body
 * (cni-engine.ts), which the class loads, does not import the class back.
 */
import type { TraceContext } from "../internal/trace-context.js";

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
