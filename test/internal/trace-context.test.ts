/**
 * Validation of the W3C trace context passed to plugins, as OTel's propagators (upstream's
 * Go ones) would extract it, and the helper that fills it from `@opentelemetry/api`.
 */
import * as otel from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import {
  normalizeBaggage,
  normalizeTraceContext,
  normalizeTraceparent,
  normalizeTracestate,
  traceContextFromEnv,
  traceContextFromOTel,
  withTraceEnv,
} from "../../src/internal/trace-context.js";

const traceId = "0af7651916cd43dd8448eb211c80319c";
const spanId = "b7ad6b7169203331";
const valid = `00-${traceId}-${spanId}-01`;

describe("normalizeTraceparent", () => {
  it("keeps a valid one, as otel-go's Extract: no blanks around it, a trailing '-' allowed", () => {
    expect(normalizeTraceparent(valid)).toBe(valid);
    expect(normalizeTraceparent(`00-${traceId}-${spanId}-00`)).toBe(`00-${traceId}-${spanId}-00`);
    expect(normalizeTraceparent(`${valid}-`)).toBe(valid);
    expect(normalizeTraceparent(` ${valid}`)).toBeUndefined();
    expect(normalizeTraceparent(`${valid}\n`)).toBeUndefined();
  });

  it("keeps only the sampled flag and writes version 00, as Go's inject", () => {
    expect(normalizeTraceparent(`00-${traceId}-${spanId}-02`)).toBe(`00-${traceId}-${spanId}-00`);
    // otel-go's Extract: version 00 takes no flag above 2; a later version any flags, and
    // whatever follows them, not passed on.
    expect(normalizeTraceparent(`00-${traceId}-${spanId}-03`)).toBeUndefined();
    expect(normalizeTraceparent(`01-${traceId}-${spanId}-fe`)).toBe(`00-${traceId}-${spanId}-00`);
    expect(normalizeTraceparent(`01-${traceId}-${spanId}-01-extra, with space`)).toBe(valid);
  });

  it.each([
    ["version ff", `ff-${traceId}-${spanId}-01`],
    ["extra fields on version 00", `${valid}-extra`],
    ["an all-zero trace id", `00-${"0".repeat(32)}-${spanId}-01`],
    ["an all-zero span id", `00-${traceId}-${"0".repeat(16)}-01`],
    ["upper-case hex", `00-${traceId.toUpperCase()}-${spanId}-01`],
    ["a short trace id", `00-${traceId.slice(1)}-${spanId}-01`],
    ["no flags", `00-${traceId}-${spanId}`],
    ["garbage", "hello"],
    ["empty", ""],
    ["not a string", 42],
  ])("drops %s", (_what, value) => {
    expect(normalizeTraceparent(value)).toBeUndefined();
  });
});

describe("normalizeTracestate", () => {
  it("keeps valid members, a key's leading and a value's trailing blanks trimmed, empty members skipped", () => {
    expect(normalizeTracestate("congo=t61rcWkgMzE, rojo=00f067aa0ba902b7\t")).toBe(
      "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7",
    );
    expect(normalizeTracestate("tenant@vendor=x,,a=b")).toBe("tenant@vendor=x,a=b");
  });

  it.each([
    ["an upper-case key", "Congo=x"],
    ["a value with =", "a=b=c"],
    ["a member without =", "a"],
    ["a duplicate key", "a=1,a=2"],
    ["33 members", Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(",")],
    ["blank", "  "],
    ["a blank member", "a=1, ,b=2"],
    ["a newline (Go trims spaces and tabs only)", "a=1\n"],
  ])("drops the whole tracestate for %s (Go's ParseTraceState)", (_what, value) => {
    expect(normalizeTracestate(value)).toBeUndefined();
  });
});

describe("normalizeBaggage", () => {
  it("keeps valid members with their properties", () => {
    expect(normalizeBaggage("userId=alice, serverNode=DF%2028;prop ; k=v")).toBe(
      "userId=alice,serverNode=DF%2028;prop;k=v",
    );
  });

  it.each([
    ["a member without =", "userId"],
    ["a space inside a value", "a=b c"],
    ["a key with a space", "a b=c"],
    ["181 members", Array.from({ length: 181 }, (_, i) => `k${i}=v`).join(",")],
    ["a member over 4096 bytes", `a=${"x".repeat(5000)}`],
    ["more than 8192 bytes", `a=${"x".repeat(8192)}`],
  ])("drops the whole baggage for %s (Go's baggage.Parse)", (_what, value) => {
    expect(normalizeBaggage(value)).toBeUndefined();
  });
});

