/**
 * RawExec against the noop plugin (upstream pkg/invoke/raw_exec_test.go), plus the stderr sink.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PluginExecError } from "../../src/errors/index.js";
import { CNIError, InvalidArgumentError } from "../../src/errors/index.js";
import { paced, pacer } from "../../src/internal/pacer.js";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { expectOptionsRefused } from "../errors/options-refusal.js";
import {
  type NoopScript,
  noopPath,
  readDebug,
  writeDebug,
} from "../fixtures/plugins/noop-debug.js";
import { makeTempDir, rejection, removeTempDir } from "./helpers.js";

const reportResult = '{ "some": "result" }';
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("RawExec", () => {
  let dir: string;
  let debugFileName: string;
  let script: NoopScript;
  let environ: string[];
  let stdin: Uint8Array;
  let execer: RawExec;

  beforeEach(async () => {
    dir = await makeTempDir("cni_debug");
    debugFileName = join(dir, "debug");
    script = { reportResult, reportStderr: "some stderr message" };
    await writeDebug(debugFileName, script);
    environ = [
      "CNI_COMMAND=ADD",
      "CNI_CONTAINERID=some-container-id",
      `CNI_ARGS=DEBUG=${debugFileName}`,
      "CNI_NETNS=/some/netns/path",
      "CNI_PATH=/some/bin/path",
      "CNI_IFNAME=some-eth0",
      // The fixture is a node script: `env` needs PATH to find node.
      `PATH=${process.env.PATH ?? ""}`,
    ];
    stdin = new TextEncoder().encode(
      '{"name": "raw-exec-test", "some":"stdin-json", "cniVersion": "0.3.1"}',
    );
    execer = new RawExec({ stderr: null });
  });

  afterEach(async () => {
    await removeTempDir(dir);
  });

  it("runs the plugin with the given stdin and environment", async () => {
    await execer.execPlugin(noopPath, stdin, environ);
    const debug = await readDebug(debugFileName);
    expect(debug.command).toBe("ADD");
    expect(debug.cmdArgs.stdinData).toEqual(stdin);
    expect(debug.cmdArgs.netns).toBe("/some/netns/path");
    expect(debug.env.CNI_IFNAME).toBe("some-eth0");
    expect(debug.env.CNI_CONTAINERID).toBe("some-container-id");
  });

  it("builds the start's environment as a paced step: past the turn's budget, on a later turn", async () => {
    // This turn's budget spent by a step of 2 ms.
    void paced(() => {
      const t = performance.now();
      while (performance.now() - t < 2);
    });
    const run = execer.execPlugin(noopPath, stdin, environ);
    expect(pacer.waiting).toBe(1);
    expect(dec(await run)).toBe(reportResult);
    expect(pacer.waiting).toBe(0);
  });

  it("returns the resulting stdout as bytes", async () => {
    const resultBytes = await execer.execPlugin(noopPath, stdin, environ);
    expect(resultBytes).toBeInstanceOf(Uint8Array);
    expect(dec(resultBytes)).toBe(reportResult);
  });

  describe("when the Stderr writer is set", () => {
    it("forwards any stderr bytes to the Stderr writer", async () => {
      const chunks: Uint8Array[] = [];
      execer = new RawExec({ stderr: { write: (c: Uint8Array) => chunks.push(c) } });
      await execer.execPlugin(noopPath, stdin, environ);
      expect(chunks.map(dec).join("")).toBe("some stderr message");
    });

    it("forwards to process.stderr by default", async () => {
      const spy = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
      try {
        await new RawExec().execPlugin(noopPath, stdin, environ);
        const written = spy.mock.calls.map(([c]) => (typeof c === "string" ? c : dec(c)));
        expect(written.join("")).toBe("some stderr message");
      } finally {
        spy.mockRestore();
      }
    });

    it("does not forward the stderr of a failed plugin (it is in the error)", async () => {
      const chunks: Uint8Array[] = [];
      execer = new RawExec({ stderr: { write: (c: Uint8Array) => chunks.push(c) } });
      await writeDebug(debugFileName, { ...script, reportResult: "", exitWithCode: 1 });
      const error = (await rejection(
        execer.execPlugin(noopPath, stdin, environ),
      )) as PluginExecError;
      expect(chunks).toHaveLength(0);
      expect(dec(error.stderr)).toBe("some stderr message");
    });

    it("survives a sink that throws", async () => {
      execer = new RawExec({
        stderr: {
          write: () => {
            throw new Error("EPIPE");
          },
        },
      });
      expect(dec(await execer.execPlugin(noopPath, stdin, environ))).toBe(reportResult);
    });
  });

  describe("when the plugin errors", () => {
    it("and writes valid error JSON to stdout: wraps and returns the error", async () => {
      await writeDebug(debugFileName, { ...script, reportResult: "", reportError: "banana" });
      const error = await rejection(execer.execPlugin(noopPath, stdin, environ));
      expect(error.message).toBe("banana");
      expect(error).toBeInstanceOf(CNIError);
      expect((error as CNIError).code).toBe(999);
      expect((error as PluginExecError).exitCode).toBe(1);
    });

    it("keeps the plugin's own code", async () => {
      await writeDebug(debugFileName, {
        reportError: "plugin not available",
        reportErrorCode: 50,
      });
      const error = (await rejection(execer.execPlugin(noopPath, stdin, environ))) as CNIError;
      expect(error.code).toBe(50);
      expect(error.msg).toBe("plugin not available");
    });

    it("and writes to stderr: returns an error message with stderr output", async () => {
      await writeDebug(debugFileName, { ...script, reportResult: "", exitWithCode: 1 });
      const error = await rejection(execer.execPlugin(noopPath, stdin, environ));
      expect(error.message).toBe('netplugin failed: "some stderr message": exit status 1');
    });
  });

  it("when the plugin errors with no output on stdout or stderr: returns the exec error message", async () => {
    await writeDebug(debugFileName, { exitWithCode: 1 });
    const error = await rejection(execer.execPlugin(noopPath, stdin, environ));
    expect(error.message).toBe("netplugin failed with no error message: exit status 1");
    expect((error as PluginExecError).exitCode).toBe(1);
  });

  it("when the system is unable to execute the plugin: returns the error", async () => {
    const error = await rejection(
      execer.execPlugin("/tmp/some/invalid/plugin/path", stdin, environ),
    );
    expect(error.message).toContain("/tmp/some/invalid/plugin/path");
    expect(error.message).toBe(
      "netplugin failed with no error message: fork/exec /tmp/some/invalid/plugin/path: no such file or directory",
    );
    expect((error.cause as NodeJS.ErrnoException).code).toBe("ENOENT");
  });

  it("a file that is not executable: permission denied", async () => {
    const error = await rejection(execer.execPlugin(debugFileName, stdin, environ));
    expect(error.message).toBe(
      `netplugin failed with no error message: fork/exec ${debugFileName}: permission denied`,
    );
  });

  it("a NUL in the environment or the path: Go's exec and EINVAL texts, not Node's argument error", async () => {
    const inEnv = await rejection(execer.execPlugin(noopPath, stdin, ["A=a\0b"]));
    expect(inEnv.message).toBe(
      "netplugin failed with no error message: exec: environment variable contains NUL",
    );
    const inPath = await rejection(execer.execPlugin("/bin/tr\0ue", stdin, environ));
    expect(inPath.message).toBe(
      "netplugin failed with no error message: fork/exec /bin/tr\0ue: invalid argument",
    );
  });

  it("refuses stdin that is not bytes and a signal that is not an AbortSignal, before a run is queued", async () => {
    const none = undefined as unknown as Uint8Array;
    expect((await rejection(execer.execPlugin(noopPath, none, environ))).message).toBe(
      "stdin must be a Uint8Array",
    );
    // An AbortController given for its signal: refused, and nothing left to throw later.
    const signal = new AbortController() as unknown as AbortSignal;
    const error = await rejection(execer.execPlugin(noopPath, stdin, environ, { signal }));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toBe("signal must be an AbortSignal");
    await new Promise((r) => setTimeout(r, 20));
  });

  it("a bare name Go would look up in $PATH", async () => {
    const error = await rejection(execer.execPlugin("no-such-cni-plugin", stdin, environ));
    expect(error.message).toBe(
      'netplugin failed with no error message: exec: "no-such-cni-plugin": executable file not found in $PATH',
    );
  });

  it("passes exactly the given environment, de-duplicated with the last value winning", async () => {
    await execer.execPlugin(noopPath, stdin, [...environ, "CNI_IFNAME=eth9"]);
    const debug = await readDebug(debugFileName);
    expect(debug.cmdArgs.ifName).toBe("eth9");
    expect(Object.keys(debug.env).sort()).toEqual([
      "CNI_ARGS",
      "CNI_COMMAND",
      "CNI_CONTAINERID",
      "CNI_IFNAME",
      "CNI_NETNS",
      "CNI_PATH",
    ]);
  });

  it("inherits this process's environment when the env is undefined", async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      CNI_COMMAND: "DEL",
      CNI_CONTAINERID: "inherited",
      CNI_ARGS: `DEBUG=${debugFileName}`,
      CNI_NETNS: "/ns",
      CNI_PATH: "/p",
      CNI_IFNAME: "eth0",
    });
    try {
      await execer.execPlugin(noopPath, stdin, undefined);
    } finally {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    }
    const debug = await readDebug(debugFileName);
    expect(debug.command).toBe("DEL");
    expect(debug.cmdArgs.containerID).toBe("inherited");
  });

  it("rejects nonsensical options at construction", () => {
    expect(() => new RawExec({ graceMs: -1 })).toThrow(
      "RawExec option graceMs must be a non-negative integer, got -1",
    );
    let thrown: unknown;
    try {
      new RawExec({ graceMs: -1 });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect((thrown as InvalidArgumentError).id).toBe("LIBCNI_ERR_INVALID_ARGUMENT");
    expect((thrown as InvalidArgumentError).argument).toBe("graceMs");
    expect(() => new RawExec({ maxOutputBytes: Number.NaN })).toThrow(InvalidArgumentError);
    expect(() => new RawExec({ textBusyRetries: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => new RawExec({ textBusyDelayMs: Number.POSITIVE_INFINITY })).toThrow(
      InvalidArgumentError,
    );
    expect(new RawExec({ graceMs: 0, maxOutputBytes: 0 }).graceMs).toBe(0);
  });

  it("refuses options that are no object, at construction and per call, with one error", async () => {
    await expectOptionsRefused(async (options) => new RawExec(options));
    await expectOptionsRefused((options) => execer.execPlugin(noopPath, stdin, environ, options));
  });

  it("refuses an option spelled but for case: netNS would run the plugins in this namespace", () => {
    expect(() => new RawExec({ netNS: "/run/netns/x" } as never)).toThrow(
      'options has "netNS": the field is spelled "netns"',
    );
  });
});
