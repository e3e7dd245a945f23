/**
 * `instrument(otel, { spanNames: "go-cni" })` (issue 42): the pod layer's spans named as
 * containerd/go-cni#132 names its own (`cni.Setup`, `cni.SetupSerially`, `cni.Remove`,
 * `cni.Check`, with `cni.id` and `cni.path`), each verb inside them with go-cni's per-network
 * `cni.name`, `cni.ifname` and `cni.index`; the default names unchanged. Checked with the SDK's
 * in-memory exporter.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as otel from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, InvalidArgumentError } from "../../src/index.js";
import { type Instrumentation, instrument } from "../../src/otel/index.js";
import { type CNIRuntime, loadNetworks } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins } from "../runtime/helpers.js";

const spans = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
let d: Dirs;
let fake: FakePlugins;
let rt: CNIRuntime;
let instrumentation: Instrumentation | undefined;

beforeAll(() => {
  otel.context.setGlobalContextManager(contextManager.enable());
  otel.trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
  );
});
afterAll(() => {
  otel.trace.disable();
  otel.context.disable();
});

beforeEach(async () => {
  spans.reset();
  d = await dirs();
  fake = new FakePlugins();
  for (const [file, name] of [
    ["10-a.conflist", "a"],
    ["20-b.conflist", "b"],
  ]) {
    await writeFile(
      join(d.confDir, file as string),
      `{"cniVersion":"1.0.0","name":"${name}","plugins":[{"type":"p"}]}`,
    );
  }
  rt = await loadNetworks({
    confDir: d.confDir,
    cacheDir: d.cacheDir,
    exec: fake.exec,
    loopback: true,
  });
});
afterEach(async () => {
  instrumentation?.disable();
  instrumentation = undefined;
  await d.cleanup();
});

const finished = (): ReadableSpan[] => spans.getFinishedSpans();
const named = (name: string): ReadableSpan[] => finished().filter((s) => s.name === name);
const one = (name: string): ReadableSpan => {
  const found = named(name);
  if (found.length !== 1) {
    throw new Error(`${found.length} spans ${name}: ${finished().map((s) => s.name)}`);
  }
  return found[0] as ReadableSpan;
};
const childrenOf = (parent: ReadableSpan): ReadableSpan[] =>
  finished().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe('spanNames: "go-cni"', () => {
  it("setupPod is cni.SetupSerially, its verbs carry cni.name, cni.ifname and cni.index", async () => {
    instrumentation = instrument(otel, { spanNames: "go-cni" });
    await rt.setupPod({ id: "p1", netns: "/var/run/netns/p1" });
    const setup = one("cni.SetupSerially");
    expect(setup.attributes).toEqual({ "cni.id": "p1", "cni.path": "/var/run/netns/p1" });
    const verbs = childrenOf(setup).map((s) => [s.name, s.attributes]);
    // The runtime's networks: the loopback first, then a and b (go-cni's Networks() order).
    expect(verbs).toEqual([
      [
        "cni ADD cni-loopback",
        expect.objectContaining({ "cni.name": "cni-loopback", "cni.ifname": "lo", "cni.index": 0 }),
      ],
      [
        "cni ADD a",
        expect.objectContaining({ "cni.name": "a", "cni.ifname": "eth0", "cni.index": 1 }),
      ],
      [
        "cni ADD b",
        expect.objectContaining({ "cni.name": "b", "cni.ifname": "net1", "cni.index": 2 }),
      ],
    ]);
    // The library's own verb attributes stay.
    expect(childrenOf(setup)[1]?.attributes).toMatchObject({
      "cni.verb": "ADD",
      "cni.network.name": "a",
      "cni.container.id": "p1",
    });
  });

  it("parallel setup is cni.Setup; teardown cni.Remove, check cni.Check, status and gc too", async () => {
    instrumentation = instrument(otel, { spanNames: "go-cni" });
    await rt.setupPod({ id: "p1", netns: "/var/run/netns/p1" }, { parallel: true });
    expect(one("cni.Setup").attributes).toEqual({
      "cni.id": "p1",
      "cni.path": "/var/run/netns/p1",
    });
    await rt.checkPod("p1");
    // Given by ID: no netns to say.
    expect(one("cni.Check").attributes).toEqual({ "cni.id": "p1" });
    expect(childrenOf(one("cni.Check")).map((s) => s.attributes["cni.index"])).toEqual([1, 2]);
    await rt.teardownPod({ id: "p1", netns: "/var/run/netns/p1" });
    const remove = one("cni.Remove");
    expect(remove.attributes).toEqual({ "cni.id": "p1", "cni.path": "/var/run/netns/p1" });
    // Each network with its index. A parallel setup attaches in no order to keep, so the
    // records' times (the teardown's order) may come in any order.
    const dels = childrenOf(remove).map((s) => [s.name, s.attributes["cni.index"]]);
    expect(dels.sort()).toEqual([
      ["cni DEL a", 1],
      ["cni DEL b", 2],
      ["cni DEL cni-loopback", 0],
    ]);
    await rt.status();
    expect(one("cni.Status").attributes).toEqual({});
    await rt.gc([]);
    expect(one("cni.GC").attributes).toEqual({});
  });

  it("a network no longer loaded has no cni.index; a verb outside a pod call has none of go-cni's", async () => {
    instrumentation = instrument(otel, { spanNames: "go-cni" });
    await rt.setupPod({ id: "p1", netns: "/var/run/netns/p1" });
    await writeFile(join(d.confDir, "20-b.conflist"), "{ broken");
    await rt.reload();
    await rt.teardownPod("p1");
    const dels = childrenOf(one("cni.Remove"));
    expect(dels.map((s) => [s.name, s.attributes["cni.index"]])).toEqual([
      ["cni DEL b", undefined],
      ["cni DEL a", 1],
      ["cni DEL cni-loopback", 0],
    ]);
    expect(dels[0]?.attributes).toMatchObject({ "cni.name": "b", "cni.ifname": "net1" });
    spans.reset();
    const cni = new CNIConfig({ path: ["/p"], cacheDir: d.cacheDir, exec: fake.exec });
    const list = rt.networks[1]?.config;
    if (list === undefined) throw new Error("no network a");
    await cni.addNetworkList(list, { containerID: "c1", netNS: "/n", ifName: "eth0" });
    const verb = one("cni ADD a");
    expect(verb.attributes["cni.name"]).toBeUndefined();
    expect(verb.attributes["cni.index"]).toBeUndefined();
  });

  it("by default the names are the library's, unchanged", async () => {
    instrumentation = instrument(otel);
    await rt.setupPod({ id: "p1", netns: "/var/run/netns/p1" });
    expect(one("cni.pod setup").attributes).toEqual({
      "cni.operation": "setup",
      "cni.pod.id": "p1",
    });
    expect(named("cni.SetupSerially")).toEqual([]);
    expect(one("cni ADD a").attributes["cni.index"]).toBeUndefined();
  });

  it("an unknown spanNames is refused", () => {
    expect(() => instrument(otel, { spanNames: "go" as never })).toThrow(InvalidArgumentError);
  });
});
