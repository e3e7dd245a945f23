/**
 * A MeterProvider set after instrument() still gets the metrics: @opentelemetry/api proxies
 * tracers but not meters, so libcni/otel makes its instruments from the global provider in
 * place when a call is measured, and again when the application replaces it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as otel from "@opentelemetry/api";
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CNIConfig, networkConfFromBytes } from "../../src/index.js";
import { type Instrumentation, instrument, type OTelInstrumentApi } from "../../src/otel/index.js";

let cacheDir = "";
let instrumentation: Instrumentation | undefined;

beforeAll(async () => {
  cacheDir = await mkdtemp(join(tmpdir(), "libcni-otel-late-"));
});
afterAll(() => rm(cacheDir, { recursive: true, force: true }));
afterEach(() => {
  instrumentation?.disable();
  instrumentation = undefined;
  otel.metrics.disable();
});

/** A CHECK through an in-process Exec (no plugin on disk): one verb measured per call. */
async function check(): Promise<void> {
  const exec = {
    findInPath: async () => "/fake/p",
    execPlugin: async () => new Uint8Array(),
    decode: () => ({}),
  };
  const cni = new CNIConfig({ path: ["/fake"], exec: exec as never, cacheDir });
  const list = networkConfFromBytes(
    new TextEncoder().encode('{"cniVersion":"1.0.0","name":"late","plugins":[{"type":"p"}]}'),
  );
  await cni.checkNetworkList(list, { containerID: "c1", netNS: "/x", ifName: "eth0" });
}

function provider(): { provider: MeterProvider; reader: PeriodicExportingMetricReader } {
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  return { provider: new MeterProvider({ readers: [reader] }), reader };
}

/** The count of CHECK verbs a reader has seen. */
async function checks(reader: PeriodicExportingMetricReader): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const ops = resourceMetrics.scopeMetrics
    .flatMap((s) => s.metrics)
    .find((m) => m.descriptor.name === "cni.operations");
  const point = ops?.dataPoints.find(
    (p) => p.attributes["cni.kind"] === "verb" && p.attributes["cni.operation"] === "CHECK",
  );
  return (point?.value as number | undefined) ?? 0;
}

describe("libcni/otel and a MeterProvider set later", () => {
  it("a provider set after instrument() gets the calls made from then on", async () => {
    instrumentation = instrument(otel);
    await check(); // no provider yet: measured by the API's no-op meter
    const late = provider();
    otel.metrics.setGlobalMeterProvider(late.provider);
    await check();
    await check();
    expect(await checks(late.reader)).toBe(2);
  });

  it("a provider replaced later gets the calls from then on, the first keeps its own", async () => {
    const first = provider();
    otel.metrics.setGlobalMeterProvider(first.provider);
    instrumentation = instrument(otel);
    await check();
    otel.metrics.disable();
    const second = provider();
    otel.metrics.setGlobalMeterProvider(second.provider);
    await check();
    expect(await checks(first.reader)).toBe(1);
    expect(await checks(second.reader)).toBe(1);
  });

  it("metrics: false records nothing, whenever the provider is set", async () => {
    instrumentation = instrument(otel, { metrics: false });
    const late = provider();
    otel.metrics.setGlobalMeterProvider(late.provider);
    await check();
    expect(await checks(late.reader)).toBe(0);
  });

  it("an API without getMeterProvider: its meter is taken once, at the first measurement", async () => {
    const late = provider();
    let meters = 0;
    const api = {
      ...otel,
      metrics: {
        getMeter: (name: string) => {
          meters++;
          return late.provider.getMeter(name);
        },
      },
    } as unknown as OTelInstrumentApi;
    instrumentation = instrument(api);
    expect(meters).toBe(0);
    await check();
    await check();
    expect(meters).toBe(1);
    expect(await checks(late.reader)).toBe(2);
  });
});
