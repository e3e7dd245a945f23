/**
 * The library's `node:diagnostics_channel` channels and `NODE_DEBUG=libcni` lines (undici's
 * lib/core/diagnostics.js is the model). Their names and message shapes are a stable contract:
 * docs/observability.md, "Diagnostics channels", says what each field holds. Nothing is built
 * when nobody subscribes and the debug log is off: callers test {@link verbTraced} (and its
 * twins) first, and take the plain path when it is false.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import { debuglog } from "node:util";
import { attempt, messageOf } from "./error-message.js";
import type { TraceContext } from "./trace-context.js";

/** The channel names, for `diagnostics_channel.tracingChannel(name)`. */
export const diagnosticsChannelNames = {
  verb: "libcni:verb",
  exec: "libcni:exec",
  pod: "libcni:pod",
  cacheRemoveFailed: "libcni:cache-remove-failed",
} as const;

/** A CNIConfig verb. */
export type Verb = "ADD" | "CHECK" | "DEL" | "GC" | "STATUS";

/** The CNIConfig methods that publish on `libcni:verb`. */
export type VerbMethod =
  | "addNetworkList"
  | "checkNetworkList"
  | "delNetworkList"
  | "addNetwork"
  | "checkNetwork"
  | "delNetwork"
  | "gcNetworkList"
  | "getStatusNetworkList";

/** The message of every `libcni:verb` event (one object from `start` to `asyncEnd`). */
export interface VerbMessage {
  /** The verb. */
  readonly verb: Verb;
  /** The method called: the list or the single-plugin variant. */
  readonly method: VerbMethod;
  /** The network (list) name. */
  readonly network: string;
  /** The container ID; "" for GC and STATUS, which are about no one attachment. */
  readonly containerID: string;
  /** The interface name; "" for GC and STATUS. */
  readonly ifName: string;
  /** GC only: the cached attachments it DELeted, in DEL order, filled as it goes. */
  collected?: { readonly containerID: string; readonly ifName: string }[];
  /** The configuration's cniVersion. */
  readonly cniVersion: string;
  /** The call's trace context; what a `start` subscriber leaves here is what plugins get. */
  traceContext: TraceContext | undefined;
  /** Milliseconds from start to settlement; set before `asyncStart`. */
  durationMs: number | undefined;
  /** The call's value on success (Node's tracingChannel). */
  result?: unknown;
  /** The call's error on failure (Node's tracingChannel). */
  error?: unknown;
}

/** The message of every `libcni:exec` event: one plugin run of RawExec. */
export interface ExecMessage {
  /** The plugin executable. */
  readonly pluginPath: string;
  /** `CNI_COMMAND` of the run (ADD, DEL, CHECK, GC, STATUS, VERSION); "" when unset. */
  readonly command: string;
  /** `CNI_CONTAINERID`; "" when unset. */
  readonly containerID: string;
  /** `CNI_IFNAME`; "" when unset. */
  readonly ifName: string;
  /** The trace context passed to the plugin, as validated (undefined: none passed). */
  readonly traceContext: TraceContext | undefined;
  /** The exit code, when the plugin exited. */
  exitCode: number | undefined;
  /** The signal that ended the plugin, when one did. */
  signal: string | undefined;
  /** True when the call's AbortSignal fired (before or during the run). */
  aborted: boolean;
  /** Milliseconds from start to settlement, "text file busy" retries included. */
  durationMs: number | undefined;
  /** Bytes the plugin wrote to stdout (up to the output cap). */
  stdoutBytes: number;
  /** Bytes the plugin wrote to stderr (up to the output cap). */
  stderrBytes: number;
  /** Starts attempted (more than 1 after "text file busy" retries; 0 when aborted first). */
  attempts: number;
  /** The plugin's stdout on success (Node's tracingChannel). */
  result?: unknown;
  /** The error on failure, a PluginExecError (Node's tracingChannel). */
  error?: unknown;
}

/** A pod-level call of libcni/runtime's CNIRuntime. */
export type PodOperation = "setup" | "teardown" | "check" | "gc" | "status";

