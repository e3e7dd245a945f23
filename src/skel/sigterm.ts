/**
 * SIGTERM as an AbortSignal for plugin callbacks (upstream issue #684: skel gives callbacks no
 * context, so a plugin cannot notice the runtime giving up on it).
 */

/**
 * Listens for SIGTERM while a callback runs: the first aborts the signal so the callback can
 * clean up and report; a second restores the default action and re-raises it, so a plugin that
 * ignores its signal still dies. `dispose` removes the handler.
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
