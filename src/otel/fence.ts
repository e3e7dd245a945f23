/**
 * The fence between the library and a user's OpenTelemetry API. The instrumentation runs in
 * `node:diagnostics_channel` subscribers, where Node turns a throw into an uncaught exception
 * (the process exits, perhaps after a plugin's ADD and before its cache record): telemetry must
 * never fail a CNI call. A throw is said once per hook on `NODE_DEBUG=libcni` and ignored.
 */

import { debug } from "../internal/diagnostics.js";
import { messageOf } from "../internal/error-message.js";

/** The fenced calls of one instrumentation, and which of them (hooks) have been reported. */
export class Fence {
  private readonly reported = new Set<string>();

  /**
   * `fn` fenced: a throw gives `undefined`. Made once per instrumentation; a call allocates
   * nothing of its own (fixed arity, no rest array; unused parameters are `void`).
   */
  wrap<A = void, B = void, C = void, R = unknown>(
    hook: string,
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

  private report(hook: string, error: unknown): void {
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
