// Upstream plugins/test/noop/noop_test.go, against this port's noop fixture (built with this
// project's skel), plus the scripting this port adds: command log, CNI_* env, stderr, codes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { decodePluginInfo } from "../../src/version/index.js";
import {
  createCommandLog,
  emptyReportResultMessage,
  type NoopCmdArgs,
  noopPath,
  readCommandLog,
  readDebug,
  stdinText,
  writeDebug,
} from "../fixtures/plugins/noop-debug.js";
import { type RunningPlugin, reap, requireBuild, runPlugin, startPlugin } from "./spawn.js";

const reportResult = `{ "ips": [{ "version": "4", "address": "10.1.2.3/24" }], "dns": {} }`;

let dir: string;
let debugFileName: string;
let env: Record<string, string>;
let stdinData: string;
let args: string;
let expectedCmdArgs: NoopCmdArgs;
let running: RunningPlugin | undefined;

const enc = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, "utf8"));
const run = () => runPlugin(noopPath, env, stdinData);

beforeAll(requireBuild);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cni-noop-"));
  debugFileName = join(dir, "cni_debug");
  await writeDebug(debugFileName, {
    reportResult,
    reportVersionSupport: ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0"],
  });
  args = `DEBUG=${debugFileName};FOO=BAR`;
  env = {
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: "some-container-id",
    CNI_NETNS: "/some/netns/path",
    CNI_IFNAME: "some-eth0",
    CNI_PATH: "/some/bin/path",
    CNI_ARGS: args,
  };
  stdinData = `{"name": "noop-test", "some":"stdin-json", "cniVersion": "0.3.1"}`;
  expectedCmdArgs = {
    containerID: "some-container-id",
    netns: "/some/netns/path",
    ifName: "some-eth0",
    args,
    path: "/some/bin/path",
    netnsOverride: "",
    stdinData: enc(stdinData),
  };
});

