/**
 * Issue 30: telemetry is fenced. libcni/otel runs in diagnostics_channel subscribers, where
 * Node makes a throw an uncaught exception (the process exits, perhaps between a plugin's ADD
 * and its cache record). With each OpenTelemetry hook in turn replaced by one that throws
 * (the SDK's real tracer, meter and context manager otherwise), ADD / CHECK / DEL and the pod
 * layer's setup / check / teardown, with failures among them, give the same results, errors,
 * cache files and plugin invocations as without telemetry; nothing escapes as an
 * uncaughtException or unhandledRejection; the NODE_DEBUG=libcni line appears once per hook,
 * however many calls hit it.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
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
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { CNIConfig, loadConfList, networkConfFromBytes } from "../../src/index.js";
import { instrument, type OTelInstrumentApi } from "../../src/otel/index.js";
import { loadNetworks } from "../../src/runtime/index.js";

// NODE_DEBUG is read when a process starts; here the "libcni" section of util.debuglog is
// switched on and captured (in the library's modules only, which vitest transforms).
const debugLines = vi.hoisted((): string[] => []);
vi.mock("node:util", async (importOriginal) => {
  const util = await importOriginal<typeof import("node:util")>();
  const libcni = Object.assign(
    (format: string, ...args: unknown[]) => {
      debugLines.push(util.format(format, ...args));
    },
    { enabled: true },
  );
  const debuglog = ((section: string, cb?: (fn: unknown) => void) =>
    section === "libcni" ? libcni : util.debuglog(section, cb as never)) as typeof util.debuglog;
  return { ...util, default: { ...util, debuglog }, debuglog };
});

const recorder = join(import.meta.dirname, "../fixtures/plugins/recorder");
const hooks = [
  "tracer.startSpan",
  "span.setAttributes",
  "span.end",
  "span.setStatus",
  "span.recordException",
  "counter.add",
  "histogram.record",
  "context.active",
  "trace.setSpan",
  "trace.getSpanContext",
  "propagation.getBaggage",
] as const;
// The meter and its instruments, made from the meter provider at the first measurement (and
// again when the provider changes), not per call.
const meterHooks = ["metrics.getMeterProvider", "meter instruments"] as const;
type Hook = (typeof hooks)[number] | (typeof meterHooks)[number];

const spans = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(spans)],
}).getTracer("libcni");
const meter = new MeterProvider({
  readers: [
    new PeriodicExportingMetricReader({
      exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
      exportIntervalMillis: 3_600_000,
    }),
  ],
}).getMeter("libcni");
const contextManager = new AsyncLocalStorageContextManager();

/** The OpenTelemetry API over the SDK, with `broken` (if any) throwing; `calls` counts its throws. */
function apiWith(broken: Hook | undefined, calls: { n: number }): OTelInstrumentApi {
  const thrower = (): never => {
    calls.n++;
    throw new Error(`broken ${broken}`);
  };
  const hook = <F>(name: Hook, real: F): F => (name === broken ? (thrower as F) : real);
  const spanMethods = ["setAttributes", "end", "setStatus", "recordException"] as const;
  const getMeter = hook("meter instruments", () => ({
    createCounter: (name: string, options?: object) =>
      broken === "counter.add" ? { add: thrower } : meter.createCounter(name, options),
    createHistogram: (name: string, options?: object) =>
      broken === "histogram.record" ? { record: thrower } : meter.createHistogram(name, options),
  }));
  const provider = { getMeter };
  return {
    ROOT_CONTEXT: otel.ROOT_CONTEXT,
    context: { active: hook("context.active", () => otel.context.active()) },
    trace: {
      getTracer: () => ({
        startSpan: hook("tracer.startSpan", (name: string, options: object, ctx: never) => {
          const span = tracer.startSpan(name, options, ctx);
          for (const m of spanMethods) {
            if (broken === `span.${m}`) Object.assign(span, { [m]: thrower });
          }
          return span;
        }),
      }),
      setSpan: hook("trace.setSpan", otel.trace.setSpan),
      getSpanContext: hook("trace.getSpanContext", otel.trace.getSpanContext),
    },
    propagation: { getBaggage: hook("propagation.getBaggage", otel.propagation.getBaggage) },
    metrics: { getMeter, getMeterProvider: hook("metrics.getMeterProvider", () => provider) },
  } as OTelInstrumentApi;
}

