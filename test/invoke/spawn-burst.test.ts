/**
 * A burst of concurrent plugin runs: every run completes with its own output, and the process
 * starts are spread over turns of the event loop (one per turn) instead of running back to
 * back inside the caller's turn. `child_process.spawn` is wrapped to note the turn of each start.
 */
import type * as ChildProcessModule from "node:child_process";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PluginExecError } from "../../src/errors/index.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { envWith, fixture, rejection } from "./helpers.js";

const probe = vi.hoisted(() => ({ turn: 0, starts: [] as { turn: number; env: string }[] }));

vi.mock("node:child_process", async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcessModule>();
  const spawn = new Proxy(actual.spawn, {
    apply(target, thisArg, args: Parameters<typeof actual.spawn>) {
      const options = args[2] as { env?: Record<string, string | undefined> } | undefined;
      probe.starts.push({ turn: probe.turn, env: options?.env?.NON_JSON_OUTPUT ?? "" });
      return Reflect.apply(target, thisArg, args);
    },
  });
  return { ...actual, default: { ...actual, spawn }, spawn };
});

/** Counts turns of the event loop (one setImmediate callback per turn) until stopped. */
function startTicker(): () => void {
  let running = true;
  const tick = (): void => {
    probe.turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    running = false;
  };
}

const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0"}');
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("a burst of concurrent plugin runs", () => {
  afterEach(() => {
    probe.starts.length = 0;
  });

  it("50 concurrent runs all complete, each with its own output, one start per turn", async () => {
    const exec = new RawExec({ stderr: null, graceMs: 2000 });
    const stop = startTicker();
    const callerTurn = probe.turn;
    const calls = Array.from({ length: 50 }, (_, i) =>
      exec.execPlugin(fixture("non-json"), stdin, envWith({ NON_JSON_OUTPUT: `out-${i}` })),
    );
    // Nothing was started in the caller's own turn.
    expect(probe.starts).toHaveLength(0);
    const outs = await Promise.all(calls);
    stop();
    expect(outs.map(text)).toEqual(Array.from({ length: 50 }, (_, i) => `out-${i}`));
    expect(probe.starts).toHaveLength(50);
    // Started in the order asked, each in a turn of its own, all after the caller's.
    expect(probe.starts.map((s) => s.env)).toEqual(outs.map(text));
    const turns = probe.starts.map((s) => s.turn);
    expect(new Set(turns).size).toBe(50);
    expect(Math.min(...turns)).toBeGreaterThanOrEqual(callerTurn);
    for (let i = 1; i < turns.length; i++) expect(turns[i]).toBeGreaterThan(turns[i - 1]);
  });

  it("a run aborted while it waits for its turn is never started (Go's context canceled)", async () => {
    const exec = new RawExec({ stderr: null });
    const controller = new AbortController();
    const calls = Array.from({ length: 5 }, (_, i) =>
      exec.execPlugin(
        fixture("non-json"),
        stdin,
        envWith({ NON_JSON_OUTPUT: `out-${i}` }),
        i === 4 ? { signal: controller.signal } : {},
      ),
    );
    controller.abort();
    const error = (await rejection(calls[4])) as PluginExecError;
    expect(error.message).toBe(
      `netplugin failed with no error message: context canceled (aborted: This operation was aborted)`,
    );
    expect(error.aborted).toBe(true);
    expect(error.exitCode).toBeUndefined();
    expect(error.cause).toBe(controller.signal.reason);
    expect((await Promise.all(calls.slice(0, 4))).map(text)).toEqual([
      "out-0",
      "out-1",
      "out-2",
      "out-3",
    ]);
    expect(probe.starts.map((s) => s.env)).toEqual(["out-0", "out-1", "out-2", "out-3"]);
  });
});