afterEach(async () => {
  await reap(running);
  running = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe("No-op plugin", () => {
  it("responds to ADD using the ReportResult debug field", async () => {
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(reportResult));
    expect(r.stdout).toBe(reportResult);
  });

  it("panics when no debug file is given", async () => {
    env.CNI_ARGS = "FOO=BAR";
    const r = await run();
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^panic: test setup error: unable to read debug file: /);
  });

  it("pass previous result 0.3.1 through when ReportResult is PASSTHROUGH", async () => {
    await writeDebug(debugFileName, { reportResult: "PASSTHROUGH" });
    stdinData = `{
	"name":"noop-test",
	"some":"stdin-json",
	"cniVersion": "0.3.1",
	"prevResult": {
		"cniVersion": "0.3.1",
		"ips": [{"version": "4", "address": "10.1.2.15/24"}]
	}
}`;
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      cniVersion: "0.3.1",
      ips: [{ version: "4", address: "10.1.2.15/24" }],
      dns: {},
    });
    // Go's json.Marshal of a 0.3.1 result: struct order, compact, no newline.
    expect(r.stdout).toBe(
      '{"cniVersion":"0.3.1","ips":[{"version":"4","address":"10.1.2.15/24"}],"dns":{}}',
    );
  });

  it("pass previous result 0.4.0 through when ReportResult is PASSTHROUGH", async () => {
    await writeDebug(debugFileName, { reportResult: "PASSTHROUGH" });
    stdinData = `{
	"name":"noop-test",
	"some":"stdin-json",
	"cniVersion": "0.4.0",
	"prevResult": {
		"cniVersion": "0.4.0",
		"ips": [{"version": "4", "address": "10.1.2.15/24"}]
	}
}`;
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "10.1.2.15/24" }],
      dns: {},
    });
  });

  it("injects DNS into previous result when ReportResult is INJECT-DNS", async () => {
    await writeDebug(debugFileName, { reportResult: "INJECT-DNS" });
    stdinData = `{
	"name":"noop-test",
	"some":"stdin-json",
	"cniVersion": "0.4.0",
	"prevResult": {
		"cniVersion": "0.4.0",
		"ips": [{"version": "4", "address": "10.1.2.3/24"}],
		"dns": {}
	}
}`;
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      cniVersion: "0.4.0",
      ips: [{ version: "4", address: "10.1.2.3/24" }],
      dns: { nameservers: ["1.2.3.4"] },
    });
  });

  it("INJECT-DNS on a 1.0.0 config prints a 1.x result (sorted keys)", async () => {
    await writeDebug(debugFileName, {
      reportResult: "INJECT-DNS",
      reportVersionSupport: ["1.0.0"],
    });
    stdinData = `{"name":"n","cniVersion":"1.0.0","prevResult":{"cniVersion":"1.0.0","ips":[{"address":"10.1.2.3/24"}]}}`;
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      '{"cniVersion":"1.0.0","dns":{"nameservers":["1.2.3.4"]},"ips":[{"address":"10.1.2.3/24"}]}',
    );
  });

  it("PASSTHROUGH without a prevResult panics (exit 2), as upstream's nil dereference", async () => {
    await writeDebug(debugFileName, { reportResult: "PASSTHROUGH" });
    const r = await run();
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^panic: runtime error: invalid memory address or nil pointer/);
  });

  it("reports a prevResult of another version family as error 999 (upstream's text)", async () => {
    await writeDebug(debugFileName, { reportResult: "PASSTHROUGH" });
    env.CNI_ARGS = "";
    stdinData = `{"name":"n","cniVersion":"0.3.1","debugFile":${JSON.stringify(debugFileName)},"prevResult":{"cniVersion":"1.0.0"}}`;
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({
      code: 999,
      msg: 'could not parse prevResult: result type supports [0.3.0 0.3.1 0.4.0] but unmarshalled CNIVersion is "1.0.0"',
    });
  });

  it("panics before skel when CNI_ARGS is set and the config cannot be loaded", async () => {
    stdinData = `{"name":"n","cniVersion":"0.3.1","prevResult":{"cniVersion":"1.0.0"}}`;
    const r = await run();
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^panic: test setup error: unable to get debug file path: could not parse prevResult: /,
    );
  });

  it("wraps a config that is not a valid NetConf as upstream's loadConf", async () => {
    env.CNI_ARGS = "";
    stdinData = `{"name":"n","cniVersion":"0.3.1","debugFile":5}`;
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).msg).toBe(
      `failed to load netconf: json: cannot unmarshal number into Go struct field NetConf.debugFile of type string "{\\"name\\":\\"n\\",\\"cniVersion\\":\\"0.3.1\\",\\"debugFile\\":5}"`,
    );
  });

  it("allows passing debug file in config JSON", async () => {
    const newArgs = "FOO=BAR";
    env.CNI_ARGS = newArgs;
    stdinData = `{"name":"noop-test", "some": "stdin-json", "cniVersion": "0.4.0", "debugFile": ${JSON.stringify(debugFileName)}}`;
    expectedCmdArgs.args = newArgs;
    expectedCmdArgs.stdinData = enc(stdinData);
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(reportResult));
    const debug = await readDebug(debugFileName);
    expect(debug.command).toBe("ADD");
    expect(debug.cmdArgs).toEqual(expectedCmdArgs);
  });

  it("records all the args provided by skel.PluginMain", async () => {
    const r = await run();
    expect(r.exitCode).toBe(0);
    const debug = await readDebug(debugFileName);
    expect(debug.command).toBe("ADD");
    expect(debug.cmdArgs).toEqual(expectedCmdArgs);
    // The script survives the call, as upstream rewrites the whole Debug struct.
    expect(debug.reportResult).toBe(reportResult);
  });

  it("records every CNI_* variable it saw and the exact stdin bytes", async () => {
    env.CNI_NETNS_OVERRIDE = "1";
    env.CNI_EXTRA = "x";
    env.NOT_CNI = "y";
    stdinData = `{"name":"noop-test","cniVersion":"0.3.1","weird":"\u00e9 <&> \\u2028"}  `;
    const r = await run();
    expect(r.exitCode).toBe(0);
    const debug = await readDebug(debugFileName);
    expect(debug.env).toEqual({
      CNI_COMMAND: "ADD",
      CNI_CONTAINERID: "some-container-id",
      CNI_NETNS: "/some/netns/path",
      CNI_IFNAME: "some-eth0",
      CNI_PATH: "/some/bin/path",
      CNI_ARGS: args,
      CNI_NETNS_OVERRIDE: "1",
      CNI_EXTRA: "x",
    });
    expect(debug.cmdArgs.netnsOverride).toBe("1");
    expect(stdinText(debug)).toBe(stdinData);
  });

  describe("when the ReportResult debug field is empty", () => {
    beforeEach(async () => {
      await writeDebug(debugFileName, {
        reportVersionSupport: ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0"],
      });
    });

    it("returns no result", async () => {
      const r = await run();
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("");
      expect((await readDebug(debugFileName)).reportResult).toBe("");
    });
  });

  describe("when the ExitWithCode debug field is set", () => {
    beforeEach(async () => {
      await writeDebug(debugFileName, {
        exitWithCode: 3,
        reportVersionSupport: ["0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0"],
      });
    });

    it("returns no result and exits with the expected code", async () => {
      const r = await run();
      expect(r.exitCode).toBe(3);
      expect(r.stdout).toBe("");
      expect((await readDebug(debugFileName)).reportResult).toBe("");
    });

    it("prints the result first when there is one", async () => {
      await writeDebug(debugFileName, { reportResult: '{"a":1}', exitWithCode: 4 });
      const r = await run();
      expect(r.exitCode).toBe(4);
      expect(r.stdout).toBe('{"a":1}');
    });
  });

  describe("when the ReportResult debug field is set", () => {
    const expectedResultString = ` { "result": ${JSON.stringify(emptyReportResultMessage)} }`;

    beforeEach(async () => {
      await writeDebug(debugFileName, { reportResult: expectedResultString });
    });

    it("substitutes a helpful message for the test author", async () => {
      const r = await run();
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe(expectedResultString);
      expect((await readDebug(debugFileName)).reportResult).toBe(expectedResultString);
    });
  });

  describe("when the ReportError debug field is set", () => {
    beforeEach(async () => {
      await writeDebug(debugFileName, { reportError: "banana" });
    });

    it("returns an error to skel.PluginMain, causing the process to exit code 1", async () => {
      const r = await run();
      expect(r.exitCode).toBe(1);
      expect(JSON.parse(r.stdout)).toEqual({ code: 999, msg: "banana" });
      expect(r.stdout).toBe('{\n    "code": 999,\n    "msg": "banana"\n}');
    });

    it("reports ReportErrorCode as the code", async () => {
      await writeDebug(debugFileName, { reportError: "not ready", reportErrorCode: 50 });
      const r = await run();
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toBe('{\n    "code": 50,\n    "msg": "not ready"\n}');
    });
  });

  it("writes ReportStderr to stderr, with the result on stdout", async () => {
    await writeDebug(debugFileName, { reportResult: "{}", reportStderr: "some warning\n" });
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("some warning\n");
    expect(r.stdout).toBe("{}");
  });

  it("prints {} and a note on stderr when neither CNI_ARGS nor the config names a debug file", async () => {
    env.CNI_ARGS = "";
    const r = await run();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("{}");
    expect(r.stderr).toBe("CNI_ARGS or config empty, no debug behavior\n");
  });

  it("fails with a CNI_ARGS pair that is not K=V", async () => {
    env.CNI_ARGS = `DEBUG=${debugFileName};A=B=C`;
    const r = await run();
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("CNI_ARGS invalid key/value pair: [A B C]");
  });

  describe("when the CNI_COMMAND is DEL", () => {
    beforeEach(async () => {
      env.CNI_COMMAND = "DEL";
      await writeDebug(debugFileName, { reportResult: `{ "some": "delete-data" }` });
    });

    it("still does all the debug behavior", async () => {
      const r = await run();
      expect(r.exitCode).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ some: "delete-data" });
      const debug = await readDebug(debugFileName);
      expect(debug.command).toBe("DEL");
      expect(debug.cmdArgs).toEqual(expectedCmdArgs);
    });
  });

  for (const verb of ["CHECK", "GC", "STATUS"]) {
    it(`records ${verb} in a 1.1.0 config`, async () => {
      env.CNI_COMMAND = verb;
      await writeDebug(debugFileName, {});
      stdinData = `{"name":"noop-test","cniVersion":"1.1.0"}`;
      const r = await run();
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toBe("");
      expect((await readDebug(debugFileName)).command).toBe(verb);
    });
  }

  describe("when the CNI_COMMAND is VERSION", () => {
    beforeEach(async () => {
      env.CNI_COMMAND = "VERSION";
      await writeDebug(debugFileName, {
        reportResult,
        reportVersionSupport: ["0.123.0", "0.2.0"],
      });
    });

    it("claims to support the specified versions", async () => {
      const r = await run();
      expect(r.exitCode).toBe(0);
      const info = decodePluginInfo(r.stdout);
      expect(info.supportedVersions().sort()).toEqual(["0.123.0", "0.2.0"].sort());
    });

    it("reports every version (and the bogus 0.-42.0) without CNI_ARGS", async () => {
      env.CNI_ARGS = "";
      stdinData = `{"cniVersion":"1.1.0"}`;
      const r = await run();
      expect(r.stdout).toBe(
        '{"cniVersion":"1.1.0","supportedVersions":["0.-42.0","0.1.0","0.2.0","0.3.0","0.3.1","0.4.0","1.0.0","1.1.0"]}\n',
      );
    });
  });

  it("prints its about text with no CNI_COMMAND", async () => {
    const r = await runPlugin(noopPath, {}, "");
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe(
      "CNI noop plugin v0.7.0\nCNI protocol versions supported: 0.-42.0, 0.1.0, 0.2.0, 0.3.0, 0.3.1, 0.4.0, 1.0.0, 1.1.0\n",
    );
  });

  it("refuses to configure its own netns (code 8), end to end", async () => {
    env.CNI_NETNS = "/proc/self/ns/net";
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(
      `{\n    "code": 8,\n    "msg": "plugin's netns and netns from CNI_NETNS should not be the same"\n}`,
    );
  });

  it("fails like skel says when a required variable is missing", async () => {
    delete env.CNI_IFNAME;
    const r = await run();
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(
      '{\n    "code": 4,\n    "msg": "required env variables [CNI_IFNAME] missing"\n}',
    );
  });

  it("ends a waiting call on SIGTERM with error 999 (WaitForAbort)", async () => {
    await writeDebug(debugFileName, { waitForAbort: true, reportStderr: "waiting\n" });
    running = startPlugin(noopPath, env, stdinData);
    await running.stderrIncludes("waiting");
    running.child.kill("SIGTERM");
    const r = await running.done;
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('{\n    "code": 999,\n    "msg": "plugin received SIGTERM"\n}');
    expect((await readDebug(debugFileName)).command).toBe("ADD");
  });
});

