/**
 * SIGTERM as an AbortSignal for plugin callbacks (upstream issue #684: skel gives callbacks no
 * context, so a plugin cannot notice the runtime giving up on it).
 */

/** The abort reason a callback sees when the plugin receives SIGTERM. */
export function sigtermReason(): DOMException {
  return new DOMException("plugin received SIGTERM", "AbortError");
}

/** A signal that aborts on SIGTERM, and the function that stops listening. */
export interface SigtermSignal {
  /** Aborts, with `sigtermReason()`, on the first SIGTERM. */
  readonly signal: AbortSignal;
  /** Removes the handler: SIGTERM kills the process again. */
  dispose(): void;
}

/**
 * Listens for SIGTERM while a callback runs. The first SIGTERM aborts the signal so the
 * callback can clean up and report an error; a second one restores the default action and
 * re-raises it, so a plugin that ignores its signal still dies on the runtime's next attempt.
 * (The runtime's SIGKILL after its grace period ends it in any case.)
 */
export function abortOnSigterm(): SigtermSignal {
  const controller = new AbortController();
  const onSigterm = (): void => {
    if (!controller.signal.aborted) {
      controller.abort(sigtermReason());
      return;
    }
    process.removeListener("SIGTERM", onSigterm);
    process.kill(process.pid, "SIGTERM");
  };
  process.on("SIGTERM", onSigterm);
  return {
    signal: controller.signal,
    dispose: () => {
      process.removeListener("SIGTERM", onSigterm);
    },
  };
}