// What escapes to the process: must stay empty.
const escaped: unknown[] = [];
const onEscape = (error: unknown): void => {
  escaped.push(error);
};

beforeAll(() => {
  otel.context.setGlobalContextManager(contextManager.enable());
  process.on("uncaughtException", onEscape);
  process.on("unhandledRejection", onEscape);
});
afterAll(() => {
  process.off("uncaughtException", onEscape);
  process.off("unhandledRejection", onEscape);
  otel.context.disable();
});
beforeEach(() => {
  spans.reset();
  debugLines.length = 0;
  escaped.length = 0;
});

const settled = <T>(p: Promise<T>): Promise<unknown> =>
  p.then(
    (value) => ({ value: JSON.parse(JSON.stringify(value ?? null)) }),
    (error: Error & { id?: string }) => ({
      error: { name: error.name, id: error.id, message: error.message },
    }),
  );

/** Every file under `dir`, by relative path, with its text. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = join(e.parentPath, e.name);
    out[relative(dir, path)] = await readFile(path, "utf8");
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * The whole story, from a fresh directory: ADD, CHECK and DEL of a network, an ADD that
 * fails, a pod set up, checked and torn down, a pod setup that fails; each call's value or
 * error, the cache after each step and every plugin invocation (stdin and CNI_* environment).
 */
async function scenario(): Promise<unknown> {
  const root = await mkdtemp(join(tmpdir(), "libcni-otel-fenced-"));
  try {
    const bin = join(root, "bin");
    const rec = join(root, "rec");
    const cacheDir = join(root, "cache");
    await mkdir(bin);
    await mkdir(join(rec, "script"), { recursive: true });
    await symlink(recorder, join(bin, "fake"));
    await symlink(recorder, join(bin, "broken"));
    const script = (name: string, file: string, text: string) =>
      writeFile(join(rec, "script", `${name}.${file}`), text);
    await script("fake", "ADD.out", '{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24"}]}');
    await script("broken", "ADD.out", '{"code":11,"msg":"no luck"}');
    await script("broken", "ADD.code", "1");
    for (const [dir, name, type] of [
      ["net.d", "net", "fake"],
      ["bad.d", "bad", "broken"],
    ]) {
      await mkdir(join(root, dir));
      await writeFile(
        join(root, dir, `10-${name}.conflist`),
        JSON.stringify({ cniVersion: "1.0.0", name, plugins: [{ type }] }),
      );
    }
    process.env.RECORDER_DIR = rec;

    const steps: Record<string, unknown> = {};
    const step = async (name: string, call: Promise<unknown>) => {
      steps[name] = { outcome: await settled(call), cache: await tree(cacheDir) };
    };
    const cni = new CNIConfig({ path: [bin], cacheDir });
    const net = await loadConfList(join(root, "net.d"), "net");
    const bad = await loadConfList(join(root, "bad.d"), "bad");
    const rt = (containerID: string) => ({
      containerID,
      netNS: "/var/run/netns/x",
      ifName: "eth0",
    });
    await step("ADD", cni.addNetworkList(net, rt("c1")));
    await step("CHECK", cni.checkNetworkList(net, rt("c1")));
    await step("DEL", cni.delNetworkList(net, rt("c1")));
    await step("ADD fails", cni.addNetworkList(bad, rt("c2")));

    // The recording plugin never enters the pods' namespaces, which this suite does not make.
    const pods = await loadNetworks({
      confDir: join(root, "net.d"),
      binDirs: [bin],
      cacheDir,
      checkNetns: false,
    });
    await step("setupPod", pods.setupPod({ id: "p1", netns: "/var/run/netns/p1" }));
    await step("checkPod", pods.checkPod("p1"));
    await step("teardownPod", pods.teardownPod("p1"));
    const badPods = await loadNetworks({
      confDir: join(root, "bad.d"),
      binDirs: [bin],
      cacheDir,
      checkNetns: false,
    });
    await step("setupPod fails", badPods.setupPod({ id: "p2", netns: "/var/run/netns/p2" }));

    const invocations = await tree(join(rec, "log"));
    // Whatever a Node timer or tick still holds (a rethrown subscriber error) comes out now.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return JSON.parse(JSON.stringify({ steps, invocations }).replaceAll(root, "<root>"));
  } finally {
    delete process.env.RECORDER_DIR;
    await rm(root, { recursive: true, force: true });
  }
}

