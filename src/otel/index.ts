/**
 * `libcni/otel`: the library's diagnostics channels connected to a user's OpenTelemetry API
 * (`@opentelemetry/api`, an optional peer: passed in, duck-typed, never imported), in one call:
 * spans nested as the calls are and metrics per operation, named as docs/observability.md says.
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
import { InvalidArgumentError } from "../errors/base.js";
import {
  diagnosticsChannelNames,
  type ExecMessage,
  type PodMessage,
  type PodOperation,
  type VerbMessage,
} from "../internal/diagnostics.js";
import { messageOf } from "../internal/error-message.js";
import { type OTelApiLike, traceContextFromOTel } from "../internal/trace-context.js";
import { Fence } from "./fence.js";

export {
  type OTelApiLike,
  type OTelBaggageLike,
  type OTelSpanContextLike,
  traceContextFromOTel,
} from "../internal/trace-context.js";

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
  metrics?: {
    getMeter(name: string, version?: string): OTelMeterLike;
    /** The global MeterProvider now (API 1.3+), so one set after {@link instrument} counts. */
    getMeterProvider?(): { getMeter(name: string, version?: string): OTelMeterLike };
  };
}

/** The pod layer's span names: the library's own, or containerd/go-cni's (go-cni#132). */
export type SpanNames = "libcni" | "go-cni";

/** Options of {@link instrument}. */
export interface InstrumentOptions {
  /**
   * The names of the pod layer's spans and their attributes (docs/observability.md), default
   * `"libcni"`; `"go-cni"` keeps dashboards written for go-cni. Verb and plugin spans and the
   * metrics are the same either way.
   */
  spanNames?: SpanNames;
  /** The tracer's and the meter's name; default `libcni`. */
  name?: string;
  /** Make spans; default true. */
  traces?: boolean;
  /**
   * Record metrics (when the API has `metrics`); default true. A MeterProvider set (or replaced)
   * after `instrument()` gets the measurements from then on.
   */
  metrics?: boolean;
}

/** What {@link instrument} returns. */
export interface Instrumentation {
  /** Stops: no span or measurement after this. */
  disable(): void;
}

// OTel's SpanStatusCode.ERROR.
const statusError = 2;

type OTelCounterLike = ReturnType<OTelMeterLike["createCounter"]>;
type OTelHistogramLike = ReturnType<OTelMeterLike["createHistogram"]>;
type MeterSource = { getMeter(name: string): OTelMeterLike };

/** The instruments made from one meter provider (`source`); none when making them threw. */
interface Instruments {
  source: object;
  operations?: OTelCounterLike;
  errors?: OTelCounterLike;
  durations?: OTelHistogramLike;
}

interface Described {
  name: string;
  attributes: OTelAttributes;
  metric: OTelAttributes;
}

interface Open {
  span: OTelSpanLike | undefined;
  metric: OTelAttributes;
  start: number;
}

// What failed() says of an error that cannot be described.
const unknownError = { type: "unknown", message: "unknown", exception: "unknown" };

/** The error's stable name: a library error's `id`, else its class name. */
function errorType(error: unknown): string {
  const id = (error as { id?: unknown } | null)?.id;
  if (typeof id === "string") return id;
  return error instanceof Error ? error.name : typeof error;
}

// go-cni's span names (go-cni#132; it has no GC: named as the rest).
const goCNINames: Record<Exclude<PodOperation, "setup">, string> = {
  teardown: "cni.Remove",
  check: "cni.Check",
  status: "cni.Status",
  gc: "cni.GC",
};

function describePod(m: PodMessage, goCNI: boolean): Described {
  const metric: OTelAttributes = { "cni.kind": "pod", "cni.operation": m.operation };
  if (!goCNI) {
    const attributes = { "cni.operation": m.operation, "cni.pod.id": m.podID };
    return { name: `cni.pod ${m.operation}`, attributes, metric };
  }
  const attributes: OTelAttributes = {};
  if (m.podID !== "") attributes["cni.id"] = m.podID;
  if (typeof m.netns === "string") attributes["cni.path"] = m.netns;
  const setup = m.parallel === true ? "cni.Setup" : "cni.SetupSerially";
  return { name: m.operation === "setup" ? setup : goCNINames[m.operation], attributes, metric };
}

