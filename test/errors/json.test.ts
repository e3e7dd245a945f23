/**
 * `JSON.stringify(error)` of every library error (issue 42): a logger that writes errors as
 * JSON keeps the story (name, stable id, message, the class's fields, the cause summarised),
 * never the stack, and never throws.
 */
import { describe, expect, it } from "vitest";
import {
  CNIError,
  LibcniError,
  MultiError,
  PluginAbortedError,
  PluginChainError,
  PluginExecError,
  PodSetupError,
  WrappedError,
} from "../../src/errors/index.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const json = (value: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(value));

describe("JSON.stringify of a library error", () => {
  it("writes name, id and message, and never the stack", () => {
    const e = new LibcniError("boom");
    expect(json(e)).toEqual({ name: "LibcniError", id: "LIBCNI_ERR", message: "boom" });
    expect(JSON.stringify(e)).not.toContain("stack");
    expect(JSON.stringify(e)).not.toContain("at ");
  });

  it("a plugin's failure keeps the plugin path, code, msg, details, exit and output as text", () => {
    const cause = Object.assign(new Error("spawn /opt/cni/bin/bridge EACCES"), {
      code: "EACCES",
      errno: -13,
      syscall: "spawn /opt/cni/bin/bridge",
      path: "/opt/cni/bin/bridge",
    });
    const e = new PluginExecError(7, "bad config", "no name", {
      pluginPath: "/opt/cni/bin/bridge",
      exitCode: 1,
      stdout: enc('{"code":7}'),
      stderr: enc("oops\n"),
      cause,
    });
    expect(json(e)).toEqual({
      name: "PluginExecError",
      id: "LIBCNI_ERR_PLUGIN_EXEC",
      message: "bad config; no name",
      code: 7,
      msg: "bad config",
      details: "no name",
      pluginPath: "/opt/cni/bin/bridge",
      exitCode: 1,
      stdout: '{"code":7}',
      stderr: "oops\n",
      aborted: false,
      cause: {
        name: "Error",
        message: "spawn /opt/cni/bin/bridge EACCES",
        code: "EACCES",
        errno: -13,
        syscall: "spawn /opt/cni/bin/bridge",
        path: "/opt/cni/bin/bridge",
      },
    });
  });

  it("a CNIError holds the spec's error object (details omitted when empty, as on the wire)", () => {
    const e = new CNIError(11, "try again");
    const out = json(e);
    expect(out).toEqual({
      name: "CNIError",
      id: "LIBCNI_ERR_CNI",
      message: "try again",
      code: 11,
      msg: "try again",
    });
    // What a decoder of the spec's error object reads: the same code and msg.
    expect({ code: out.code, msg: out.msg }).toEqual({ code: 11, msg: "try again" });
    // The exact wire bytes are print()'s, unchanged.
    expect(e.print()).toBe('{\n    "code": 11,\n    "msg": "try again"\n}');
  });

  it("follows the cause chain, a library error as its own JSON", () => {
    const plugin = new PluginExecError(0, "netplugin failed", "", {
      pluginPath: "/p/noop",
      stdout: new Uint8Array(0),
      stderr: new Uint8Array(0),
    });
    const chain = new PluginChainError("add", 'type="noop" name="n"', "noop", plugin, 0);
    const out = json(new WrappedError("set up", chain));
    expect(out.id).toBe("LIBCNI_ERR_WRAPPED");
    const c1 = out.cause as Record<string, unknown>;
    expect(c1).toMatchObject({ id: "LIBCNI_ERR_PLUGIN_CHAIN", verb: "add", pluginType: "noop" });
    const c2 = c1.cause as Record<string, unknown>;
    expect(c2).toMatchObject({ id: "LIBCNI_ERR_PLUGIN_EXEC", pluginPath: "/p/noop", stdout: "" });
  });

  it("summarises errors held in fields: a pod's failures, a MultiError's errors", () => {
    const failure = { network: "pods", ifName: "eth0", error: new CNIError(999, "x") };
    const out = json(new PodSetupError("pod1", failure, [], [], []));
    expect(out.failure).toEqual({
      network: "pods",
      ifName: "eth0",
      error: { name: "CNIError", id: "LIBCNI_ERR_CNI", message: "x", code: 999, msg: "x" },
    });
    expect(out.cause).toMatchObject({ id: "LIBCNI_ERR_CNI", code: 999 });
    const multi = json(new MultiError([new Error("a"), new CNIError(4, "b")], "lines"));
    expect(multi.errors).toEqual([
      { name: "Error", message: "a" },
      { name: "CNIError", id: "LIBCNI_ERR_CNI", message: "b", code: 4, msg: "b" },
    ]);
  });

  it("an abort keeps its reason: a TimeoutError summarised, timedOut on the error", () => {
    const reason = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    const e = new PluginAbortedError(0, "netplugin failed with no error message", "", {
      pluginPath: "/p/sleep",
      signal: "SIGTERM",
      stdout: new Uint8Array(0),
      stderr: new Uint8Array(0),
      cause: reason,
    });
    expect(json(e)).toMatchObject({
      id: "LIBCNI_ERR_PLUGIN_ABORTED",
      timedOut: true,
      aborted: true,
      signal: "SIGTERM",
      cause: { name: "TimeoutError", message: "The operation was aborted due to timeout" },
    });
  });

  it("cuts long output, and ends a cause cycle", () => {
    const e = new PluginExecError(0, "m", "", {
      pluginPath: "/p",
      stdout: new Uint8Array(10_000).fill(0x61),
      stderr: new Uint8Array(0),
    });
    expect(json(e).stdout).toBe(`${"a".repeat(4096)}… (10000 bytes)`);
    const a = new Error("a") as Error & { cause?: unknown };
    const b = new WrappedError("b", a);
    a.cause = b;
    const text = JSON.stringify(b);
    expect(text.length).toBeLessThan(5_000);
    expect(JSON.parse(text).cause.cause.id).toBe("LIBCNI_ERR_WRAPPED");
  });

  it("never throws, whatever the cause: a value that cannot be printed", () => {
    const e = new WrappedError("ctx", Object.create(null));
    expect(json(e)).toEqual({
      name: "WrappedError",
      id: "LIBCNI_ERR_WRAPPED",
      message: "ctx: (a value that cannot be printed)",
      cause: "(a value that cannot be printed)",
    });
  });
});
