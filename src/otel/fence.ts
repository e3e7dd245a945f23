/**
 * The fence between the library and a user's OpenTelemetry API. The instrumentation runs
 * inside `node:diagnostics_channel` subscribers, where Node turns a throw into an uncaught
 * exception (the process exits, perhaps after a plugin's ADD and before its cache record):
 * telemetry must never fail a CNI call. Every call into the API goes through a fenced
 * function; a throw is said once per hook on `NODE_DEBUG=libcni` and the call goes on
 * without that piece of telemetry.
 */

import { debug } from "../internal/diagnostics.js";
import { messageOf } from "../internal/error-message.js";

/** The calls into the API that are fenced, as the debug line names them. */
export type Hook =
  | "context.active"
  | "tracer.startSpan"
  | "trace.setSpan"
  | "trace.getSpanContext"
  | "propagation.getBaggage"
  | "trace context"
  | "span.setAttributes"
  | "span.setStatus"
  | "span.recordException"
  | "span.end"
  | "metrics.getMeterProvider"
  | "meter instruments"
  | "counter.add"
  | "histogram.record"
  | "error description";

/** The fenced functions of one instrumentation, and which hooks have been reported. */
export class Fence {
  private readonly reported = new Set<Hook>();

  /**
   * `fn` fenced: a throw gives `undefined`. Made once per instrumentation; a call allocates
   * nothing of its own (fixed arity, no rest array; unused parameters are `void`).
   */
  wrap<A = void, B = void, C = void, R = unknown>(
    hook: Hook,
    fn: (a: A, b: B, c: C) => R,
  ): (a: A, b: B, c: C) => R | undefined {
    return (a: A, b: B, c: C): R | undefined => {
      try {
        return fn(a, b, c);
      } catch (error) {
        this.report(hook, error);
        return undefined;
      }
    };
  }

  private report(hook: Hook, error: unknown): void {
    if (this.reported.has(hook)) return;
    this.reported.add(hook);
    try {
      debug(
        "otel: %s threw, ignored: the CNI call goes on without this telemetry (said once): %s",
        hook,
        messageOf(error),
      );
    } catch {
      // The debug log is the last resort; nothing is left to tell.
    }
  }
}