/** The message of every `libcni:pod` event (one object from `start` to `asyncEnd`). */
export interface PodMessage {
  /** The call: setupPod, teardownPod, checkPod, gc or status. */
  readonly operation: PodOperation;
  /** The pod's ID; "" for gc and status, which are about no one pod. */
  readonly podID: string;
  /** gc only: the stale attachments it DELeted, in DEL order (empty for a dry run). */
  collected?: { readonly podID: string; readonly network: string; readonly ifName: string }[];
  /** gc only: true for a dry run (nothing run, nothing removed). */
  dryRun?: boolean;
  /** The pod's netns, when the call was given one (setupPod's; a pod's in teardown, check). */
  netns?: string;
  /** setupPod only: true when its networks are attached at once (go-cni's `Setup`). */
  parallel?: boolean;
  /** The runtime's networks in attach order at the start (go-cni's `Networks()`, `cni.index`). */
  networks?: readonly string[];
  /** The call's trace context; a `start` subscriber may replace it (plugins get the result). */
  traceContext: TraceContext | undefined;
  /** Milliseconds from start to settlement; set before `asyncStart`. */
  durationMs: number | undefined;
  /** The call's value on success (Node's tracingChannel). */
  result?: unknown;
  /** The call's error on failure (Node's tracingChannel). */
  error?: unknown;
}

const tracing = <M extends object>(name: string) => diagnosticsChannel.tracingChannel<M, M>(name);
const podChannel = tracing<PodMessage>(diagnosticsChannelNames.pod);
const verbChannel = tracing<VerbMessage>(diagnosticsChannelNames.verb);
const execChannel = tracing<ExecMessage>(diagnosticsChannelNames.exec);

/** `NODE_DEBUG=libcni`: the one debug log of the library. */
export const debug = debuglog("libcni");
// NODE_DEBUG is read once at startup. Where `debuglog` has no `enabled` (Bun), the section is
// looked up in NODE_DEBUG as Node does.
const debugEnabled: boolean =
  typeof debug.enabled === "boolean"
    ? debug.enabled
    : debugSectionOn("libcni", process.env.NODE_DEBUG);

