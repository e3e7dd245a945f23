/**
 * Upstream's pluginErr mapping, case by case, and the PluginExecError it builds.
 */
import { describe, expect, it } from "vitest";
import { CNIError, PluginExecError } from "../../src/errors/index.js";
import { pluginErr } from "../../src/invoke/plugin-error.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const none = new Uint8Array();

function run(stdout: string, stderr: string, reason = "exit status 1") {
  return pluginErr({
    pluginPath: "/opt/cni/bin/p",
    stdout: enc(stdout),
    stderr: enc(stderr),
    exitCode: 1,
    reason,
  });
}

describe("pluginErr", () => {
  it("no stdout, no stderr: netplugin failed with no error message", () => {
    const e = run("", "");
    expect(e.message).toBe("netplugin failed with no error message: exit status 1");
    expect(e.code).toBe(0);
    expect(e.details).toBe("");
  });

  it("no stdout, stderr: netplugin failed: %q of stderr", () => {
    expect(run("", "some stderr message").message).toBe(
      'netplugin failed: "some stderr message": exit status 1',
    );
    expect(run("", "line\n\xff").message).toBe('netplugin failed: "line\\nÿ": exit status 1');
    const raw = pluginErr({
      pluginPath: "p",
      stdout: none,
      stderr: new Uint8Array([0x6f, 0x6b, 0xc3]),
      reason: "signal: killed",
    });
    expect(raw.message).toBe('netplugin failed: "ok\\xc3": signal: killed');
  });

  it("stdout holding an error object: the plugin's code, msg and details", () => {
    const e = run('{"code":7,"msg":"bad config","details":"no name"}', "ignored");
    expect(e).toBeInstanceOf(PluginExecError);
    expect(e).toBeInstanceOf(CNIError);
    expect(e.code).toBe(7);
    expect(e.msg).toBe("bad config");
    expect(e.details).toBe("no name");
    expect(e.message).toBe("bad config; no name");
    // The spec's error object inside the error's JSON (issue 42: the whole story, no stack).
    expect(e.toJSON()).toMatchObject({ code: 7, msg: "bad config", details: "no name" });
    expect(e.toJSON()).toMatchObject({
      id: "LIBCNI_ERR_PLUGIN_EXEC",
      pluginPath: "/opt/cni/bin/p",
    });
    expect(e.exitCode).toBe(1);
    expect(new TextDecoder().decode(e.stderr)).toBe("ignored");
  });

  it("decodes the error object as Go does: keys case-insensitive, unknown keys ignored", () => {
    const e = run('{"CODE":4,"Msg":"x","cniVersion":"1.0.0"}', "");
    expect(e.code).toBe(4);
    expect(e.msg).toBe("x");
  });

  it("stdout not JSON: the diagnostic-parsing message with Go's syntax error", () => {
    expect(run("oops", "").message).toBe(
      `netplugin failed but error parsing its diagnostic message "oops": invalid character 'o' looking for beginning of value`,
    );
    expect(run('{"code":1', "").message).toBe(
      `netplugin failed but error parsing its diagnostic message "{\\"code\\":1": unexpected end of JSON input`,
    );
  });

  it("a field of the wrong type: Go's type error, the valid fields still decoded", () => {
    const e = run('{"code":7,"msg":5,"details":"d"}', "");
    expect(e.message).toBe(
      `netplugin failed but error parsing its diagnostic message "{\\"code\\":7,\\"msg\\":5,\\"details\\":\\"d\\"}": json: cannot unmarshal number into Go struct field Error.msg of type string; d`,
    );
    expect(e.code).toBe(7);
    expect(e.details).toBe("d");
  });

  it("a negative or fractional code is Go's type error", () => {
    expect(run('{"code":-1,"msg":"m"}', "").msg).toContain(
      "json: cannot unmarshal number -1 into Go struct field Error.code of type uint",
    );
    expect(run('{"code":1.5,"msg":"m"}', "").msg).toContain(
      "json: cannot unmarshal number 1.5 into Go struct field Error.code of type uint",
    );
  });

  it("a top-level array is Go's type error naming types.Error", () => {
    expect(run("[1]", "").msg).toBe(
      `netplugin failed but error parsing its diagnostic message "[1]": json: cannot unmarshal array into Go value of type types.Error`,
    );
  });

  it("deviation: JSON without a msg ({} , null, a result) gets a clear message instead of an empty one", () => {
    for (const out of ["{}", "null", '{"cniVersion":"1.0.0","ips":[]}']) {
      const e = run(out, "");
      expect(e.code).toBe(0);
      expect(e.msg).not.toBe("");
      expect(e.msg).toMatch(
        /^netplugin failed with no error message in its output ".*": exit status 1$/,
      );
    }
    expect(run("{}", "why\n").msg).toBe(
      'netplugin failed with no error message in its output "{}" (stderr "why\\n"): exit status 1',
    );
    // A code without a message keeps its code.
    expect(run('{"code":11}', "").code).toBe(11);
  });
});

describe("PluginExecError", () => {
  it("is recognised across two copies of the library (brand, not prototype)", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("libcni.error.ids")]: ["LIBCNI_ERR_PLUGIN_EXEC", "LIBCNI_ERR_CNI", "LIBCNI_ERR"],
    });
    expect(foreign).toBeInstanceOf(PluginExecError);
    expect(foreign).toBeInstanceOf(CNIError);
    expect(new CNIError(1, "plain")).not.toBeInstanceOf(PluginExecError);
    expect(new Error("x")).not.toBeInstanceOf(PluginExecError);
  });

  it("carries the run's story and its cause", () => {
    const cause = new Error("spawn ENOENT");
    const e = new PluginExecError(0, "m", "", {
      pluginPath: "/p",
      stdout: enc("o"),
      stderr: enc("e"),
      signal: "SIGKILL",
      aborted: true,
      cause,
    });
    expect(e.name).toBe("PluginExecError");
    expect(e.pluginPath).toBe("/p");
    expect(e.signal).toBe("SIGKILL");
    expect(e.exitCode).toBeUndefined();
    expect(e.aborted).toBe(true);
    expect(e.cause).toBe(cause);
    expect(JSON.stringify(e)).toBe(
      '{"name":"PluginExecError","id":"LIBCNI_ERR_PLUGIN_EXEC","message":"m","code":0,"msg":"m",' +
        '"pluginPath":"/p","signal":"SIGKILL","stdout":"o","stderr":"e","aborted":true,' +
        '"cause":{"name":"Error","message":"spawn ENOENT"}}',
    );
  });
});
