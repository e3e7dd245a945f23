/**
 * W3C trace context for plugins, checked as the OTel propagators upstream uses check a carrier,
 * as OTEP 0258's `TRACEPARENT`, `TRACESTATE` and `BAGGAGE` (upstream main
 * pkg/invoke/raw_exec.go, `injectTraceContext`), and read back on the plugin side (skel).
 * Upstream passes nothing unless the span context is valid; a malformed tracestate or baggage
 * is dropped on its own (Go's `trace.ParseTraceState` and `baggage.Parse` reject it whole).
 */

/** W3C trace context for the plugins of a call (OTEP 0258 environment carriers). */
export interface TraceContext {
  /** `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`, as the `traceparent` header. */
  traceparent: string;
  /** The `tracestate` header: vendor `key=value` members, comma-separated. */
  tracestate?: string;
  /** The `baggage` header: `key=value` members, comma-separated. */
  baggage?: string;
}

// otel-go's `Extract`: four parts cut at "-", each of its length in lowercase hex; what follows
// the flags is ignored but for version 00, where only an empty rest (a trailing "-") may follow.
const traceparentRx = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-([\s\S]*))?$/;
const zeroTrace = "0".repeat(32);
const zeroSpan = "0".repeat(16);

/**
 * The canonical traceparent OTel's TraceContext propagator would inject for `value` (version 00,
 * only the sampled flag), or undefined when otel-go's would not extract a valid span context.
 */
export function normalizeTraceparent(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = traceparentRx.exec(value);
  if (m === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = m;
  const flagBits = Number.parseInt(flags, 16);
  if (version === "ff" || (version === "00" && (rest || flagBits > 2))) return undefined;
  if (traceId === zeroTrace || spanId === zeroSpan) return undefined;
  return `00-${traceId}-${spanId}-0${flagBits & 1}`;
}

// tracestate keys: `simple` or `tenant@system`; values: printable ASCII but `,` and `=`.
const simpleKey = /^[a-z][_0-9a-z\-*/]{0,255}$/;
const tenantKey = /^[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13}$/;
const stateValue = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const maxStateMembers = 32;

/**
 * The tracestate as otel-go's `ParseTraceState` reads it (empty members skipped, a key's leading
 * and a value's trailing spaces and tabs trimmed), when every member is valid, else undefined.
 */
export function normalizeTracestate(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  const members: string[] = [];
  const keys = new Set<string>();
  for (const member of value.split(",")) {
    if (member === "") continue;
    const eq = member.indexOf("=");
    if (eq === -1) return undefined;
    const key = member.slice(0, eq).replace(/^[ \t]+/, "");
    const val = member.slice(eq + 1).replace(/[ \t]+$/, "");
    if (!(simpleKey.test(key) || tenantKey.test(key)) || !stateValue.test(val)) return undefined;
    if (keys.has(key)) return undefined;
    keys.add(key);
    members.push(`${key}=${val}`);
  }
  if (members.length === 0 || members.length > maxStateMembers) return undefined;
  return members.join(",");
}

// baggage: key is an RFC 7230 token; value is baggage-octets or percent-encoded.
const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const baggageValue = /^(?:[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]|%[0-9A-Fa-f]{2})*$/;
// otel-go's limits: members after duplicates are resolved, bytes of one member, of the whole.
const maxBaggageMembers = 180;
const maxMemberBytes = 4096;
const maxBaggageBytes = 8192;
// Go's strings.TrimSpace: Unicode White_Space (U+0085 included, U+FEFF not, as JavaScript's).
const goSpace =
  "[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const goTrimRx = new RegExp(`^${goSpace}+|${goSpace}+$`, "g");
const goTrim = (s: string): string => s.replace(goTrimRx, "");

/** A baggage property as otel-go writes it back (`key` or `key=value`, trimmed); "" for none. */
function propertyText(raw: string): string | undefined {
  if (raw === "") return "";
  const eq = raw.indexOf("=");
  const key = goTrim(eq === -1 ? raw : raw.slice(0, eq));
  if (!token.test(key)) return undefined;
  if (eq === -1) return key;
  const val = goTrim(raw.slice(eq + 1));
  return baggageValue.test(val) ? `${key}=${val}` : undefined;
}

/**
 * The baggage as otel-go's `baggage.Parse` reads it (trimmed; of duplicate keys the last, in its
 * place), when every member is valid and within its limits, else undefined.
 */
export function normalizeBaggage(value: unknown): string | undefined {
  if (typeof value !== "string" || value === "") return undefined;
  if (Buffer.byteLength(value) > maxBaggageBytes) return undefined;
  const members = new Map<string, string>();
  for (const raw of value.split(",")) {
    if (Buffer.byteLength(raw) > maxMemberBytes) return undefined;
    const [pair, ...props] = raw.split(";");
    const eq = pair.indexOf("=");
    if (eq === -1) return undefined;
    const key = goTrim(pair.slice(0, eq));
    const val = goTrim(pair.slice(eq + 1));
    const texts = props.map(propertyText);
    if (!token.test(key) || !baggageValue.test(val) || texts.includes(undefined)) return undefined;
    members.delete(key);
    members.set(key, [`${key}=${val}`, ...texts].join(";"));
  }
  if (members.size > maxBaggageMembers) return undefined;
  return [...members.values()].join(",");
}

/** The trace context the plugins get; undefined (nothing passed) without a valid traceparent. */
export function normalizeTraceContext(tc: TraceContext | undefined): TraceContext | undefined {
  if (tc === undefined || tc === null || typeof tc !== "object") return undefined;
  const traceparent = normalizeTraceparent(tc.traceparent);
  if (traceparent === undefined) return undefined;
  const out: TraceContext = { traceparent };
  const tracestate = normalizeTracestate(tc.tracestate);
  if (tracestate !== undefined) out.tracestate = tracestate;
  const baggage = normalizeBaggage(tc.baggage);
  if (baggage !== undefined) out.baggage = baggage;
  return out;
}

/**
 * `env` (undefined: this process's, copied) with the variables of `tc` (normalised) over any it
 * had, as upstream appends them to the plugin's environ.
 */
export function withTraceEnv(
  env: Record<string, string> | undefined,
  tc: TraceContext | undefined,
): Record<string, string> | undefined {
  if (tc === undefined) return env;
  const out: Record<string, string> = env ?? { ...(process.env as Record<string, string>) };
  out.TRACEPARENT = tc.traceparent;
  if (tc.tracestate !== undefined) out.TRACESTATE = tc.tracestate;
  if (tc.baggage !== undefined) out.BAGGAGE = tc.baggage;
  return out;
}

/** The plugin side: the trace context the runtime passed in the environment, validated. */
export function traceContextFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): TraceContext | undefined {
  const traceparent = env.TRACEPARENT;
  if (traceparent === undefined || traceparent === "") return undefined;
  return normalizeTraceContext({ traceparent, tracestate: env.TRACESTATE, baggage: env.BAGGAGE });
}