describe("the command log", () => {
  it("records every call in order with its command, args, env and stdin", async () => {
    const log = join(dir, "commands.json");
    await createCommandLog(log);
    await writeDebug(debugFileName, {});
    const config = (version: string) =>
      `{"name":"noop-test","cniVersion":"${version}","commandLog":${JSON.stringify(log)}}`;
    for (const [command, version] of [
      ["ADD", "1.1.0"],
      ["CHECK", "1.1.0"],
      ["DEL", "1.0.0"],
    ]) {
      const r = await runPlugin(noopPath, { ...env, CNI_COMMAND: command }, config(version));
      expect(r.exitCode).toBe(0);
    }
    const entries = await readCommandLog(log);
    expect(entries.map((e) => e.command)).toEqual(["ADD", "CHECK", "DEL"]);
    expect(entries.map(stdinText)).toEqual([config("1.1.0"), config("1.1.0"), config("1.0.0")]);
    expect(entries[2].env.CNI_COMMAND).toBe("DEL");
    expect(entries[0].cmdArgs.containerID).toBe("some-container-id");
  });

  it("is empty before any call", async () => {
    const log = join(dir, "commands.json");
    await createCommandLog(log);
    expect(await readCommandLog(log)).toEqual([]);
  });

  it("must exist: a missing log file fails the call, as upstream", async () => {
    const log = join(dir, "absent.json");
    const r = await runPlugin(
      noopPath,
      env,
      `{"name":"noop-test","cniVersion":"0.3.1","commandLog":${JSON.stringify(log)}}`,
    );
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(r.stdout).code).toBe(999);
    expect(JSON.parse(r.stdout).msg).toContain("no such file or directory");
  });
});
