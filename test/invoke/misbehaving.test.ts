/**
 * Plugins that misbehave: non-JSON and partial output, death by a signal, a grandchild holding
 * the pipes after a normal exit, a JSON stdout that is not an error object.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PluginExecError } from "../../src/errors/index.js";
import type { ExecMessage } from "../../src/index.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { recordEvents } from "../internal/channel-recorder.js";
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

const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0"}');
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("RawExec with misbehaving plugins", () => {
  let dir: string;
  const leftovers: number[] = [];
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    killQuietly(leftovers.splice(0));
    await removeTempDir(dir);
  });
  const exec = new RawExec({ stderr: null, graceMs: 500 });

  it("returns non-JSON stdout of a successful plugin as is (decoding is the caller's business)", async () => {
    const out = await exec.execPlugin(fixture("non-json"), stdin, envWith({}));
    expect(text(out)).toBe("this is not JSON");
  });

  it("failed with non-JSON stdout: upstream's diagnostic-parsing message, with Go's JSON error", async () => {
    const error = (await rejection(
      exec.execPlugin(fixture("non-json"), stdin, envWith({ NON_JSON_EXIT: "1" })),
    )) as PluginExecError;
    expect(error.message).toBe(
      `netplugin failed but error parsing its diagnostic message "this is not JSON": invalid character 'h' in literal true (expecting 'r')`,
    );
    expect(error.code).toBe(0);
    expect(error.exitCode).toBe(1);
    expect(text(error.stdout)).toBe("this is not JSON");
  });

  it("failed with partial JSON: unexpected end of JSON input", async () => {
    const error = (await rejection(
      exec.execPlugin(
        fixture("non-json"),
        stdin,
        envWith({ NON_JSON_OUTPUT: '{"code":7,"msg":"half', NON_JSON_EXIT: "2" }),
      ),
    )) as PluginExecError;
    expect(error.message).toBe(
      `netplugin failed but error parsing its diagnostic message "{\\"code\\":7,\\"msg\\":\\"half": unexpected end of JSON input`,
    );
    expect(error.exitCode).toBe(2);
  });

  it("keeps the exit status and stderr on the error even when stdout carried the message", async () => {
    const error = (await rejection(
      exec.execPlugin(
        fixture("non-json"),
        stdin,
        envWith({
          NON_JSON_OUTPUT: '{"code":11,"msg":"busy","details":"retry"}',
          NON_JSON_STDERR: "some log",
          NON_JSON_EXIT: "3",
        }),
      ),
    )) as PluginExecError;
    expect(error.message).toBe("busy; retry");
    expect(error.code).toBe(11);
    expect(error.msg).toBe("busy");
    expect(error.details).toBe("retry");
    expect(error.exitCode).toBe(3);
    expect(text(error.stderr)).toBe("some log");
  });

  it("failed with JSON that is not an error object: a clear message, not an empty one", async () => {
    const error = (await rejection(
      exec.execPlugin(
        fixture("non-json"),
        stdin,
        envWith({ NON_JSON_OUTPUT: '{"cniVersion":"1.1.0"}', NON_JSON_EXIT: "1" }),
      ),
    )) as PluginExecError;
    expect(error.message).toBe(
      `netplugin failed with no error message in its output "{\\"cniVersion\\":\\"1.1.0\\"}": exit status 1`,
    );
    expect(error.code).toBe(0);
  });

  it("death by a signal: Go's signal text", async () => {
    const error = (await rejection(
      exec.execPlugin(fixture("die-by-signal"), stdin, envWith({})),
    )) as PluginExecError;
    expect(error.message).toBe(
      "netplugin failed with no error message: signal: segmentation fault",
    );
    expect(error.signal).toBe("SIGSEGV");
    expect(error.exitCode).toBeUndefined();
    expect(error.aborted).toBe(false);
  });

  it("death by a real-time signal: Go's `signal 35` through the helper; the direct spawn cannot tell it from exit 0", async () => {
    const run = exec.execPlugin(fixture("die-by-signal"), stdin, envWith({ KILL_SIGNAL: "35" }));
    if (exec.launcher.name === "spawner") {
      const error = (await rejection(run)) as PluginExecError;
      expect(error.message).toBe("netplugin failed with no error message: signal: signal 35");
      expect(error.signal).toBe("signal 35");
    } else {
      // Node reports a signal it has no name for as exit 0 (docs/deviations/invoke.md).
      expect(text(await run)).toBe("");
    }
  });

  it("death by a signal after writing stderr", async () => {
    const error = await rejection(
      exec.execPlugin(
        fixture("die-by-signal"),
        stdin,
        envWith({ KILL_SIGNAL: "ABRT", DIE_STDERR: "assertion failed\n" }),
      ),
    );
    expect(error.message).toBe('netplugin failed: "assertion failed\\n": signal: aborted');
  });

  it("a plugin that exits 0 while a grandchild holds its pipes: the call ends after the grace, with its output, and the grandchild is gone", async () => {
    const pidFile = join(dir, "pids");
    const started = Date.now();
    const out = await exec.execPlugin(
      fixture("grandchild-holds-pipe"),
      stdin,
      envWith({
        FIXTURE_PIDFILE: pidFile,
        GRANDCHILD_MODE: "exit",
        GRANDCHILD_RESULT: '{"cniVersion":"1.1.0"}',
      }),
    );
    const pids = await readPids(pidFile, 2);
    leftovers.push(...pids);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(text(out)).toBe('{"cniVersion":"1.1.0"}');
    expect(await processGone(pids[0])).toBe(true);
    // Upstream's exec would still be waiting on this one; here the group is SIGKILLed once the
    // pipes outlived the exit by the grace, and the call returns only once it is gone.
    expect(await processGone(pids[1])).toBe(true);
  });

  it('a plugin merely saying "text file busy" is not retried: only the exec error counts', async () => {
    // libcni:exec counts the starts of a run (RawExec's retry loop): one, not a retry.
    const recorder = recordEvents();
    let error: Error;
    try {
      error = await rejection(
        exec.execPlugin(
          fixture("non-json"),
          stdin,
          envWith({ NON_JSON_OUTPUT: "", NON_JSON_STDERR: "text file busy", NON_JSON_EXIT: "1" }),
        ),
      );
    } finally {
      recorder.stop();
    }
    expect(error.message).toBe('netplugin failed: "text file busy": exit status 1');
    const ends = recorder.events.filter((e) => e.channel === "exec" && e.event === "asyncEnd");
    expect(ends).toHaveLength(1);
    expect((ends[0].message as ExecMessage).pluginPath).toBe(fixture("non-json"));
    expect(ends[0].snapshot.attempts).toBe(1);
  });

  it("runs many plugins concurrently, each with its own output", async () => {
    const outs = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        exec.execPlugin(fixture("non-json"), stdin, envWith({ NON_JSON_OUTPUT: `out-${i}` })),
      ),
    );
    expect(outs.map(text)).toEqual(Array.from({ length: 40 }, (_, i) => `out-${i}`));
  });

  it("a plugin that does not read its stdin is not an error (EPIPE ignored, as Go does)", async () => {
    const big = new Uint8Array(4 * 1024 * 1024).fill(0x20);
    const out = await exec.execPlugin(fixture("non-json"), big, envWith({}));
    expect(text(out)).toBe("this is not JSON");
  });
});
