/**
 * libcni/runtime on the diagnostics channels: each pod-level call is one `libcni:pod` trace
 * (its verbs publish on `libcni:verb` inside it), and the call's trace context reaches every
 * plugin it runs, a `start` subscriber's replacing the caller's.
 */
import diagnosticsChannel from "node:diagnostics_channel";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diagnosticsChannelNames, type PodMessage, type VerbMessage } from "../../src/index.js";
import { type CNIRuntime, loadNetworks, PodSetupError } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const replaced = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

type Event = [string, string, string];

function record(events: Event[]) {
  const pod = diagnosticsChannel.tracingChannel<PodMessage, PodMessage>(
    diagnosticsChannelNames.pod,
  );
  const verb = diagnosticsChannel.tracingChannel<VerbMessage, VerbMessage>(
    diagnosticsChannelNames.verb,
  );
  const podHandlers = {
    start: (m: PodMessage) => events.push(["pod:start", m.operation, m.podID]),
    end: () => {},
    asyncStart: (m: PodMessage) =>
      events.push(["pod:asyncStart", m.operation, m.error === undefined ? "ok" : "error"]),
    asyncEnd: () => {},
    error: (m: PodMessage) => events.push(["pod:error", m.operation, String(m.error)]),
  };
  const verbHandlers = {
    start: (m: VerbMessage) => events.push(["verb:start", m.verb, m.network]),
    end: () => {},
    asyncStart: () => {},
    asyncEnd: () => {},
    error: () => {},
  };
  pod.subscribe(podHandlers);
  verb.subscribe(verbHandlers);
  return () => {
    pod.unsubscribe(podHandlers);
    verb.unsubscribe(verbHandlers);
  };
}

describe("libcni:pod", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  let events: Event[];
  let stop: () => void;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    events = [];
    stop = record(events);
  });
  afterEach(async () => {
    stop();
    await d.cleanup();
  });

  it("traces setup, check, teardown, status and gc, each around its verbs", async () => {
    const pod = { id: "p1", netns: "/run/netns/p1" };
    await rt.setupPod(pod);
    await rt.checkPod("p1");
    await rt.teardownPod("p1");
    await rt.status();
    await rt.gc([]);
    const pods = events.filter(([k]) => k.startsWith("pod:"));
    expect(pods).toEqual([
      ["pod:start", "setup", "p1"],
      ["pod:asyncStart", "setup", "ok"],
      ["pod:start", "check", "p1"],
      ["pod:asyncStart", "check", "ok"],
      ["pod:start", "teardown", "p1"],
      ["pod:asyncStart", "teardown", "ok"],
      ["pod:start", "status", ""],
      ["pod:asyncStart", "status", "ok"],
      ["pod:start", "gc", ""],
      ["pod:asyncStart", "gc", "ok"],
    ]);
    // The verbs of the setup are published inside its trace.
    expect(events.slice(0, 4)).toEqual([
      ["pod:start", "setup", "p1"],
      ["verb:start", "ADD", "a"],
      ["verb:start", "ADD", "b"],
      ["pod:asyncStart", "setup", "ok"],
    ]);
  });

  it("a failed setup ends its trace with the PodSetupError", async () => {
    fake.fail.set("b/ADD", "no macvlan parent");
    await expect(rt.setupPod({ id: "p2", netns: "/run/netns/p2" })).rejects.toThrow(PodSetupError);
    const pods = events.filter(([k]) => k.startsWith("pod:"));
    expect(pods.map(([k, op]) => `${k} ${op}`)).toEqual([
      "pod:start setup",
      "pod:error setup",
      "pod:asyncStart setup",
    ]);
    expect(pods[1]?.[2]).toContain("PodSetupError");
  });

  it("passes the call's trace context to every plugin, rollback DELs included", async () => {
    fake.fail.set("b/ADD", "no macvlan parent");
    const traceContext = { traceparent };
    await expect(
      rt.setupPod({ id: "p3", netns: "/run/netns/p3" }, { traceContext }),
    ).rejects.toThrow(PodSetupError);
    expect(fake.calls.map((c) => `${c.command} ${c.network} ${c.traceparent}`)).toEqual([
      `ADD a ${traceparent}`,
      `ADD b ${traceparent}`,
      `DEL b ${traceparent}`,
      `DEL a ${traceparent}`,
    ]);
  });

  it("a start subscriber's trace context replaces the caller's", async () => {
    const pod = diagnosticsChannel.tracingChannel<PodMessage, PodMessage>(
      diagnosticsChannelNames.pod,
    );
    const handlers = {
      start: (m: PodMessage) => {
        m.traceContext = { traceparent: replaced };
      },
      end: () => {},
      asyncStart: () => {},
      asyncEnd: () => {},
      error: () => {},
    };
    pod.subscribe(handlers);
    try {
      await rt.setupPod({ id: "p4", netns: "/run/netns/p4" }, { traceContext: { traceparent } });
    } finally {
      pod.unsubscribe(handlers);
    }
    expect(fake.calls.map((c) => c.traceparent)).toEqual([replaced, replaced]);
  });
});
