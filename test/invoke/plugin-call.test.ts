/**
 * callPlugin, the one builder of a bounded run for execInNetns and the conformance checker:
 * env and stdin as given, the caller's signal and the time limit combined, and "timed out"
 * meaning a time limit stopped the run (as PluginAbortedError's `timedOut`), not any abort.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { pluginStarter } from "../../src/engines/start/launcher.js";
import { selectLauncher } from "../../src/engines/start/select.js";
import { callPlugin } from "../../src/invoke/plugin-call.js";
import { abortDependants } from "./helpers.js";

const launcher = pluginStarter(selectLauncher("direct"));
const sh = (script: string) => ({ launcher, args: ["-c", script], graceMs: 200 });
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("callPlugin", () => {
  it("runs with the env given (nothing inherited) and the stdin given, as text or bytes", async () => {
    const run = await callPlugin("/bin/sh", {
      ...sh('echo "$GREETING $HOME"; cat; exit 3'),
      env: { GREETING: "hello" },
      stdin: "from stdin",
    });
    expect(run.exitCode).toBe(3);
    expect(text(run.stdout)).toBe("hello \nfrom stdin");
    expect([run.aborted, run.timedOut]).toEqual([false, false]);
    const bytes = await callPlugin("/bin/sh", {
      ...sh("cat"),
      env: {},
      stdin: new Uint8Array([104, 105]),
    });
    expect(text(bytes.stdout)).toBe("hi");
  });

  it("timeoutMs stops the run: timed out", async () => {
    const run = await callPlugin("/bin/sh", { ...sh("sleep 30"), env: {}, timeoutMs: 100 });
    expect([run.aborted, run.timedOut, run.signal]).toEqual([true, true, "SIGTERM"]);
  });

  it("the caller's abort stops the run: aborted, not timed out", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 100);
    const run = await callPlugin("/bin/sh", {
      ...sh("sleep 30"),
      env: {},
      signal: controller.signal,
      timeoutMs: 30_000,
    });
    expect([run.aborted, run.timedOut, run.signal]).toEqual([true, false, "SIGTERM"]);
  });

  it("a caller's AbortSignal.timeout() is a time limit too, as for PluginAbortedError", async () => {
    const run = await callPlugin("/bin/sh", {
      ...sh("sleep 30"),
      env: {},
      signal: AbortSignal.timeout(100),
    });
    expect([run.aborted, run.timedOut]).toEqual([true, true]);
  });

  it("leaves nothing on the caller's signal, which may outlive many runs", async () => {
    const { signal } = new AbortController();
    for (let i = 0; i < 5; i++) {
      const run = await callPlugin("/bin/sh", {
        ...sh("exit 0"),
        env: {},
        signal,
        timeoutMs: 30_000,
      });
      expect(run.exitCode).toBe(0);
    }
    expect(abortDependants(signal)).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("a run that ends before its limit is neither", async () => {
    const run = await callPlugin("/bin/sh", { ...sh("exit 0"), env: {}, timeoutMs: 30_000 });
    expect([run.exitCode, run.aborted, run.timedOut]).toEqual([0, false, false]);
  });
});
