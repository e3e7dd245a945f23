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
