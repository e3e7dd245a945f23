/**
 * Delegation (upstream pkg/invoke/delegate_test.go), with GC added (upstream has no GC test).
 */
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import {
  delegateAdd,
  delegateCheck,
  delegateDel,
  delegateGC,
  delegateStatus,
  FakeExec,
} from "../../src/invoke/index.js";
import { parseCIDR, Result100 } from "../../src/types/index.js";
import { current } from "../../src/version/index.js";
import { noopPath, readDebug, writeDebug } from "../fixtures/plugins/noop-debug.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

const cniKeys = [
  "CNI_COMMAND",
  "CNI_ARGS",
  "CNI_PATH",
  "CNI_NETNS",
  "CNI_IFNAME",
  "CNI_CONTAINERID",
];

describe("Delegate", () => {
  let dir: string;
  let pluginName: string;
  let netConf: Uint8Array;
  let debugFileName: string;
  let expectedResult: Result100;

  beforeEach(async () => {
    netConf = new TextEncoder().encode(marshal({ name: "delegate-test", cniVersion: current() }));
    expectedResult = new Result100({
      cniVersion: "1.1.0",
      ips: [{ address: parseCIDR("10.1.2.3/24") }],
    });
    dir = await makeTempDir("cni_delegate");
    // Upstream's plugin is named "noop"; ours is a node script, linked under that name.
    const binDir = join(dir, "bin");
    await mkdir(binDir);
    await symlink(noopPath, join(binDir, "noop"));
    debugFileName = join(dir, "debug");
    await writeDebug(debugFileName, { reportResult: marshal(expectedResult) });
    pluginName = "noop";
    process.env.CNI_ARGS = `DEBUG=${debugFileName}`;
    process.env.CNI_PATH = binDir;
    process.env.CNI_NETNS = "/tmp/some/netns/path";
    process.env.CNI_IFNAME = "eth7";
    process.env.CNI_CONTAINERID = "container";
  });

  afterEach(async () => {
    for (const k of cniKeys) delete process.env[k];
    await removeTempDir(dir);
  });

  describe("delegateAdd", () => {
    beforeEach(() => {
      process.env.CNI_COMMAND = "ADD";
    });

    it("finds and execs the named plugin", async () => {
      const result = await delegateAdd(pluginName, netConf);
      expect(result).toBeInstanceOf(Result100);
      expect(marshal(result)).toBe(marshal(expectedResult));
      const invocation = await readDebug(debugFileName);
      expect(invocation.command).toBe("ADD");
      expect(invocation.cmdArgs.ifName).toBe("eth7");
      expect(invocation.cmdArgs.stdinData).toEqual(netConf);
    });

    it("runs ADD even when the existing command is not ADD, leaving the process env alone", async () => {
      process.env.CNI_COMMAND = "NOPE";
      const result = await delegateAdd(pluginName, netConf);
      expect(marshal(result)).toBe(marshal(expectedResult));
      const invocation = await readDebug(debugFileName);
      expect(invocation.command).toBe("ADD");
      expect(invocation.cmdArgs.ifName).toBe("eth7");
      expect(process.env.CNI_COMMAND).toBe("NOPE");
    });

    it("returns a useful error when the plugin cannot be found", async () => {
      await expect(delegateAdd("non-existent-plugin", netConf)).rejects.toThrow(
        /^failed to find plugin/,
      );
    });
  });

  const noResultVerbs = [
    ["CHECK", delegateCheck],
    ["DEL", delegateDel],
    ["STATUS", delegateStatus],
    ["GC", delegateGC],
  ] as const;

  for (const [verb, delegate] of noResultVerbs) {
    describe(`delegate${verb === "GC" ? "GC" : verb.charAt(0) + verb.slice(1).toLowerCase()}`, () => {
      beforeEach(() => {
        process.env.CNI_COMMAND = verb;
      });

      it("finds and execs the named plugin", async () => {
        await delegate(pluginName, netConf);
        const invocation = await readDebug(debugFileName);
        expect(invocation.command).toBe(verb);
        if (verb !== "STATUS" && verb !== "GC") expect(invocation.cmdArgs.ifName).toBe("eth7");
      });

      it(`runs ${verb} even when the existing command is another one`, async () => {
        process.env.CNI_COMMAND = "NOPE";
        await delegate(pluginName, netConf);
        const invocation = await readDebug(debugFileName);
        expect(invocation.command).toBe(verb);
        expect(process.env.CNI_COMMAND).toBe("NOPE");
      });

      it("returns a useful error when the plugin cannot be found", async () => {
        await expect(delegate("non-existent-plugin", netConf)).rejects.toThrow(
          /^failed to find plugin/,
        );
      });
    });
  }

  it("passes the plugin's error through", async () => {
    process.env.CNI_COMMAND = "DEL";
    await writeDebug(debugFileName, { reportError: "no can do", reportErrorCode: 7 });
    await expect(delegateDel(pluginName, netConf)).rejects.toMatchObject({
      code: 7,
      msg: "no can do",
    });
  });

  it("looks the plugin up in this process's CNI_PATH through the given exec", async () => {
    process.env.CNI_PATH = "/a:/b";
    process.env.CNI_COMMAND = "ADD";
    const fake = new FakeExec();
    fake.findInPathCall.returns.path = "/b/ipam";
    fake.execPluginCall.returns.resultBytes = '{"cniVersion":"1.1.0"}';
    await delegateAdd("ipam", netConf, fake);
    expect(fake.findInPathCall.received).toEqual({ plugin: "ipam", paths: ["/a", "/b"] });
    expect(fake.execPluginCall.received.pluginPath).toBe("/b/ipam");
    expect(fake.execPluginCall.received.stdinData).toBe(netConf);
    expect(fake.execPluginCall.received.environ).toContain("CNI_COMMAND=ADD");
    expect(fake.execPluginCall.received.environ).toContain("CNI_PATH=/a:/b");
  });

  it("an unset CNI_PATH means no paths (Go's SplitList of an empty string)", async () => {
    delete process.env.CNI_PATH;
    await expect(delegateCheck(pluginName, netConf)).rejects.toThrow(/^no paths provided$/);
  });
});
