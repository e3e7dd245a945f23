/**
 * libcni/otel with the OpenTelemetry SDK's in-memory exporters: spans for a pod call, its
 * verbs and its plugin runs, nested under the caller's active span, with the documented
 * attribute names; the verb's span reaching its plugin as TRACEPARENT; failures as error
 * spans; metrics per operation (counts, errors, durations); nothing after disable().
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as otel from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Instrumentation, instrument } from "../../src/otel/index.js";
import { type CNIRuntime, loadNetworks } from "../../src/runtime/index.js";

const spans = new InMemorySpanExporter();
const reader = new PeriodicExportingMetricReader({
  exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
  exportIntervalMillis: 3_600_000,
});
const contextManager = new AsyncLocalStorageContextManager();

let dir = "";
let rt: CNIRuntime;
let instrumentation: Instrumentation;

const plugin = (traceFile: string) => `#!/bin/sh
cat >/dev/null
echo "$CNI_COMMAND $TRACEPARENT" >> '${traceFile}'
[ -n "$FAIL_ON" ] && [ "$CNI_CONTAINERID" = "$FAIL_ON" ] && [ "$CNI_COMMAND" = ADD ] && { echo '{"code":11,"msg":"no luck"}'; exit 1; }
[ "$CNI_COMMAND" = ADD ] && echo '{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24"}]}'
exit 0
`;

beforeAll(async () => {
  otel.context.setGlobalContextManager(contextManager.enable());
  otel.trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  );
  otel.metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  instrumentation = instrument(otel);
  dir = await mkdtemp(join(tmpdir(), "libcni-otel-"));
  await mkdir(join(dir, "bin"));
  await mkdir(join(dir, "net.d"));
  await writeFile(join(dir, "bin", "fake"), plugin(join(dir, "traces")));
  await chmod(join(dir, "bin", "fake"), 0o755);
  await writeFile(
    join(dir, "net.d", "10-net.conflist"),
    '{"cniVersion":"1.0.0","name":"net","plugins":[{"type":"fake"}]}',
  );
  rt = await loadNetworks({
    confDir: join(dir, "net.d"),
    binDirs: [join(dir, "bin")],
    cacheDir: join(dir, "cache"),
    // The fake plugin never enters the pods' namespaces, which this suite does not make.
    checkNetns: false,
  });
});
afterAll(async () => {
  instrumentation.disable();
  otel.trace.disable();
  otel.metrics.disable();
  otel.context.disable();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => spans.reset());

const byName = (name: string): ReadableSpan => {
  const found = spans.getFinishedSpans().find((s) => s.name === name);
  if (found === undefined)
    throw new Error(`no span ${name}: ${spans.getFinishedSpans().map((s) => s.name)}`);
  return found;
};
const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;

describe("libcni/otel", () => {
  it("nests pod, verb and plugin spans under the caller's span, and the plugin runs under the verb's", async () => {
    const tracer = otel.trace.getTracer("my-runtime");
    await tracer.startActiveSpan("sandbox", async (root) => {
      await rt.setupPod({ id: "p1", netns: "/var/run/netns/p1" });
      root.end();
    });
    const root = byName("sandbox");
    const pod = byName("cni.pod setup");
    const verb = byName("cni ADD net");
    const exec = byName("cni.plugin ADD fake");
    expect(parentOf(pod)).toBe(root.spanContext().spanId);
    expect(parentOf(verb)).toBe(pod.spanContext().spanId);
    expect(parentOf(exec)).toBe(verb.spanContext().spanId);
    for (const s of [pod, verb, exec])
      expect(s.spanContext().traceId).toBe(root.spanContext().traceId);
    expect(pod.attributes).toEqual({ "cni.operation": "setup", "cni.pod.id": "p1" });
    expect(verb.attributes).toEqual({
      "cni.verb": "ADD",
      "cni.method": "addNetworkList",
      "cni.network.name": "net",
      "cni.container.id": "p1",
      "cni.ifname": "eth0",
      "cni.version": "1.0.0",
    });
    expect(exec.attributes).toMatchObject({
      "cni.command": "ADD",
      "cni.plugin.type": "fake",
      "cni.plugin.path": join(dir, "bin", "fake"),
      "cni.container.id": "p1",
      "cni.ifname": "eth0",
      "cni.plugin.exit_code": 0,
      "cni.plugin.aborted": false,
      "cni.plugin.attempts": 1,
    });
    // The plugin got the verb's span as its parent.
    const lines = (await readFile(join(dir, "traces"), "utf8")).trim().split("\n");
    const { traceId, spanId } = verb.spanContext();
    expect(lines.at(-1)).toBe(`ADD 00-${traceId}-${spanId}-01`);
    await rt.teardownPod("p1");
  });

  it("a failure is an error span with its error.type, and counted", async () => {
    process.env.FAIL_ON = "p2";
    try {
      await expect(rt.setupPod({ id: "p2", netns: "/var/run/netns/p2" })).rejects.toThrow();
    } finally {
      delete process.env.FAIL_ON;
    }
    const verb = byName("cni ADD net");
    expect(verb.status.code).toBe(otel.SpanStatusCode.ERROR);
    expect(verb.attributes["error.type"]).toBe("LIBCNI_ERR_PLUGIN_CHAIN");
    expect(byName("cni.plugin ADD fake").attributes["error.type"]).toBe("LIBCNI_ERR_PLUGIN_EXEC");
    expect(byName("cni.pod setup").attributes["error.type"]).toBe("LIBCNI_ERR_POD_SETUP");

    const { resourceMetrics } = await reader.collect();
    const metrics = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
    const named = (n: string) => metrics.find((m) => m.descriptor.name === n);
    const errors = named("cni.operation.errors")?.dataPoints ?? [];
    expect(
      errors.map((p) => [
        p.attributes["cni.kind"],
        p.attributes["cni.operation"],
        p.attributes["error.type"],
        p.value,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["pod", "setup", "LIBCNI_ERR_POD_SETUP", 1],
        ["verb", "ADD", "LIBCNI_ERR_PLUGIN_CHAIN", 1],
        ["plugin", "ADD", "LIBCNI_ERR_PLUGIN_EXEC", 1],
      ]),
    );
    const ops = named("cni.operations")?.dataPoints ?? [];
    const addOk = ops.find(
      (p) =>
        p.attributes["cni.kind"] === "verb" &&
        p.attributes["cni.operation"] === "ADD" &&
        p.attributes["error.type"] === undefined,
    );
    expect(addOk?.value).toBe(1);
    expect(named("cni.operation.duration")?.descriptor.unit).toBe("s");
  });

  it("makes nothing after disable()", async () => {
    const off = instrument(otel, { name: "second" });
    off.disable();
    instrumentation.disable();
    await rt.setupPod({ id: "p3", netns: "/var/run/netns/p3" });
    await rt.teardownPod("p3");
    expect(spans.getFinishedSpans()).toEqual([]);
    instrumentation = instrument(otel);
  });
});
