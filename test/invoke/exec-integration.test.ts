/**
 * execPluginWithResult / execPluginWithoutResult through the default exec and the noop plugin:
 * Args become the plugin's environment, the config its stdin, its stdout the result.
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import {
  Args,
  DefaultExec,
  execPluginWithoutResult,
  execPluginWithResult,
  PluginExecError,
} from "../../src/invoke/index.js";
import { Result040 } from "../../src/types/index.js";
import { noopPath, readDebug, writeDebug } from "../fixtures/plugins/noop-debug.js";
import { fixture, makeTempDir, rejection, removeTempDir } from "./helpers.js";

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe("exec helpers against a real plugin", () => {
  let dir: string;
  let debugFile: string;
  const exec = new DefaultExec({ stderr: null, graceMs: 500 });
  const netconf = enc('{"cniVersion":"0.4.0","name":"net","type":"noop"}');

  beforeEach(async () => {
    dir = await makeTempDir();
    debugFile = join(dir, "debug");
  });
  afterEach(async () => {
    await removeTempDir(dir);
  });

  const args = (command: string): Args =>
    new Args({
      command,
      containerID: "ctr-1",
      netNS: "/var/run/netns/x",
      ifName: "eth3",
      path: "/opt/cni/bin:/usr/lib/cni",
      pluginArgs: [
        ["DEBUG", ""],
        ["K", "V"],
      ],
    });

  it("ADD: the env from Args, the config on stdin, the result in the plugin's version", async () => {
    await writeDebug(debugFile, {
      reportResult: '{"ips":[{"version":"4","address":"10.0.0.2/24"}]}',
    });
    const a = args("ADD");
    a.pluginArgs = [
      ["DEBUG", debugFile],
      ["K", "V"],
    ];
    const result = await execPluginWithResult(noopPath, netconf, a, exec);
    // No cniVersion in the output: the config's (0.4.0) is assumed; never converted.
    expect(result).toBeInstanceOf(Result040);
    expect(marshal(result)).toBe(
      '{"cniVersion":"0.4.0","ips":[{"version":"4","address":"10.0.0.2/24"}],"dns":{}}',
    );
    const seen = await readDebug(debugFile);
    expect(seen.command).toBe("ADD");
    expect(seen.cmdArgs.stdinData).toEqual(netconf);
    expect(seen.env).toEqual({
      CNI_COMMAND: "ADD",
      CNI_CONTAINERID: "ctr-1",
      CNI_NETNS: "/var/run/netns/x",
      CNI_ARGS: `DEBUG=${debugFile};K=V`,
      CNI_IFNAME: "eth3",
      CNI_PATH: "/opt/cni/bin:/usr/lib/cni",
    });
  });

  it("DEL: no result needed, the plugin's error passed through with its code", async () => {
    await writeDebug(debugFile, { reportError: "gone", reportErrorCode: 3 });
    const a = new Args({ ...args("DEL"), pluginArgsStr: `DEBUG=${debugFile}` });
    const error = await rejection(execPluginWithoutResult(noopPath, netconf, a, exec));
    expect(error).toBeInstanceOf(PluginExecError);
    expect(error).toMatchObject({ code: 3, msg: "gone", exitCode: 1 });
    expect((await readDebug(debugFile)).command).toBe("DEL");
  });

  it("an abort reaches the real plugin through the helpers", async () => {
    const error = await rejection(
      execPluginWithoutResult(fixture("sleep"), netconf, args("DEL"), exec, {
        signal: AbortSignal.timeout(200),
      }),
    );
    expect(error.message).toBe(
      "netplugin failed with no error message: signal: terminated (timed out)",
    );
  });
});