const otelLines = () => debugLines.filter((l) => l.startsWith("otel: "));

describe("libcni/otel is fenced", () => {
  let plain: unknown;
  let healthySpans = 0;

  beforeAll(async () => {
    plain = await scenario();
  });

  it("the scenario does what it says (results, a failure, cache records, plugin runs)", () => {
    const { steps, invocations } = plain as {
      steps: Record<string, { outcome: Record<string, unknown>; cache: Record<string, string> }>;
      invocations: Record<string, string>;
    };
    expect(steps.ADD.outcome.value).toMatchObject({ ips: [{ address: "10.0.0.2/24" }] });
    expect(Object.keys(steps.ADD.cache)).toContain("results/net-c1-eth0");
    expect(steps.DEL.cache["results/net-c1-eth0"]).toBeUndefined();
    expect(steps["ADD fails"].outcome.error).toMatchObject({
      message: expect.stringMatching(/no luck/),
    });
    expect(Object.keys(steps.setupPod.cache).length).toBeGreaterThan(0);
    expect(steps["setupPod fails"].outcome.error).toBeDefined();
    expect(Object.keys(invocations).filter((f) => f.endsWith(".stdin")).length).toBeGreaterThan(8);
  });

  it("healthy telemetry changes nothing and says nothing", async () => {
    const calls = { n: 0 };
    const instrumentation = instrument(apiWith(undefined, calls));
    try {
      expect(await scenario()).toEqual(plain);
    } finally {
      instrumentation.disable();
    }
    healthySpans = spans.getFinishedSpans().length;
    expect(healthySpans).toBeGreaterThan(10);
    expect(otelLines()).toEqual([]);
    expect(escaped).toEqual([]);
  });

  it.each([
    ...hooks,
    ...meterHooks,
  ])("%s throwing: same results, cache and plugin runs; nothing escapes; said once", async (hook) => {
    const calls = { n: 0 };
    const instrumentation = instrument(apiWith(hook, calls));
    try {
      expect(await scenario()).toEqual(plain);
    } finally {
      instrumentation.disable();
    }
    expect(escaped).toEqual([]);
    // The broken hook was hit by several calls, and said so once; but a meter that cannot be
    // made is not asked again for the same provider.
    if (hook === "meter instruments") expect(calls.n).toBe(1);
    else expect(calls.n).toBeGreaterThan(1);
    expect(otelLines()).toEqual([
      `otel: ${hook} threw, ignored: the CNI call goes on without this telemetry (said once): broken ${hook}`,
    ]);
    // The rest of the telemetry goes on: spans still end unless it is their start or end.
    if (hook !== "tracer.startSpan" && hook !== "span.end") {
      expect(spans.getFinishedSpans().length).toBe(healthySpans);
    }
  });

  it("a call that rejects with a value that cannot be printed (a custom Exec's) keeps it", async () => {
    // Not a broken hook: the error is the caller's own value, which the debug line and the
    // error span describe without changing it.
    const unprintable = Object.create(null);
    const exec = {
      findInPath: async () => "/fake/p",
      execPlugin: async () => {
        throw unprintable;
      },
      decode: () => ({}),
    };
    const cacheDir = await mkdtemp(join(tmpdir(), "libcni-otel-fenced-"));
    const cni = new CNIConfig({ path: ["/fake"], exec: exec as never, cacheDir });
    const list = networkConfFromBytes(
      new TextEncoder().encode('{"cniVersion":"1.0.0","name":"odd","plugins":[{"type":"p"}]}'),
    );
    const rt = { containerID: "c3", netNS: "/var/run/netns/x", ifName: "eth0" };
    const instrumentation = instrument(apiWith(undefined, { n: 0 }));
    try {
      await expect(cni.checkNetworkList(list, rt)).rejects.toBe(unprintable);
    } finally {
      instrumentation.disable();
      await rm(cacheDir, { recursive: true, force: true });
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(escaped).toEqual([]);
    expect(otelLines()).toEqual([]);
    expect(debugLines).toContainEqual(
      expect.stringMatching(
        /^verb CHECK network="odd" .* error="\(a value that cannot be printed\)"$/,
      ),
    );
    const span = spans.getFinishedSpans().find((s) => s.name === "cni CHECK odd");
    expect(span?.status).toEqual({
      code: otel.SpanStatusCode.ERROR,
      message: "(a value that cannot be printed)",
    });
  });
});
