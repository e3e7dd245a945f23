/**
 * `libcni/otel`: the library's diagnostics channels connected to a user's OpenTelemetry API
 * (`@opentelemetry/api`, an optional peer: passed in, duck-typed, never imported), in one
 * call. Spans for each pod-level call, verb and plugin run, nested as the calls are (a plugin
 * run under its verb, a verb under its pod call, the outermost under the caller's active
 * span), the verb's span reaching its plugins as `TRACEPARENT`; and metrics per operation:
 * counts, errors and durations. Attribute and instrument names are a stable contract,
 * listed in the README ("OpenTelemetry").
 *
 * ```ts
 * import * as otel from "@opentelemetry/api";
 * import { instrument } from "libcni/otel";
 * const instrumentation = instrument(otel); // instrumentation.disable() to stop
 * ```
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import diagnosticsChannel from "node:diagnostics_channel";
import { basename } from "node:path";
import {
  diagnosticsChannelNames,
  type ExecMessage,
  type PodMessage,
  type VerbMessage,
} from "../internal/diagnostics.js";
import { type OTelApiLike, traceContextFromOTel } from "../internal/trace-context.js";

/** An attribute value as OpenTelemetry takes it. */
export type OTelAttributeValue = string | number | boolean;
/** Attributes by name. */
export type OTelAttributes = Record<string, OTelAttributeValue>;

/** The part of an OTel `Span` the instrumentation uses. */
export interface OTelSpanLike {
  setAttributes(attributes: OTelAttributes): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  end(): void;
}

/** The part of an OTel `Tracer` the instrumentation uses. */
export interface OTelTracerLike {
  startSpan(name: string, options?: { attributes?: OTelAttributes }, context?: never): OTelSpanLike;
}

/** The part of an OTel `Meter` the instrumentation uses. */
export interface OTelMeterLike {
  createCounter(
    name: string,
    options?: { description?: string; unit?: string },
  ): { add(value: number, attributes?: OTelAttributes): void };
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string },
  ): { record(value: number, attributes?: OTelAttributes): void };
}

/** The part of the `@opentelemetry/api` module the instrumentation uses (pass the module). */
export interface OTelInstrumentApi extends OTelApiLike {
  trace: OTelApiLike["trace"] & {
    getTracer(name: string, version?: string): OTelTracerLike;
    setSpan(context: never, span: never): unknown;
  };
  metrics?: { getMeter(name: string, version?: string): OTelMeterLike };
}

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /** The tracer's and the meter's name; default `libcni`. */
  name?: string;
  /** Make spans; default true. */
  traces?: boolean;
  /** Record metrics (when the API has `metrics`); default true. */
  metrics?: boolean;
}

/** What {@link instrument} returns. */
export interface Instrumentation {
  /** Stops: no span or measurement after this. */
  disable(): void;
}

// OTel's SpanStatusCode.ERROR.
const statusError = 2;

type Kind = "pod" | "verb" | "plugin";

interface Open {
  span: OTelSpanLike | undefined;
  kind: Kind;
  metric: OTelAttributes;
  start: number;
}

/** The error's stable name: a library error's `id`, else its class name. */
function errorType(error: unknown): string {
  const id = (error as { id?: unknown } | null)?.id;
  if (typeof id === "string") return id;
  return error instanceof Error ? error.name : typeof error;
}

const describePod = (m: PodMessage) => ({
  name: `cni.pod ${m.operation}`,
  attributes: { "cni.operation": m.operation, "cni.pod.id": m.podID } as OTelAttributes,
  metric: { "cni.kind": "pod", "cni.operation": m.operation } as OTelAttributes,
});

const describeVerb = (m: VerbMessage) => ({
  name: `cni ${m.verb} ${m.network}`,
  attributes: {
    "cni.verb": m.verb,
    "cni.method": m.method,
    "cni.network.name": m.network,
    "cni.container.id": m.containerID,
    "cni.ifname": m.ifName,
    "cni.version": m.cniVersion,
  } as OTelAttributes,
  metric: {
    "cni.kind": "verb",
    "cni.operation": m.verb,
    "cni.network.name": m.network,
  } as OTelAttributes,
});

const describeExec = (m: ExecMessage) => {
  const type = basename(m.pluginPath);
  return {
    name: `cni.plugin ${m.command} ${type}`,
    attributes: {
      "cni.command": m.command,
      "cni.plugin.type": type,
      "cni.plugin.path": m.pluginPath,
      "cni.container.id": m.containerID,
      "cni.ifname": m.ifName,
    } as OTelAttributes,
    metric: {
      "cni.kind": "plugin",
      "cni.operation": m.command,
      "cni.plugin.type": type,
    } as OTelAttributes,
  };
};

/**
 * Connects the library's `libcni:pod`, `libcni:verb` and `libcni:exec` channels to `api`.
 * Every call made after it (in this process, by any copy of the library that publishes on
 * these channels) gets its span and its measurements.
 */
