/**
 * `libcni:verb` and `libcni:exec` as a subscriber sees them: events, their order and their
 * fields for a chain of plugins, a failing plugin and an abort, the single-plugin, GC and
 * STATUS variants, and the trace context every plugin of the call receives (read back by a
 * skel plugin).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PluginChainError, PluginExecError } from "../../src/errors/index.js";
import {
  CNIConfig,
  type ExecMessage,
  networkConfFromBytes,
  networkPluginConfFromBytes,
  type VerbMessage,
} from "../../src/index.js";
import { failed, type Recorder, recordEvents, succeeded } from "../internal/channel-recorder.js";
import { readPids } from "../invoke/helpers.js";
import { requireBuild } from "../skel/spawn.js";

const plugins = join(import.meta.dirname, "../fixtures/plugins");
const recorderPath = join(plugins, "trace-recorder.mjs");
const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const tracestate = "congo=t61rcWkgMzE,rojo=00f067aa0ba902b7";
const baggage = "userId=alice,serverNode=DF%2028;prop";
const traceContext = { traceparent, tracestate, baggage };
const rt = { containerID: "ctr1", netNS: "/var/run/netns/x", ifName: "eth0" };

let dir: string;
let cni: CNIConfig;
let recorder: Recorder | undefined;

beforeAll(requireBuild);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "libcni-obs-api-"));
  cni = new CNIConfig({ path: [plugins], cacheDir: join(dir, "cache"), durableCache: false });
});
afterEach(() => {
  recorder?.stop();
  recorder = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const record = (i: number): string => join(dir, `record-${i}`);
const received = (i: number) => JSON.parse(readFileSync(record(i), "utf8"));
const recorderPlugin = (i: number, extra: object = {}) => ({
  type: "trace-recorder.mjs",
  recordFile: record(i),
  ...extra,
});
const list = (pluginEntries: object[], cniVersion = "1.1.0") =>
  networkConfFromBytes(
    new TextEncoder().encode(
      JSON.stringify({ name: "obsnet", cniVersion, plugins: pluginEntries }),
    ),
  );

const verbEvents = (r: Recorder) => r.events.filter((e) => e.channel === "verb");
const execEvents = (r: Recorder) => r.events.filter((e) => e.channel === "exec");

describe("libcni:verb and libcni:exec over a chain of plugins", () => {
  it("publishes the verb around one exec per plugin, in order, with their fields", async () => {
    recorder = recordEvents();
    const result = await cni.addNetworkList(
      list([recorderPlugin(0), recorderPlugin(1), recorderPlugin(2)]),
      rt,
      { traceContext },
    );
    expect(recorder.names()).toEqual([
      "verb:start",
      "verb:end",
      ...succeeded("exec"),
      ...succeeded("exec"),
      ...succeeded("exec"),
      "verb:asyncStart",
      "verb:asyncEnd",
    ]);
    // One message object per call, from start to asyncEnd.
    const verbs = verbEvents(recorder);
    expect(new Set(verbs.map((e) => e.message)).size).toBe(1);
    expect(verbs[0].snapshot).toEqual({
      verb: "ADD",
      method: "addNetworkList",
      network: "obsnet",
      containerID: "ctr1",
      ifName: "eth0",
      cniVersion: "1.1.0",
      traceContext,
      durationMs: undefined,
    });
    const done = verbs[2].message as VerbMessage;
    expect(done.result).toBe(result);
    expect(done.error).toBeUndefined();
    expect(typeof done.durationMs).toBe("number");

    const execs = execEvents(recorder);
    for (let i = 0; i < 3; i++) {
      const [start, , asyncStart] = execs.slice(i * 4, i * 4 + 4);
      expect(start.snapshot).toEqual({
        pluginPath: recorderPath,
        command: "ADD",
        containerID: "ctr1",
        ifName: "eth0",
        traceContext,
        exitCode: undefined,
        signal: undefined,
        aborted: false,
        durationMs: undefined,
        stdoutBytes: 0,
        stderrBytes: 0,
        attempts: 0,
      });
      const m = asyncStart.message as ExecMessage;
      const stdout = m.result as Uint8Array;
      expect(Buffer.from(stdout).toString()).toBe('{"cniVersion":"1.1.0"}');
      expect(asyncStart.snapshot).toMatchObject({
        exitCode: 0,
        signal: undefined,
        aborted: false,
        stdoutBytes: stdout.length,
        stderrBytes: 0,
        attempts: 1,
      });
      expect(m.durationMs).toBeGreaterThan(0);
      // Every plugin got the call's trace context, and skel handed it to the callback.
      expect(received(i)).toEqual({
        command: "ADD",
        env: { TRACEPARENT: traceparent, TRACESTATE: tracestate, BAGGAGE: baggage },
        traceContext,
      });
    }
  });

  it("publishes the error of a failing plugin on both channels and runs no plugin after it", async () => {
    recorder = recordEvents();
    const call = cni.addNetworkList(
      list([recorderPlugin(0), recorderPlugin(1, { fail: "boom" }), recorderPlugin(2)]),
      rt,
    );
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginChainError);
    expect(recorder.names()).toEqual([
      "verb:start",
      "verb:end",
      ...succeeded("exec"),
      ...failed("exec"),
      "verb:error",
      "verb:asyncStart",
      "verb:asyncEnd",
    ]);
    const failedExec = execEvents(recorder)[6];
    expect(failedExec.event).toBe("error");
    const m = failedExec.message as ExecMessage;
    expect(m.error).toBeInstanceOf(PluginExecError);
    expect((m.error as Error).message).toBe("boom");
    expect(m).toMatchObject({ exitCode: 1, signal: undefined, aborted: false, attempts: 1 });
    expect(m.stdoutBytes).toBeGreaterThan(0); // The error JSON.
    expect((verbEvents(recorder)[2].message as VerbMessage).error).toBe(error);
    // Without a trace context, nothing is passed.
    expect(received(0).env).toEqual({ TRACEPARENT: null, TRACESTATE: null, BAGGAGE: null });
    expect(received(0).traceContext).toBeNull();
  });

  it("publishes an abort: the exec's signal and aborted flag, the error on both", async () => {
    const controller = new AbortController();
    const pidFile = join(dir, "pid");
    const saved = process.env.FIXTURE_PIDFILE;
    process.env.FIXTURE_PIDFILE = pidFile;
    try {
      recorder = recordEvents();
      const call = cni.delNetworkList(list([recorderPlugin(0), { type: "sleep" }]), rt, {
        signal: controller.signal,
      });
      await readPids(pidFile, 1);
      controller.abort();
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PluginChainError);
    } finally {
      if (saved === undefined) delete process.env.FIXTURE_PIDFILE;
      else process.env.FIXTURE_PIDFILE = saved;
    }
    // DEL runs the list in reverse: sleep first, aborted; the recorder never runs.
    expect(recorder.names()).toEqual([
      "verb:start",
      "verb:end",
      ...failed("exec"),
      "verb:error",
      "verb:asyncStart",
      "verb:asyncEnd",
    ]);
    const m = execEvents(recorder)[2].message as ExecMessage;
    expect(m).toMatchObject({
      pluginPath: join(plugins, "sleep"),
      command: "DEL",
      aborted: true,
      signal: "SIGTERM",
      exitCode: undefined,
      attempts: 1,
    });
    expect((m.error as PluginExecError).aborted).toBe(true);
    expect(verbEvents(recorder)[0].snapshot).toMatchObject({
      verb: "DEL",
      method: "delNetworkList",
    });
  });
});

describe("libcni:verb messages of every verb", () => {
  it("names the method, and leaves container and interface empty for GC and STATUS", async () => {
    recorder = recordEvents();
    const net = networkPluginConfFromBytes(
      new TextEncoder().encode(
        JSON.stringify({ name: "single", cniVersion: "1.0.0", ...recorderPlugin(0) }),
      ),
    );
    await cni.addNetwork(net, rt);
    await cni.checkNetwork(net, rt);
    await cni.delNetwork(net, rt);
    const l = list([recorderPlugin(1)]);
    await cni.addNetworkList(l, rt);
    await cni.checkNetworkList(l, rt);
    await cni.gcNetworkList(l, { validAttachments: [] });
    await cni.getStatusNetworkList(l);
    const starts = verbEvents(recorder)
      .filter((e) => e.event === "start")
      .map((e) => {
        const { verb, method, network, containerID, ifName, cniVersion } = e.snapshot;
        return [verb, method, network, containerID, ifName, cniVersion].join(" ");
      });
    expect(starts).toEqual([
      "ADD addNetwork single ctr1 eth0 1.0.0",
      "CHECK checkNetwork single ctr1 eth0 1.0.0",
      "DEL delNetwork single ctr1 eth0 1.0.0",
      "ADD addNetworkList obsnet ctr1 eth0 1.1.0",
      "CHECK checkNetworkList obsnet ctr1 eth0 1.1.0",
      "GC gcNetworkList obsnet   1.1.0",
      "STATUS getStatusNetworkList obsnet   1.1.0",
    ]);
    // GC deleted the stale attachment (a DEL exec) and then ran the plugin's GC.
    const commands = execEvents(recorder)
      .filter((e) => e.event === "start")
      .map((e) => (e.message as ExecMessage).command);
    expect(commands).toEqual(["ADD", "CHECK", "DEL", "ADD", "CHECK", "DEL", "GC", "STATUS"]);
  });

  it("lets a start subscriber replace the trace context the plugins get", async () => {
    const mine = "00-11111111111111111111111111111111-2222222222222222-01";
    recorder = recordEvents({
      verb: (m) => {
        m.traceContext = { traceparent: mine };
      },
    });
    await cni.addNetworkList(list([recorderPlugin(0)]), rt, { traceContext });
    expect(received(0).env).toEqual({ TRACEPARENT: mine, TRACESTATE: null, BAGGAGE: null });
    expect((execEvents(recorder)[0].message as ExecMessage).traceContext).toEqual({
      traceparent: mine,
    });
  });

  it("passes nothing for a malformed traceparent, and publishes nothing once unsubscribed", async () => {
    recorder = recordEvents();
    recorder.stop();
    await cni.addNetworkList(list([recorderPlugin(0)]), rt, {
      traceContext: {
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
        baggage,
      },
    });
    expect(recorder.events).toEqual([]);
    expect(received(0).env).toEqual({ TRACEPARENT: null, TRACESTATE: null, BAGGAGE: null });
  });
});