/** The part of an OTel `SpanContext` the helper reads. */
export interface OTelSpanContextLike {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: { serialize(): string };
}

/** The part of an OTel `Baggage` the helper reads. */
export interface OTelBaggageLike {
  getAllEntries(): [string, { value: string; metadata?: { toString(): string } }][];
}

/**
 * The part of the `@opentelemetry/api` module the helper uses (pass the module itself):
 * duck-typed, so that this library does not depend on it.
 */
export interface OTelApiLike {
  context: { active(): unknown };
  trace: { getSpanContext(context: never): OTelSpanContextLike | undefined };
  propagation?: { getBaggage(context: never): OTelBaggageLike | undefined };
}

/**
 * The trace context of an OTel context (default: the active one) for a call's `traceContext`,
 * built as upstream builds it from a Go context; undefined (nothing passed) without a valid
 * span context.
 *
 * ```ts
 * import * as otel from "@opentelemetry/api";
 * await cni.addNetworkList(list, rt, { traceContext: traceContextFromOTel(otel) });
 * ```
 */
export function traceContextFromOTel(
  api: OTelApiLike,
  context: unknown = api.context.active(),
): TraceContext | undefined {
  const sc = api.trace.getSpanContext(context as never);
  if (sc === undefined) return undefined;
  const flags = (sc.traceFlags & 1).toString(16).padStart(2, "0");
  return normalizeTraceContext({
    traceparent: `00-${sc.traceId}-${sc.spanId}-${flags}`,
    tracestate: sc.traceState?.serialize(),
    baggage: baggageText(api.propagation?.getBaggage(context as never)),
  });
}

// OTel's W3CBaggagePropagator serialisation: key and value URI-encoded, metadata as is.
function baggageText(baggage: OTelBaggageLike | undefined): string | undefined {
  if (baggage === undefined) return undefined;
  const members = baggage.getAllEntries().map(([key, entry]) => {
    const pair = `${encodeURIComponent(key)}=${encodeURIComponent(entry.value)}`;
    return entry.metadata === undefined ? pair : `${pair};${entry.metadata.toString()}`;
  });
  return members.length === 0 ? undefined : members.join(",");
}