describe("normalizeBaggage as otel-go's baggage.Parse", () => {
  it("resolves duplicate keys to the last, allows 180 members and an empty property, trims as Go", () => {
    expect(normalizeBaggage("a=1,b=2,a=3")).toBe("b=2,a=3");
    const members = Array.from({ length: 180 }, (_, i) => `k${i}=v`).join(",");
    expect(normalizeBaggage(members)).toBe(members);
    expect(normalizeBaggage("a=1;")).toBe("a=1;");
    expect(normalizeBaggage("a=1; p = v ")).toBe("a=1;p=v");
    // Go's TrimSpace takes U+0085 and leaves U+FEFF, unlike JavaScript's trim.
    expect(normalizeBaggage("a=1\u0085")).toBe("a=1");
    expect(normalizeBaggage("a=1\ufeff")).toBeUndefined();
  });
});

describe("normalizeTraceContext", () => {
  it("drops everything with the traceparent, as upstream passes nothing without a valid span", () => {
    expect(
      normalizeTraceContext({ traceparent: "bad", tracestate: "a=b", baggage: "k=v" }),
    ).toBeUndefined();
  });

  it("drops a bad tracestate or baggage on its own", () => {
    expect(
      normalizeTraceContext({ traceparent: valid, tracestate: "A=b", baggage: "k=v" }),
    ).toEqual({ traceparent: valid, baggage: "k=v" });
  });
});

describe("withTraceEnv and traceContextFromEnv", () => {
  it("sets the three variables over the environment's own", () => {
    const env = withTraceEnv(
      { CNI_COMMAND: "ADD", TRACEPARENT: "old", TRACESTATE: "old" },
      { traceparent: valid, tracestate: "a=b" },
    );
    expect(env).toEqual({ CNI_COMMAND: "ADD", TRACEPARENT: valid, TRACESTATE: "a=b" });
    expect(withTraceEnv({ A: "1" }, undefined)).toEqual({ A: "1" });
  });

  it("copies this process's environment when the exec inherits it", () => {
    const env = withTraceEnv(undefined, { traceparent: valid });
    expect(env?.PATH).toBe(process.env.PATH);
    expect(env?.TRACEPARENT).toBe(valid);
    expect(process.env.TRACEPARENT).not.toBe(valid);
  });

  it("reads them back on the plugin side, validated", () => {
    expect(traceContextFromEnv({ TRACEPARENT: valid, BAGGAGE: "k=v" })).toEqual({
      traceparent: valid,
      baggage: "k=v",
    });
    expect(traceContextFromEnv({ TRACEPARENT: "bad", BAGGAGE: "k=v" })).toBeUndefined();
    expect(traceContextFromEnv({})).toBeUndefined();
  });
});

describe("traceContextFromOTel with @opentelemetry/api", () => {
  const spanContext = (traceFlags: number): otel.SpanContext => ({
    traceId,
    spanId,
    traceFlags,
    isRemote: false,
    traceState: otel.createTraceState("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"),
  });

  it("encodes the context's span and baggage as upstream's propagators do", () => {
    let ctx = otel.trace.setSpanContext(otel.ROOT_CONTEXT, spanContext(otel.TraceFlags.SAMPLED));
    ctx = otel.propagation.setBaggage(
      ctx,
      otel.propagation.createBaggage({
        userId: { value: "alice" },
        "server node": { value: "DF 28", metadata: otel.baggageEntryMetadataFromString("prop") },
      }),
    );
    expect(traceContextFromOTel(otel, ctx)).toEqual({
      traceparent: valid,
      tracestate: "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE",
      baggage: "userId=alice,server%20node=DF%2028;prop",
    });
  });

  it("passes an unsampled span as flags 00, without tracestate or baggage when there are none", () => {
    const ctx = otel.trace.setSpanContext(otel.ROOT_CONTEXT, {
      ...spanContext(otel.TraceFlags.NONE),
      traceState: undefined,
    });
    expect(traceContextFromOTel(otel, ctx)).toEqual({
      traceparent: `00-${traceId}-${spanId}-00`,
    });
  });

  it("gives nothing without a valid span context: the active one of a bare API, an invalid span", () => {
    expect(traceContextFromOTel(otel)).toBeUndefined();
    const invalid = otel.trace.setSpanContext(otel.ROOT_CONTEXT, otel.INVALID_SPAN_CONTEXT);
    expect(traceContextFromOTel(otel, invalid)).toBeUndefined();
  });
});
