/**
 * The fake executor shipped for users' tests (upstream pkg/invoke/fakes), and defaultExec.
 */
import { describe, expect, it } from "vitest";
import {
  argsFromEnv,
  DefaultExec,
  defaultExec,
  execPluginWithoutResult,
  execPluginWithResult,
  FakeCNIArgs,
  FakeExec,
  getVersionInfo,
} from "../../src/invoke/index.js";
import { pluginSupports } from "../../src/version/index.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const conf = enc('{"cniVersion":"1.0.0","name":"n","type":"t"}');

describe("FakeExec", () => {
  it("records every call in order, the last one in execPluginCall.received", async () => {
    const fake = new FakeExec();
    fake.execPluginCall.returns.resultBytes = "{}";
    await execPluginWithoutResult("/p/one", conf, new FakeCNIArgs(["A=1"]), fake);
    await execPluginWithoutResult("/p/two", conf, new FakeCNIArgs(["B=2"]), fake);
    expect(fake.calls.map((c) => c.pluginPath)).toEqual(["/p/one", "/p/two"]);
    expect(fake.calls.map((c) => c.environ)).toEqual([["A=1"], ["B=2"]]);
    expect(fake.execPluginCall.received.pluginPath).toBe("/p/two");
  });

  it("answers per call through a handler", async () => {
    const fake = new FakeExec();
    fake.execPluginCall.handler = ({ environ }) =>
      environ?.includes("FAIL=1") ? Promise.reject(new Error("failed to execute plugin")) : "{}";
    await expect(
      execPluginWithResult("/p", conf, new FakeCNIArgs(["FAIL=1"]), fake),
    ).rejects.toThrow("failed to execute plugin");
    const r = await execPluginWithResult("/p", conf, new FakeCNIArgs([]), fake);
    expect(r.version()).toBe("1.0.0");
  });

  it("passes undefined env through for inherited args", async () => {
    const fake = new FakeExec();
    fake.execPluginCall.returns.resultBytes = "{}";
    await execPluginWithoutResult("/p", conf, argsFromEnv(), fake);
    expect(fake.execPluginCall.received.environ).toBeUndefined();
  });

  it("scripts findInPath", async () => {
    const fake = new FakeExec();
    fake.findInPathCall.returns.path = "/opt/cni/bin/bridge";
    expect(await fake.findInPath("bridge", ["/opt/cni/bin"])).toBe("/opt/cni/bin/bridge");
    expect(fake.findInPathCall.received).toEqual({ plugin: "bridge", paths: ["/opt/cni/bin"] });
    fake.findInPathCall.returns.error = new Error('failed to find plugin "x" in path [/a]');
    await expect(fake.findInPath("x", ["/a"])).rejects.toThrow("failed to find plugin");
  });

  it("decodes VERSION output for real unless scripted", async () => {
    const fake = new FakeExec();
    fake.execPluginCall.returns.resultBytes =
      '{"cniVersion":"1.0.0","supportedVersions":["0.4.0","1.0.0"]}';
    expect((await getVersionInfo("/p", fake)).supportedVersions()).toEqual(["0.4.0", "1.0.0"]);
    fake.decodeCall.returns.pluginInfo = pluginSupports("9.9.9");
    expect((await getVersionInfo("/p", fake)).supportedVersions()).toEqual(["9.9.9"]);
    fake.decodeCall.returns.error = new Error("bad");
    await expect(getVersionInfo("/p", fake)).rejects.toThrow("bad");
  });
});

describe("defaultExec", () => {
  it("is one shared DefaultExec, with upstream's settings", () => {
    const exec = defaultExec();
    expect(exec).toBeInstanceOf(DefaultExec);
    expect(defaultExec()).toBe(exec);
    expect(exec.stderr).toBe(process.stderr);
    expect(exec.graceMs).toBe(3000);
  });

  it("gives a new instance for options", () => {
    const exec = defaultExec({ graceMs: 10, stderr: null });
    expect(exec).not.toBe(defaultExec());
    expect(exec.graceMs).toBe(10);
    expect(exec.stderr).toBeNull();
  });
});
