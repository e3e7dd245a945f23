/**
 * Stopping a plugin on abort: SIGTERM to its whole process group, SIGKILL after the grace,
 * no process left behind, and a grandchild holding the pipe cannot hold the call.
 * (Upstream: SIGKILL to the direct child only; issue #687.)
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  CNIError,
  LibcniError,
  PluginAbortedError,
  PluginExecError,
} from "../../src/errors/index.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { noopPath, readDebug, writeDebug } from "../fixtures/plugins/noop-debug.js";
import {
  envWith,
  fixture,
  killQuietly,
  makeTempDir,
  processGone,
  readPids,
  rejection,
  removeTempDir,
} from "./helpers.js";

const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0","name":"n","type":"sleep"}');

describe("RawExec abort", () => {
  let dir: string;
  let pidFile: string;
  const spawned: number[] = [];

  beforeEach(async () => {
    dir = await makeTempDir();
    pidFile = join(dir, "pids");
  });

  afterEach(async () => {
    killQuietly(spawned.splice(0));
    await removeTempDir(dir);
  });

  it("SIGTERMs a plugin that honours it, well before the grace, and rejects with upstream's text", async () => {
    const exec = new RawExec({ graceMs: 10_000, stderr: null });
    const controller = new AbortController();
    const call = exec.execPlugin(fixture("sleep"), stdin, envWith({ FIXTURE_PIDFILE: pidFile }), {
      signal: controller.signal,
    });
    const [pid] = await readPids(pidFile, 1);
    spawned.push(pid);
    const started = Date.now();
    controller.abort();
    const error = await rejection(call);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error).toBeInstanceOf(PluginExecError);
    expect(error).toBeInstanceOf(CNIError);
    expect(error.message).toContain("netplugin failed with no error message");
    expect(error.message).toBe(
      `netplugin failed with no error message: signal: terminated (aborted: This operation was aborted)`,
    );
    const e = error as PluginExecError;
    expect(e.code).toBe(0);
    expect(e.aborted).toBe(true);
    expect(e.signal).toBe("SIGTERM");
    expect(e.pluginPath).toBe(fixture("sleep"));
    expect(e.cause).toBe(controller.signal.reason);
    expect(await processGone(pid)).toBe(true);
  });

  it("SIGKILLs a plugin that ignores SIGTERM once the grace is over, not before", async () => {
    const graceMs = 700;
    const exec = new RawExec({ graceMs, stderr: null });
    const controller = new AbortController();
    const call = exec.execPlugin(
      fixture("ignore-sigterm"),
      stdin,
      envWith({ FIXTURE_PIDFILE: pidFile }),
      { signal: controller.signal },
    );
    const [pid] = await readPids(pidFile, 1);
    spawned.push(pid);
    const started = Date.now();
    controller.abort();
    const error = (await rejection(call)) as PluginExecError;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(graceMs - 50);
    expect(elapsed).toBeLessThan(graceMs + 3000);
    expect(error.message).toBe(
      `netplugin failed with no error message: signal: killed (aborted: This operation was aborted)`,
    );
    expect(error.signal).toBe("SIGKILL");
    expect(await processGone(pid)).toBe(true);
  });

  it("stops the whole group: a grandchild that ignores SIGTERM and holds the pipes is killed and cannot hold the call", async () => {
    const graceMs = 800;
    const exec = new RawExec({ graceMs, stderr: null });
    const controller = new AbortController();
    const call = exec.execPlugin(
      fixture("grandchild-holds-pipe"),
      stdin,
      envWith({ FIXTURE_PIDFILE: pidFile }),
      { signal: controller.signal },
    );
    const pids = await readPids(pidFile, 2);
    spawned.push(...pids);
    const [plugin, grandchild] = pids;
    expect(await processGone(grandchild)).toBe(false);
    const started = Date.now();
    controller.abort(new Error("deadline"));
    const error = (await rejection(call)) as PluginExecError;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(graceMs - 50);
    expect(elapsed).toBeLessThan(graceMs + 3000);
    expect(error.message).toContain("netplugin failed with no error message");
    expect(error.aborted).toBe(true);
    expect((error.cause as Error).message).toBe("deadline");
    // No process of the run is left once the call has returned.
    expect(await processGone(plugin)).toBe(true);
    expect(await processGone(grandchild)).toBe(true);
  });

  it("does not start the plugin when the signal is already aborted (Go's context canceled)", async () => {
    const exec = new RawExec({ stderr: null });
    const error = (await rejection(
      exec.execPlugin(fixture("sleep"), stdin, envWith({ FIXTURE_PIDFILE: pidFile }), {
        signal: AbortSignal.abort(),
      }),
    )) as PluginExecError;
    expect(error.message).toBe(
      `netplugin failed with no error message: context canceled (aborted: This operation was aborted)`,
    );
    expect(error.aborted).toBe(true);
    expect(error.exitCode).toBeUndefined();
    await expect(readPids(pidFile, 1, 300)).rejects.toThrow(/no pids/);
  });

  it("says context deadline exceeded for an already timed-out signal", async () => {
    const signal = AbortSignal.timeout(1);
    await new Promise((r) => setTimeout(r, 20));
    const error = await rejection(
      new RawExec({ stderr: null }).execPlugin(fixture("sleep"), stdin, [], { signal }),
    );
    expect(error.message).toBe(
      "netplugin failed with no error message: context deadline exceeded (timed out)",
    );
  });

  it("stops a plugin at an AbortSignal.timeout deadline (upstream's 2 s timeouts)", async () => {
    const started = Date.now();
    const error = (await rejection(
      new RawExec({ stderr: null, graceMs: 500 }).execPlugin(
        fixture("sleep"),
        stdin,
        envWith({ FIXTURE_PIDFILE: pidFile }),
        { signal: AbortSignal.timeout(300) },
      ),
    )) as PluginExecError;
    spawned.push(...(await readPids(pidFile, 1)));
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error.message).toContain("netplugin failed with no error message");
    expect(error.aborted).toBe(true);
    expect(await processGone(spawned[0])).toBe(true);
  });

  it("a skel plugin sees SIGTERM as its abort signal; what it prints while dying stays on the error", async () => {
    const debugFile = join(dir, "debug");
    await writeDebug(debugFile, { waitForAbort: true });
    const controller = new AbortController();
    const call = new RawExec({ stderr: null, graceMs: 10_000 }).execPlugin(
      noopPath,
      new TextEncoder().encode('{"cniVersion":"1.1.0","name":"n","type":"noop"}'),
      envWith({
        CNI_COMMAND: "ADD",
        CNI_CONTAINERID: "c",
        CNI_NETNS: "/some/netns/path",
        CNI_IFNAME: "eth0",
        CNI_PATH: "/nonexistent",
        CNI_ARGS: `DEBUG=${debugFile}`,
      }),
      { signal: controller.signal },
    );
    // Wait until the plugin has recorded the call, so its abort handling is in place.
    for (let i = 0; i < 200; i++) {
      if ((await readDebug(debugFile)).command === "ADD") break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const started = Date.now();
    controller.abort();
    const error = (await rejection(call)) as PluginExecError;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(error.message).toBe(
      "netplugin failed with no error message: exit status 1 (aborted: This operation was aborted)",
    );
    expect(error.exitCode).toBe(1);
    expect(new TextDecoder().decode(error.stdout)).toContain("plugin received SIGTERM");
  });

  it("rejects with PluginAbortedError saying aborted, the controller's reason as cause", async () => {
    const exec = new RawExec({ graceMs: 10_000, stderr: null });
    const controller = new AbortController();
    const call = exec.execPlugin(fixture("sleep"), stdin, envWith({ FIXTURE_PIDFILE: pidFile }), {
      signal: controller.signal,
    });
    spawned.push(...(await readPids(pidFile, 1)));
    const reason = new Error("pod deleted");
    controller.abort(reason);
    const error = await rejection(call);
    expect(error).toBeInstanceOf(PluginAbortedError);
    expect(error).toBeInstanceOf(PluginExecError);
    expect(error).toBeInstanceOf(LibcniError);
    const e = error as PluginAbortedError;
    expect(e.id).toBe("LIBCNI_ERR_PLUGIN_ABORTED");
    expect(e.message).toBe(
      "netplugin failed with no error message: signal: terminated (aborted: pod deleted)",
    );
    expect(e.cause).toBe(reason);
    expect(e.timedOut).toBe(false);
    expect(e.aborted).toBe(true);
  });

  it("rejects with PluginAbortedError saying timed out at an AbortSignal.timeout", async () => {
    const signal = AbortSignal.timeout(300);
    const error = await rejection(
      new RawExec({ stderr: null, graceMs: 10_000 }).execPlugin(
        fixture("sleep"),
        stdin,
        envWith({ FIXTURE_PIDFILE: pidFile }),
        { signal },
      ),
    );
    spawned.push(...(await readPids(pidFile, 1)));
    expect(error).toBeInstanceOf(PluginAbortedError);
    const e = error as PluginAbortedError;
    expect(e.message).toBe(
      "netplugin failed with no error message: signal: terminated (timed out)",
    );
    expect(e.cause).toBe(signal.reason);
    expect((e.cause as Error).name).toBe("TimeoutError");
    expect(e.timedOut).toBe(true);
  });

  it("an already-aborted signal gives PluginAbortedError too, with its reason as cause", async () => {
    const reason = new Error("shutting down");
    const signal = AbortSignal.abort(reason);
    const error = await rejection(
      new RawExec({ stderr: null }).execPlugin(fixture("sleep"), stdin, [], { signal }),
    );
    expect(error).toBeInstanceOf(PluginAbortedError);
    expect(error.message).toBe(
      "netplugin failed with no error message: context canceled (aborted: shutting down)",
    );
    expect(error.cause).toBe(reason);
  });

  it("uses a default grace of 3 s", () => {
    expect(new RawExec().graceMs).toBe(3000);
  });

  it("leaves no abort listener behind on the signal after the call", async () => {
    const controller = new AbortController();
    let added = 0;
    let removed = 0;
    const { signal } = controller;
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((...a: Parameters<typeof add>) => {
      added++;
      add(...a);
    }) as typeof add;
    signal.removeEventListener = ((...a: Parameters<typeof remove>) => {
      removed++;
      remove(...a);
    }) as typeof remove;
    await new RawExec({ stderr: null }).execPlugin(fixture("non-json"), stdin, [], { signal });
    expect(added).toBeGreaterThan(0);
    expect(removed).toBe(added);
  });
});