/** A verb; in a pod-level call with go-cni's names, with go-cni's per-network attributes too. */
function describeVerb(m: VerbMessage, pod: PodMessage | undefined): Described {
  const attributes: OTelAttributes = {
    "cni.verb": m.verb,
    "cni.method": m.method,
    "cni.network.name": m.network,
    "cni.container.id": m.containerID,
    "cni.ifname": m.ifName,
    "cni.version": m.cniVersion,
  };
  if (pod !== undefined) {
    attributes["cni.name"] = m.network;
    // Left out for a network no longer loaded (torn down from its record).
    const index = pod.networks?.indexOf(m.network) ?? -1;
    if (index >= 0) attributes["cni.index"] = index;
  }
  return {
    name: `cni ${m.verb} ${m.network}`,
    attributes,
    metric: { "cni.kind": "verb", "cni.operation": m.verb, "cni.network.name": m.network },
  };
}

const describeExec = (m: ExecMessage): Described => {
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
    metric: { "cni.kind": "plugin", "cni.operation": m.command, "cni.plugin.type": type },
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
  const spanNames = options.spanNames ?? "libcni";
  if (spanNames !== "libcni" && spanNames !== "go-cni") {
    throw new InvalidArgumentError(
      "spanNames",
      `spanNames must be "libcni" or "go-cni", got ${JSON.stringify(spanNames)}`,
    );
  }
  const goCNI = spanNames === "go-cni";
  const tracer = options.traces === false ? undefined : api.trace.getTracer(name);
  // The context of the libcni call in progress (its span), for the calls it makes.
  const store = new AsyncLocalStorage<object | undefined>();
  // The pod-level call in progress (go-cni names only): its verbs get go-cni's attributes.
  const podStore = new AsyncLocalStorage<PodMessage | undefined>();
  const open = new WeakMap<object, Open>();

  // Every call into the API, fenced (./fence.ts): made once here, nothing per call.
  const fence = new Fence();
  // The API proxies tracers (one taken before the provider is set follows it) but not meters:
  // a meter taken here, before the application sets its MeterProvider, would stay the no-op
  // one. So the instruments are made from the provider a call is measured with, and made again
  // when the global provider changes (one lookup of the global per measured call).
  const metrics = options.metrics === false ? undefined : api.metrics;
  const meterSource = fence.wrap(
    "metrics.getMeterProvider",
    (): object | undefined => metrics?.getMeterProvider?.() ?? metrics,
  );
  const makeInstruments = fence.wrap(
    "meter instruments",
    (source: MeterSource): Omit<Instruments, "source"> => {
      const meter = source.getMeter(name);
      return {
        operations: meter.createCounter("cni.operations", {
          description: "Pod-level calls, verbs and plugin runs",
          unit: "{operation}",
        }),
        errors: meter.createCounter("cni.operation.errors", {
          description: "Pod-level calls, verbs and plugin runs that failed",
          unit: "{operation}",
        }),
        durations: meter.createHistogram("cni.operation.duration", {
          description: "Duration of pod-level calls, verbs and plugin runs",
          unit: "s",
        }),
      };
    },
  );
  let instruments: Instruments | undefined;
  /** The instruments of the meter provider in place now; undefined without metrics. */
  function instrumentsNow(): Instruments | undefined {
    if (metrics === undefined) return undefined;
    const source = meterSource();
    if (source === undefined) return instruments;
    if (instruments?.source !== source) {
      // Made (or found broken) once per provider: a throw is not asked again per call.
      instruments = { source, ...makeInstruments(source as MeterSource) };
    }
    return instruments;
  }
  const active = fence.wrap("context.active", () => api.context.active());
  // OTel's ROOT_CONTEXT, the parent when the active context cannot be had (a foreign API may
  // have none: then a span gets no parent context from us, its tracer picks one).
  const root = (api as { ROOT_CONTEXT?: unknown }).ROOT_CONTEXT;
  const startSpan = fence.wrap("tracer.startSpan", (d: Described, parent: unknown) =>
    tracer?.startSpan(d.name, { attributes: d.attributes }, parent as never),
  );
  const setSpan = fence.wrap(
    "trace.setSpan",
    (parent: unknown, span: OTelSpanLike) =>
      api.trace.setSpan(parent as never, span as never) as object | undefined,
  );
  const traced: OTelApiLike = {
    context: { active },
    trace: {
      getSpanContext: fence.wrap("trace.getSpanContext", (context: never) =>
        api.trace.getSpanContext(context),
      ),
    },
    propagation: {
      getBaggage: fence.wrap("propagation.getBaggage", (context: never) =>
        api.propagation?.getBaggage(context),
      ),
    },
  };
  // What is left of traceContextFromOTel beyond the two calls above: the span context's
  // tracestate and the baggage's entries, the API's objects too.
  const traceContextOf = fence.wrap("trace context", (context: object | undefined) =>
    traceContextFromOTel(traced, context),
  );
  const setAttributes = fence.wrap(
    "span.setAttributes",
    (span: OTelSpanLike, attributes: OTelAttributes) => span.setAttributes(attributes),
  );
  const setStatus = fence.wrap("span.setStatus", (span: OTelSpanLike, message: string) =>
    span.setStatus({ code: statusError, message }),
  );
  const recordException = fence.wrap(
    "span.recordException",
    (span: OTelSpanLike, exception: Error | string) => span.recordException(exception),
  );
  const end = fence.wrap("span.end", (span: OTelSpanLike) => span.end());
  const add = fence.wrap("counter.add", (counter: OTelCounterLike, metric: OTelAttributes) =>
    counter.add(1, metric),
  );
  const record = fence.wrap(
    "histogram.record",
    (histogram: OTelHistogramLike, seconds: number, metric: OTelAttributes) =>
      histogram.record(seconds, metric),
  );
  // A call's error is the caller's value (a custom Exec may reject with anything).
  const describeError = fence.wrap("error description", (error: unknown) => {
    const message = messageOf(error);
    return { type: errorType(error), message, exception: error instanceof Error ? error : message };
  });

  function begin(message: object, described: Described): object | undefined {
    // An OTel context is an object; anything else (a foreign API) is kept as the parent.
    const parent = (store.getStore() ?? active() ?? root) as object | undefined;
    const span = tracer === undefined ? undefined : startSpan(described, parent);
    open.set(message, { span, metric: described.metric, start: performance.now() });
    if (span === undefined || parent === undefined) return parent;
    return setSpan(parent, span) ?? parent;
  }

  function failed(message: object, error: unknown): void {
    const o = open.get(message);
    if (o === undefined) return;
    const { type, message: text, exception } = describeError(error) ?? unknownError;
    o.metric = { ...o.metric, "error.type": type };
    if (o.span === undefined) return;
    setAttributes(o.span, { "error.type": type });
    recordException(o.span, exception);
    setStatus(o.span, text);
  }

  function finish(message: object, extra: OTelAttributes = {}): void {
    const o = open.get(message);
    if (o === undefined) return;
    open.delete(message);
    if (o.span !== undefined) {
      setAttributes(o.span, extra);
      end(o.span);
    }
    const seconds = (performance.now() - o.start) / 1000;
    const m = instrumentsNow();
    if (m === undefined) return;
    if (m.operations !== undefined) add(m.operations, o.metric);
    if (m.errors !== undefined && o.metric["error.type"] !== undefined) add(m.errors, o.metric);
    if (m.durations !== undefined) record(m.durations, seconds, o.metric);
  }

  const channel = <M extends object>(name: string) =>
    diagnosticsChannel.tracingChannel<object | undefined, M>(name);
  const pod = channel<PodMessage>(diagnosticsChannelNames.pod);
  const verb = channel<VerbMessage>(diagnosticsChannelNames.verb);
  const exec = channel<ExecMessage>(diagnosticsChannelNames.exec);

  // The span is started where the call's context is made (the store's transform runs before
  // the `start` subscribers), and the pod call's and verb's trace context replaced by their
  // span's, so that the plugins run under it.
  const beginTraced = (m: PodMessage | VerbMessage, described: Described): object | undefined => {
    const ctx = begin(m, described);
    m.traceContext = traceContextOf(ctx) ?? m.traceContext;
    return ctx;
  };
  pod.start.bindStore(store, (m) => beginTraced(m, describePod(m, goCNI)));
  if (goCNI) pod.start.bindStore(podStore, (m: PodMessage) => m);
  verb.start.bindStore(store, (m) =>
    beginTraced(m, describeVerb(m, goCNI ? podStore.getStore() : undefined)),
  );
  exec.start.bindStore(store, (m) => begin(m, describeExec(m)));

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
  const execHandlers = handlers<ExecMessage>((m) => ({
    "cni.plugin.aborted": m.aborted,
    "cni.plugin.attempts": m.attempts,
    ...(m.exitCode !== undefined && { "cni.plugin.exit_code": m.exitCode }),
    ...(m.signal !== undefined && { "cni.plugin.signal": m.signal }),
  }));
  pod.subscribe(podHandlers);
  verb.subscribe(verbHandlers);
  exec.subscribe(execHandlers);

  return {
    disable(): void {
      pod.start.unbindStore(store);
      if (goCNI) pod.start.unbindStore(podStore);
      verb.start.unbindStore(store);
      exec.start.unbindStore(store);
      pod.unsubscribe(podHandlers);
      verb.unsubscribe(verbHandlers);
      exec.unsubscribe(execHandlers);
    },
  };
}
