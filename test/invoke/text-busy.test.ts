/**
 * "text file busy" at start: a plugin file still open for writing (an upgrade in progress)
 * cannot be executed. Upstream retries 5 times, 1 s apart, then falls through to a success with
 * empty stdout; here the retries honour the abort signal and the last one ends in an error.
 */
import { chmod, type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginExecError } from "../../src/errors/index.js";
import type { ExecMessage } from "../../src/index.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { type Recorder, recordEvents } from "../internal/channel-recorder.js";
import { makeTempDir, rejection, removeTempDir, sleep } from "./helpers.js";

const stdin = new TextEncoder().encode("{}");

/**
 * How many starts the settled run of `path` attempted, as `libcni:exec` reports it (its
 * `attempts`, counted by RawExec's retry loop): the count, not the clock, says whether it retried.
 */
function attemptsOf(recorder: Recorder, path: string): number {
  const ends = recorder.events.filter(
    (e) =>
      e.channel === "exec" &&
      e.event === "asyncEnd" &&
      (e.message as ExecMessage).pluginPath === path,
  );
  expect(ends, `one traced run of ${path}`).toHaveLength(1);
  return ends[0].snapshot.attempts as number;
}

describe("RawExec text file busy", () => {
  let dir: string;
  let pluginPath: string;
  let writer: FileHandle | undefined;
  let recorder: Recorder;

  beforeEach(async () => {
    recorder = recordEvents();
    dir = await makeTempDir();
    pluginPath = join(dir, "being-written");
    // The plugin is being written: its file is open for writing while the runtime execs it.
    writer = await open(pluginPath, "w", 0o755);
    await writer.write('#!/bin/sh\nprintf \'{"cniVersion":"1.1.0"}\'\n');
    await chmod(pluginPath, 0o755);
  });

  afterEach(async () => {
    recorder.stop();
    await writer?.close();
    writer = undefined;
    await removeTempDir(dir);
  });

  it("retries with upstream's defaults (5 retries, 1 s apart) and runs the plugin once it is written", async () => {
    const exec = new RawExec({ stderr: null });
    expect(exec.textBusyRetries).toBe(5);
    expect(exec.textBusyDelayMs).toBe(1000);
    const call = exec.execPlugin(pluginPath, stdin, []);
    await sleep(1500);
    await writer?.close();
    writer = undefined;
    const out = await call;
    expect(new TextDecoder().decode(out)).toBe('{"cniVersion":"1.1.0"}');
    // The first start was refused (only "text file busy" is retried): the call waited for the
    // writer, and a start after it ran the plugin.
    expect(attemptsOf(recorder, pluginPath)).toBeGreaterThanOrEqual(2);
  });

  // Upstream #1183 (merged, for issue #855): Go built one exec.Cmd, with its stdin reader and
  // output buffers, before the loop and ran it again on each retry. Here every attempt is a
  // fresh run: the attempt that starts gets the whole stdin, and the call returns that run's
  // stdout and forwards that run's stderr, nothing of the attempts before it.
  it("runs each retry afresh: the whole stdin in, only that run's output out (upstream #1183)", async () => {
    await writer?.truncate(0);
    await writer?.write("#!/bin/sh\nprintf ran >&2\nexec cat\n", 0);
    const big = new Uint8Array(256 * 1024).map((_, i) => 0x20 + (i % 90));
    const forwarded: Uint8Array[] = [];
    const exec = new RawExec({
      stderr: { write: (chunk) => forwarded.push(Uint8Array.from(chunk)) },
      textBusyRetries: 50,
      textBusyDelayMs: 100,
    });
    const call = exec.execPlugin(pluginPath, big, []);
    await sleep(350);
    await writer?.close();
    writer = undefined;
    const out = await call;
    // Starts were refused before this one: the output is that of a retry.
    expect(attemptsOf(recorder, pluginPath)).toBeGreaterThanOrEqual(2);
    expect(Buffer.from(out).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.concat(forwarded).toString()).toBe("ran");
  });

  it("fails after the last retry instead of reporting an empty success", async () => {
    const exec = new RawExec({ stderr: null, textBusyRetries: 3, textBusyDelayMs: 50 });
    const started = Date.now();
    const error = await rejection(exec.execPlugin(pluginPath, stdin, []));
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // The first start and its 3 retries, not one more.
    expect(attemptsOf(recorder, pluginPath)).toBe(4);
    expect(error).toBeInstanceOf(PluginExecError);
    expect(error.message).toBe(
      `netplugin failed with no error message: fork/exec ${pluginPath}: text file busy`,
    );
    const e = error as PluginExecError;
    expect(e.code).toBe(0);
    expect((e.cause as NodeJS.ErrnoException).code).toBe("ETXTBSY");
  });

  it("fails at once with no retries configured", async () => {
    const error = await rejection(
      new RawExec({ stderr: null, textBusyRetries: 0 }).execPlugin(pluginPath, stdin, []),
    );
    expect(error.message).toContain("text file busy");
    expect(attemptsOf(recorder, pluginPath)).toBe(1);
  });

  it("stops retrying when the signal aborts during the wait", async () => {
    // A wait that outlasts the test's timeout: the call settles in time only if the abort ends it.
    const exec = new RawExec({ stderr: null, textBusyDelayMs: 3_600_000 });
    const controller = new AbortController();
    const call = exec.execPlugin(pluginPath, stdin, [], { signal: controller.signal });
    await sleep(200);
    controller.abort();
    const error = (await rejection(call)) as PluginExecError;
    // The refused start only: no retry after the abort.
    expect(attemptsOf(recorder, pluginPath)).toBe(1);
    expect(error.message).toBe(
      `netplugin failed with no error message: context canceled (aborted: This operation was aborted)`,
    );
    expect(error.aborted).toBe(true);
  });
});