/** Node's test of NODE_DEBUG for a `debuglog` section (comma-separated, any case, `*`). */
export function debugSectionOn(section: string, nodeDebug: string | undefined): boolean {
  return (nodeDebug ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .some((s) =>
      new RegExp(`^${s.replace(/[|\\{}()[\]^$+?.]/g, "\\$&").replaceAll("*", ".*")}$`, "i").test(
        section,
      ),
    );
}

/** True when a verb must be traced: someone subscribes to `libcni:verb` or the debug log is on. */
export function verbTraced(): boolean {
  return debugEnabled || verbChannel.hasSubscribers;
}

/** True when a plugin run must be traced. */
export function execTraced(): boolean {
  return debugEnabled || execChannel.hasSubscribers;
}

const ms = (start: number): number => Math.round((performance.now() - start) * 1000) / 1000;

const failure = (error: unknown): string => `error error=${JSON.stringify(messageOf(error))}`;

/** A message with the fields every traced call shares. */
interface CallMessage {
  traceContext: TraceContext | undefined;
  durationMs: number | undefined;
}

/** Runs `fn` as the call of `message` on `channel`, and its debug `line` when it settles. */
function traceCall<T, M extends CallMessage>(
  channel: diagnosticsChannel.TracingChannel<M, M>,
  message: M,
  fn: (traceContext: TraceContext | undefined) => Promise<T>,
  line: (message: M, outcome: string) => void,
): Promise<T> {
  const start = performance.now();
  const body = async (): Promise<T> => {
    try {
      return await fn(message.traceContext);
    } finally {
      message.durationMs = ms(start);
    }
  };
  const run = channel.hasSubscribers ? channel.tracePromise(body, message) : body();
  if (!debugEnabled) return run;
  return run.then(
    (value) => {
      line(message, "ok");
      return value;
    },
    (error: unknown) => {
      line(message, failure(error));
      throw error;
    },
  );
}

/** Runs `fn` as the verb of `message`; it gets the trace context to pass on (a subscriber's). */
export function traceVerb<T>(
  message: VerbMessage,
  fn: (traceContext: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  return traceCall(verbChannel, message, fn, debugVerb);
}

/** True when a pod-level call must be traced (a `libcni:pod` subscriber or the debug log). */
export function podTraced(): boolean {
  return debugEnabled || podChannel.hasSubscribers;
}

/** Runs `fn` as the pod-level call of `message` on `libcni:pod` and the debug log. */
export function tracePod<T>(
  message: PodMessage,
  fn: (traceContext: TraceContext | undefined) => Promise<T>,
): Promise<T> {
  return traceCall(podChannel, message, fn, debugPod);
}

// What a debug line says a call was about, with the space after it: its pod or attachment, a
// GC's collected list (docs/observability.md, "Debug log"), nothing for STATUS.
function subject(
  operation: string,
  one: string,
  collected: readonly string[] | undefined,
  dryRun?: boolean,
): string {
  if (collected !== undefined) {
    return `${dryRun ? "dryRun=true " : ""}collected=[${collected.join(" ")}] `;
  }
  return operation === "status" || operation === "STATUS" ? "" : `${one} `;
}

function debugPod(m: PodMessage, outcome: string): void {
  const collected = m.collected?.map((a) => `${a.network}/${a.podID}:${a.ifName}`);
  const about = subject(m.operation, `pod=${m.podID}`, collected, m.dryRun);
  debug("pod %s %sduration=%sms outcome=%s", m.operation, about, m.durationMs, outcome);
}

function debugVerb(m: VerbMessage, outcome: string): void {
  const collected = m.collected?.map((a) => `${a.containerID}:${a.ifName}`);
  const about = subject(m.verb, `container=${m.containerID} ifname=${m.ifName}`, collected);
  debug(
    "verb %s network=%s %scniVersion=%s duration=%sms outcome=%s",
    m.verb,
    JSON.stringify(m.network),
    about,
    m.cniVersion,
    m.durationMs,
    outcome,
  );
}

/** How one start of a plugin ended, as RawExec's runner reports it. */
export interface RunEnd {
  exitCode: number | undefined;
  signal: string | undefined;
  aborted: boolean;
  stdout: Uint8Array;
  stderr: Uint8Array;
  startError: { code?: string } | undefined;
  overflow: string | undefined;
}

/** One traced plugin run: its message, and what the debug line says beyond it. */
export class ExecTrace {
  readonly message: ExecMessage;
  private startError: string | undefined;
  private overflow: string | undefined;

  constructor(
    pluginPath: string,
    env: Readonly<Record<string, string | undefined>>,
    traceContext: TraceContext | undefined,
    private readonly stdin: Uint8Array,
  ) {
    this.message = {
      pluginPath,
      command: env.CNI_COMMAND ?? "",
      containerID: env.CNI_CONTAINERID ?? "",
      ifName: env.CNI_IFNAME ?? "",
      traceContext,
      // Every field from the start: one shape for subscribers (and for V8).
      exitCode: undefined,
      signal: undefined,
      aborted: false,
      durationMs: undefined,
      stdoutBytes: 0,
      stderrBytes: 0,
      attempts: 0,
    };
  }

  /** Records how a start ended (the last one counts). */
  ended(end: RunEnd): void {
    const m = this.message;
    m.attempts += 1;
    m.exitCode = end.exitCode;
    m.signal = end.signal;
    m.aborted = end.aborted;
    m.stdoutBytes = end.stdout.length;
    m.stderrBytes = end.stderr.length;
    this.startError = end.startError?.code;
    this.overflow = end.overflow;
  }

  /** Runs `fn` (the run with its retries) as this trace. */
  run(fn: () => Promise<Uint8Array>, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const m = this.message;
    const body = (): Promise<Uint8Array> =>
      fn().finally(() => {
        m.aborted = m.aborted || signal?.aborted === true;
      });
    return traceCall(execChannel, m, body, (_, outcome) => this.debugLine(outcome));
  }

  private debugLine(outcome: string): void {
    const m = this.message;
    debug(
      "exec %s plugin=%s network=%s container=%s ifname=%s exit=%s signal=%s aborted=%s%s%s attempts=%d duration=%sms outcome=%s",
      m.command,
      m.pluginPath,
      JSON.stringify(networkName(this.stdin)),
      m.containerID,
      m.ifName,
      m.exitCode ?? "-",
      m.signal ?? "-",
      m.aborted,
      this.startError === undefined ? "" : ` startError=${this.startError}`,
      this.overflow === undefined ? "" : ` overflow=${this.overflow}`,
      m.attempts,
      m.durationMs,
      outcome,
    );
  }
}

// The network is in the config, not the environment; read only for the debug line.
function networkName(stdin: Uint8Array): string {
  const conf: unknown = attempt(() => JSON.parse(Buffer.from(stdin).toString()));
  const name = (conf as { name?: unknown } | null | undefined)?.name;
  return typeof name === "string" ? name : "";
}

/** What `libcni:cache-remove-failed` publishes: a record a DEL could not remove. */
export interface CacheRemoveFailedMessage {
  /** The record's path. */
  path: string;
  /** The removal's error (EROFS, EACCES, EIO, ...). */
  error: unknown;
}

const cacheRemoveFailed = diagnosticsChannel.channel(diagnosticsChannelNames.cacheRemoveFailed);

/**
 * Says that a record could not be removed: upstream ignores the removal's result (the DEL
 * succeeds and the record stays listed), so this is the only trace of it.
 */
export function reportCacheRemoveFailed(path: string, error: unknown): void {
  debug("cache record %s could not be removed (ignored, as upstream): %s", path, messageOf(error));
  if (cacheRemoveFailed.hasSubscribers) {
    cacheRemoveFailed.publish({ path, error } satisfies CacheRemoveFailedMessage);
  }
}