export function instrument(
  api: OTelInstrumentApi,
  options: InstrumentOptions = {},
): Instrumentation {
  const name = options.name ?? "libcni";
  const tracer = options.traces === false ? undefined : api.trace.getTracer(name);
  const meter = options.metrics === false ? undefined : api.metrics?.getMeter(name);
  const operations = meter?.createCounter("cni.operations", {
    description: "Pod-level calls, verbs and plugin runs",
    unit: "{operation}",
  });
  const errors = meter?.createCounter("cni.operation.errors", {
    description: "Pod-level calls, verbs and plugin runs that failed",
    unit: "{operation}",
  });
  const durations = meter?.createHistogram("cni.operation.duration", {
    description: "Duration of pod-level calls, verbs and plugin runs",
    unit: "s",
  });
  // The context of the libcni call in progress (its span), for the calls it makes.
  const store = new AsyncLocalStorage<object>();
  const open = new WeakMap<object, Open>();

  function begin(
    message: object,
    kind: Kind,
    described: { name: string; attributes: OTelAttributes; metric: OTelAttributes },
  ): object {
    // An OTel context is an object; anything else (a foreign API) is kept as the parent.
    const parent = (store.getStore() ?? api.context.active()) as object;
    const span = tracer?.startSpan(
      described.name,
      { attributes: described.attributes },
      parent as never,
    );
    open.set(message, { span, kind, metric: described.metric, start: performance.now() });
    return span === undefined
      ? parent
      : (api.trace.setSpan(parent as never, span as never) as object);
  }

  function failed(message: object, error: unknown): void {
    const o = open.get(message);
    if (o === undefined) return;
    const type = errorType(error);
    o.metric = { ...o.metric, "error.type": type };
    o.span?.setAttributes({ "error.type": type });
    o.span?.recordException(error instanceof Error ? error : String(error));
    o.span?.setStatus({
      code: statusError,
      message: error instanceof Error ? error.message : String(error),
    });
  }

  function finish(message: object, extra: OTelAttributes = {}): void {
    const o = open.get(message);
    if (o === undefined) return;
    open.delete(message);
    o.span?.setAttributes(extra);
    o.span?.end();
    operations?.add(1, o.metric);
    if (o.metric["error.type"] !== undefined) errors?.add(1, o.metric);
    durations?.record((performance.now() - o.start) / 1000, o.metric);
  }

  const pod = diagnosticsChannel.tracingChannel<object, PodMessage>(diagnosticsChannelNames.pod);
  const verb = diagnosticsChannel.tracingChannel<object, VerbMessage>(diagnosticsChannelNames.verb);
  const exec = diagnosticsChannel.tracingChannel<object, ExecMessage>(diagnosticsChannelNames.exec);

  // The span is started where the call's context is made (the store's transform runs before
  // the `start` subscribers), and the pod call's and verb's trace context replaced by their
  // span's, so that the plugins run under it.
  const onPod = (m: PodMessage): object => {
    const ctx = begin(m, "pod", describePod(m));
    m.traceContext = traceContextFromOTel(api, ctx) ?? m.traceContext;
    return ctx;
  };
  const onVerb = (m: VerbMessage): object => {
    const ctx = begin(m, "verb", describeVerb(m));
    m.traceContext = traceContextFromOTel(api, ctx) ?? m.traceContext;
    return ctx;
  };
  const onExec = (m: ExecMessage): object => begin(m, "plugin", describeExec(m));
  pod.start.bindStore(store, onPod);
  verb.start.bindStore(store, onVerb);
  exec.start.bindStore(store, onExec);

  // The span ends (and the call is measured) at asyncEnd, which follows `error` on failure.
  const noop = (): void => {};
  const handlers = <M extends { error?: unknown }>(extra?: (m: M) => OTelAttributes) => ({
    start: noop,
    end: noop,
    asyncStart: noop,
    asyncEnd: (m: M) => finish(m, extra?.(m)),
    error: (m: M) => failed(m, m.error),
  });
  const podHandlers = handlers<PodMessage>();
  const verbHandlers = handlers<VerbMessage>();
  const execHandlers = handlers<ExecMessage>((m) => {
    const extra: OTelAttributes = {
      "cni.plugin.aborted": m.aborted,
      "cni.plugin.attempts": m.attempts,
    };
    if (m.exitCode !== undefined) extra["cni.plugin.exit_code"] = m.exitCode;
    if (m.signal !== undefined) extra["cni.plugin.signal"] = m.signal;
    return extra;
  });
  pod.subscribe(podHandlers);
  verb.subscribe(verbHandlers);
  exec.subscribe(execHandlers);

  return {
    disable(): void {
      pod.start.unbindStore(store);
      verb.start.unbindStore(store);
      exec.start.unbindStore(store);
      pod.unsubscribe(podHandlers);
      verb.unsubscribe(verbHandlers);
      exec.unsubscribe(execHandlers);
    },
  };
}
