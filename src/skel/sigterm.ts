/**
 * SIGTERM as an AbortSignal for plugin callbacks (upstream issue #684: skel gives callbacks no
 * context, so a plugin cannot notice the runtime giving up on it).
 */

/**
 * Listens for SIGTERM while a callback runs. The first SIGTERM aborts the signal so the
 * callback can clean up and report an error; a second one restores the default action and
 * re-raises it, so a plugin that ignores its signal still dies on the runtime's next attempt.
 * (The runtime's SIGKILL after its grace period ends it in any case.) `dispose` removes the
 * handler: SIGTERM kills the process again.
 */
export function abortOnSigterm(): { readonly signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSigterm = (): void => {
    if (!controller.signal.aborted) {
      controller.abort(new DOMException("plugin received SIGTERM", "AbortError"));
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
