/** The values skel hands to a plugin's callbacks (upstream `skel.CmdArgs` and `skel.CNIFuncs`). */
import type { TraceContext } from "../internal/trace-context.js";

/**
 * Everything the runtime passed to the plugin: the CNI_* environment and the config bytes read
 * from stdin. Upstream's `CmdArgs`; an unset variable is the empty string, as Go's `os.Getenv`.
 */
export interface CmdArgs {
  /** CNI_CONTAINERID (validated for ADD, CHECK and DEL). */
  containerID: string;
  /** CNI_NETNS: the path of the container's network namespace. */
  netns: string;
  /** CNI_IFNAME (validated for ADD, CHECK and DEL). */
  ifName: string;
  /** CNI_ARGS, unparsed (`K=V;K2=V2`). */
  args: string;
  /** CNI_PATH, unsplit (`:`-separated directories). */
  path: string;
  /** CNI_NETNS_OVERRIDE: `true` or `1` skips the netns check. */
  netnsOverride: string;
  /** The network configuration exactly as read from stdin (empty for VERSION). */
  stdinData: Uint8Array;
}

/** Something a plugin writes to: `process.stdout` or a test's collector. */
export interface OutputStream {
  /** Node's `Writable.write` shape; the callback fires once the chunk is handed to the OS. */
  write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
}

/**
 * The second argument of every callback (upstream's take no context, its issue #684): `signal`
 * aborts on SIGTERM (the runtime's timeout or cancel), so a plugin can stop and report in time.
 */
export interface PluginContext {
  /** Aborts on SIGTERM (or on the signal given to `pluginMainWithError`). */
  signal: AbortSignal;
  /** Where the result goes: the process's stdout unless a test injected another. */
  stdout: OutputStream;
  /** The process's stderr unless a test injected another. */
  stderr: OutputStream;
  /** The W3C trace context the runtime passed (TRACEPARENT, ...); undefined without a valid one. */
  traceContext: TraceContext | undefined;
}

/** A plugin callback: a thrown `CNIError` is reported as is, any other error as code 999. */
export type PluginCallback = (args: CmdArgs, ctx: PluginContext) => Promise<void> | void;

/** The plugin's verbs (upstream `CNIFuncs`); a missing one succeeds, as a nil func upstream. */
export interface CNIFuncs {
  /** ADD: create the attachment and print the result. */
  add?: PluginCallback;
  /** DEL: remove the attachment; must tolerate missing state. */
  del?: PluginCallback;
  /** CHECK (config version 0.4.0 and later). */
  check?: PluginCallback;
  /** GC (config version 1.1.0 and later). */
  gc?: PluginCallback;
  /** STATUS (config version 1.1.0 and later). */
  status?: PluginCallback;
}
