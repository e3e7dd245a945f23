/**
 * `libcni:exec` from RawExec alone (no CNIConfig): the outcome fields of each way a run ends,
 * and the trace context in the plugin's environment, inherited or given.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ExecMessage } from "../../src/index.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { noopPath, writeDebug } from "../fixtures/plugins/noop-debug.js";
import { failed, type Recorder, recordEvents, succeeded } from "../internal/channel-recorder.js";
import { envWith, makeTempDir, rejection, removeTempDir } from "./helpers.js";

const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
const exec = new RawExec({ stderr: null });
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
let recorder: Recorder;
let dir: string;

beforeEach(async () => {
  dir = await makeTempDir("libcni-obs-invoke-");
  recorder = recordEvents();
});
afterEach(async () => {
  recorder.stop();
  await removeTempDir(dir);
});

const message = (): ExecMessage =>
  recorder.events[recorder.events.length - 1].message as ExecMessage;

describe("libcni:exec from RawExec", () => {
  it("passes the trace context over an inherited environment, and reports the output sizes", async () => {
    const stdout = await exec.execPlugin("/usr/bin/env", enc("{}"), undefined, {
      traceContext: { traceparent, tracestate: "a=b", baggage: "k=v" },
    });
    const lines = Buffer.from(stdout).toString().split("\n");
    expect(lines).toContain(`TRACEPARENT=${traceparent}`);
    expect(lines).toContain("TRACESTATE=a=b");
    expect(lines).toContain("BAGGAGE=k=v");
    expect(lines).toContain(`PATH=${process.env.PATH}`);
    expect(recorder.names()).toEqual(succeeded("exec"));
    expect(message()).toMatchObject({
      pluginPath: "/usr/bin/env",
      command: process.env.CNI_COMMAND ?? "",
      exitCode: 0,
      stdoutBytes: stdout.length,
      stderrBytes: 0,
      attempts: 1,
      aborted: false,
    });
  });

  it("reports a non-zero exit with the sizes of what the plugin wrote", async () => {
    const debug = join(dir, "debug");
    await writeDebug(debug, { reportError: "banana", reportStderr: "12345" });
    const env = envWith({
      CNI_COMMAND: "DEL",
      CNI_CONTAINERID: "c1",
      CNI_IFNAME: "net1",
      CNI_PATH: dir,
      CNI_ARGS: `DEBUG=${debug}`,
    });
    const error = await rejection(
      exec.execPlugin(noopPath, enc('{"cniVersion":"1.1.0","name":"n","type":"noop"}'), env),
    );
    expect(error.message).toBe("banana");
    expect(recorder.names()).toEqual(failed("exec"));
    const m = message();
    expect(m).toMatchObject({
      command: "DEL",
      containerID: "c1",
      ifName: "net1",
      exitCode: 1,
      signal: undefined,
      stderrBytes: 5,
      attempts: 1,
      aborted: false,
      traceContext: undefined,
    });
    expect(m.stdoutBytes).toBeGreaterThan(0);
    expect(m.error).toBe(error);
  });

  it("reports a plugin that cannot start: no exit code, one attempt", async () => {
    await rejection(exec.execPlugin(join(dir, "missing"), enc("{}"), []));
    expect(recorder.names()).toEqual(failed("exec"));
    expect(message()).toMatchObject({ exitCode: undefined, signal: undefined, attempts: 1 });
  });

  it("reports a run aborted before it started: aborted, no attempt", async () => {
    const error = await rejection(
      exec.execPlugin("/usr/bin/env", enc("{}"), [], { signal: AbortSignal.abort() }),
    );
    expect(recorder.names()).toEqual(failed("exec"));
    expect(message()).toMatchObject({ aborted: true, attempts: 0, exitCode: undefined });
    expect(message().error).toBe(error);
  });

  it("passes nothing for a malformed traceparent", async () => {
    const stdout = await exec.execPlugin("/usr/bin/env", enc("{}"), ["A=1"], {
      traceContext: { traceparent: "00-bad", baggage: "k=v" },
    });
    expect(Buffer.from(stdout).toString()).toBe("A=1\n");
    expect(message().traceContext).toBeUndefined();
  });
});
