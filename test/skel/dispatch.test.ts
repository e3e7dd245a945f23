// Upstream pkg/skel/skel_test.go, scenario for scenario, plus STATUS (upstream has no STATUS
// skel tests) and the checks upstream leaves implicit.
import { beforeEach, describe, expect, it } from "vitest";
import { CNIError } from "../../src/errors/index.js";
import {
  type CmdArgs,
  type CNIFuncs,
  pluginMainFuncsWithError,
  pluginMainWithError,
} from "../../src/skel/index.js";
import {
  ErrDecodingFailure,
  ErrIncompatibleCNIVersion,
  ErrInternal,
  ErrInvalidEnvironmentVariables,
  ErrInvalidNetworkConfig,
  ErrIOFailure,
} from "../../src/types/error-codes.js";
import { current, type PluginInfo, pluginSupports } from "../../src/version/index.js";
import { BadReader, bytes, Collector, FakeCmd, wire } from "./harness.js";

let environment: Record<string, string>;
let stdinData: string;
let stdin: Uint8Array | AsyncIterable<Uint8Array>;
let stdout: Collector;
let stderr: Collector;
let cmdAdd: FakeCmd;
let cmdCheck: FakeCmd;
let cmdDel: FakeCmd;
let cmdGC: FakeCmd;
let cmdStatus: FakeCmd;
let funcs: CNIFuncs;
let versionInfo: PluginInfo;
let expectedCmdArgs: CmdArgs;
let controller: AbortController;

beforeEach(() => {
  environment = {
    CNI_COMMAND: "ADD",
    CNI_CONTAINERID: "some-container-id",
    CNI_NETNS: "/some/netns/path",
    CNI_IFNAME: "eth0",
    CNI_ARGS: "some;extra;args",
    CNI_PATH: "/some/cni/path",
  };
  stdinData = `{ "name":"skel-test", "some": "config", "cniVersion": "9.8.7" }`;
  stdin = bytes(stdinData);
  stdout = new Collector();
  stderr = new Collector();
  versionInfo = pluginSupports("9.8.7", "10.0.0");
  cmdAdd = new FakeCmd();
  cmdCheck = new FakeCmd();
  cmdDel = new FakeCmd();
  cmdGC = new FakeCmd();
  cmdStatus = new FakeCmd();
  funcs = {
    add: cmdAdd.func,
    del: cmdDel.func,
    check: cmdCheck.func,
    gc: cmdGC.func,
    status: cmdStatus.func,
  };
  expectedCmdArgs = {
    containerID: "some-container-id",
    netns: "/some/netns/path",
    ifName: "eth0",
    args: "some;extra;args",
    path: "/some/cni/path",
    netnsOverride: "",
    stdinData: bytes(stdinData),
  };
  controller = new AbortController();
});

function dispatch(about = ""): Promise<CNIError | undefined> {
  return pluginMainWithError(funcs, versionInfo, about, {
    env: environment,
    stdin,
    stdout,
    stderr,
    signal: controller.signal,
  });
}

const calls = (): number[] => [cmdAdd, cmdCheck, cmdDel, cmdGC, cmdStatus].map((c) => c.callCount);

/** Upstream's envVarChecker: drop one variable; required → code 4 naming it, else success. */
function envVarTable(entries: [string, string, boolean][]): void {
  for (const [label, envVar, isRequired] of entries) {
    it(`${label} (${envVar}) is ${isRequired ? "required" : "optional"}`, async () => {
      delete environment[envVar];
      const err = await dispatch();
      if (isRequired) {
        expect(wire(err)).toEqual({
          code: ErrInvalidEnvironmentVariables,
          msg: `required env variables [${envVar}] missing`,
          details: "",
        });
      } else {
        expect(err).toBeUndefined();
      }
    });
  }
}

/** An empty value counts as missing, exactly as an unset one (Go's os.Getenv). */
function emptyIsMissing(envVar: string): void {
  it(`treats an empty ${envVar} as missing`, async () => {
    environment[envVar] = "";
    expect(wire(await dispatch())?.msg).toBe(`required env variables [${envVar}] missing`);
  });
}

describe("when the CNI_COMMAND is ADD", () => {
  it("extracts env vars and stdin data and calls cmdAdd", async () => {
    const err = await dispatch();
    expect(err).toBeUndefined();
    expect(calls()).toEqual([1, 0, 0, 0, 0]);
    expect(cmdAdd.received).toEqual(expectedCmdArgs);
    expect(cmdAdd.received?.stdinData).toBeInstanceOf(Uint8Array);
  });

  it("passes CNI_NETNS_OVERRIDE through", async () => {
    environment.CNI_NETNS_OVERRIDE = "true";
    expect(await dispatch()).toBeUndefined();
    expect(cmdAdd.received).toEqual({ ...expectedCmdArgs, netnsOverride: "true" });
  });

  it("gives the callback the signal and the output streams", async () => {
    await dispatch();
    expect(cmdAdd.receivedCtx?.signal).toBe(controller.signal);
    expect(cmdAdd.receivedCtx?.stdout).toBe(stdout);
    expect(cmdAdd.receivedCtx?.stderr).toBe(stderr);
  });

  it("returns an error when containerID has invalid characters", async () => {
    environment.CNI_CONTAINERID = "some-%%container-id";
    expect(wire(await dispatch())).toEqual({
      code: ErrInvalidEnvironmentVariables,
      msg: "invalid characters in containerID",
      details: "some-%%container-id",
    });
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
  });

  describe("return errors when interface name is invalid", () => {
    const cases: [string, string, string, string][] = [
      [
        "interface name is too long",
        "1234567890123456",
        "interface name is too long",
        "interface name should be less than 16 characters",
      ],
      ["interface name is .", ".", "interface name is . or ..", ""],
      ["interface name is ..", "..", "interface name is . or ..", ""],
      [
        "interface name contains invalid characters /",
        "test/test",
        "interface name contains / or : or whitespace characters",
        "",
      ],
      [
        "interface name contains invalid characters :",
        "test:test",
        "interface name contains / or : or whitespace characters",
        "",
      ],
      [
        "interface name contains invalid characters whitespace",
        "test test",
        "interface name contains / or : or whitespace characters",
        "",
      ],
    ];
    for (const [label, ifName, msg, details] of cases) {
      it(label, async () => {
        environment.CNI_IFNAME = ifName;
        expect(wire(await dispatch())).toEqual({
          code: ErrInvalidEnvironmentVariables,
          msg,
          details,
        });
        expect(cmdAdd.callCount).toBe(0);
      });
    }
  });

  it("does not call cmdCheck or cmdDel", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(cmdCheck.callCount).toBe(0);
    expect(cmdDel.callCount).toBe(0);
  });

  describe("required / optional env vars", () => {
    envVarTable([
      ["command", "CNI_COMMAND", true],
      ["container id", "CNI_CONTAINERID", true],
      ["net ns", "CNI_NETNS", true],
      ["if name", "CNI_IFNAME", true],
      ["args", "CNI_ARGS", false],
      ["path", "CNI_PATH", true],
      ["netns override", "CNI_NETNS_OVERRIDE", false],
    ]);
    emptyIsMissing("CNI_NETNS");
  });

  describe("when multiple required env vars are missing", () => {
    beforeEach(() => {
      delete environment.CNI_NETNS;
      delete environment.CNI_IFNAME;
      delete environment.CNI_PATH;
    });

    it("reports that all of them are missing, not just the first", async () => {
      expect(wire(await dispatch())).toEqual({
        code: ErrInvalidEnvironmentVariables,
        msg: "required env variables [CNI_NETNS,CNI_IFNAME,CNI_PATH] missing",
        details: "",
      });
    });

    it("reports them in table order whatever order they were removed in", async () => {
      delete environment.CNI_COMMAND;
      delete environment.CNI_CONTAINERID;
      // With no command nothing else is required: only CNI_COMMAND is reported.
      expect(wire(await dispatch())?.msg).toBe("required env variables [CNI_COMMAND] missing");
    });
  });

  it("reports an invalid value before missing ones (validation returns first)", async () => {
    environment.CNI_CONTAINERID = "bad id";
    delete environment.CNI_PATH;
    expect(wire(await dispatch())?.msg).toBe("invalid characters in containerID");
  });

  it("validates in table order: the container ID before the interface name", async () => {
    environment.CNI_CONTAINERID = "bad id";
    environment.CNI_IFNAME = ".";
    expect(wire(await dispatch())?.msg).toBe("invalid characters in containerID");
  });

  describe("when the stdin data is missing the required cniVersion config", () => {
    beforeEach(() => {
      stdin = bytes(`{ "name": "skel-test", "some": "config" }`);
    });

    describe("when the plugin supports version 0.1.0", () => {
      beforeEach(() => {
        versionInfo = pluginSupports("0.1.0");
        expectedCmdArgs.stdinData = bytes(`{ "name": "skel-test", "some": "config" }`);
      });

      it("infers the config is 0.1.0 and calls the cmdAdd callback", async () => {
        expect(await dispatch()).toBeUndefined();
        expect(cmdAdd.callCount).toBe(1);
        expect(cmdAdd.received).toEqual(expectedCmdArgs);
      });
    });

    describe("when the plugin does not support 0.1.0", () => {
      beforeEach(() => {
        versionInfo = pluginSupports("4.3.2");
      });

      it("immediately returns a useful error", async () => {
        expect(wire(await dispatch())).toEqual({
          code: ErrIncompatibleCNIVersion,
          msg: "incompatible CNI versions",
          details: `config is "0.1.0", plugin supports ["4.3.2"]`,
        });
      });

      it("does not call either callback", async () => {
        expect(await dispatch()).toBeDefined();
        expect(calls()).toEqual([0, 0, 0, 0, 0]);
      });
    });
  });

  it("quotes versions in the details as Go's %q does", async () => {
    stdin = bytes(`{ "name": "skel-test", "cniVersion": "1.0.0\\u0001" }`);
    versionInfo = pluginSupports("1.0.0", "é");
    expect(wire(await dispatch())?.details).toBe(
      `config is "1.0.0\\x01", plugin supports ["1.0.0" "é"]`,
    );
  });

  it("succeeds without calling anything when the plugin has no ADD callback", async () => {
    funcs = { del: cmdDel.func };
    expect(await dispatch()).toBeUndefined();
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
  });

  it("still checks the version when the plugin has no ADD callback", async () => {
    funcs = {};
    versionInfo = pluginSupports("4.3.2");
    expect(wire(await dispatch())?.code).toBe(ErrIncompatibleCNIVersion);
  });
});

describe("when the CNI_COMMAND is CHECK", () => {
  beforeEach(() => {
    environment.CNI_COMMAND = "CHECK";
  });

  it("extracts env vars and stdin data and calls cmdCheck", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(calls()).toEqual([0, 1, 0, 0, 0]);
    expect(cmdCheck.received).toEqual(expectedCmdArgs);
  });

  it("does not call cmdAdd or cmdDel", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(cmdAdd.callCount).toBe(0);
    expect(cmdDel.callCount).toBe(0);
  });

  describe("required / optional env vars", () => {
    envVarTable([
      ["command", "CNI_COMMAND", true],
      ["container id", "CNI_CONTAINERID", true],
      ["net ns", "CNI_NETNS", true],
      ["if name", "CNI_IFNAME", true],
      ["args", "CNI_ARGS", false],
      ["path", "CNI_PATH", true],
    ]);
  });

  it("validates the container ID and the interface name", async () => {
    environment.CNI_IFNAME = "a:b";
    expect(wire(await dispatch())?.msg).toBe(
      "interface name contains / or : or whitespace characters",
    );
  });

  describe("when multiple required env vars are missing", () => {
    it("reports that all of them are missing, not just the first", async () => {
      delete environment.CNI_NETNS;
      delete environment.CNI_IFNAME;
      delete environment.CNI_PATH;
      expect(wire(await dispatch())).toEqual({
        code: ErrInvalidEnvironmentVariables,
        msg: "required env variables [CNI_NETNS,CNI_IFNAME,CNI_PATH] missing",
        details: "",
      });
    });
  });

  describe("when cniVersion is less than 0.4.0", () => {
    it("immediately returns a useful error", async () => {
      stdin = bytes(`{ "name": "skel-test", "cniVersion": "0.3.0", "some": "config" }`);
      const err = await dispatch();
      expect(wire(err)).toEqual({
        code: ErrIncompatibleCNIVersion,
        msg: "config version does not allow CHECK",
        details: "",
      });
      expect(calls()).toEqual([0, 0, 0, 0, 0]);
    });

    it("treats a missing cniVersion as 0.1.0, which does not allow CHECK", async () => {
      stdin = bytes(`{ "name": "skel-test" }`);
      expect(wire(await dispatch())?.msg).toBe("config version does not allow CHECK");
    });
  });

  describe("when plugin does not support 0.4.0", () => {
    it("immediately returns a useful error", async () => {
      stdin = bytes(`{ "name": "skel-test", "cniVersion": "0.4.0", "some": "config" }`);
      versionInfo = pluginSupports("0.1.0", "0.2.0", "0.3.0");
      expect(wire(await dispatch())).toEqual({
        code: ErrIncompatibleCNIVersion,
        msg: "plugin version does not allow CHECK",
        details: "",
      });
      expect(calls()).toEqual([0, 0, 0, 0, 0]);
    });
  });

  it("still requires an exact match once a newer plugin version exists", async () => {
    stdin = bytes(`{ "name": "skel-test", "cniVersion": "0.4.0" }`);
    versionInfo = pluginSupports("1.0.0");
    expect(wire(await dispatch())).toEqual({
      code: ErrIncompatibleCNIVersion,
      msg: "incompatible CNI versions",
      details: `config is "0.4.0", plugin supports ["1.0.0"]`,
    });
    expect(cmdCheck.callCount).toBe(0);
  });

  describe("when the config has a bad version", () => {
    it("immediately returns a useful error", async () => {
      stdin = bytes(`{ "cniVersion": "adsfsadf", "some": "config", "name": "test" }`);
      versionInfo = pluginSupports("0.1.0", "0.2.0", "0.3.0");
      const err = await dispatch();
      expect(wire(err)).toEqual({
        code: ErrDecodingFailure,
        msg: `failed to convert major version part "adsfsadf": strconv.Atoi: parsing "adsfsadf": invalid syntax`,
        details: "",
      });
      expect(calls()).toEqual([0, 0, 0, 0, 0]);
    });
  });

  describe("when the config has a bad name", () => {
    it("immediately returns invalid network config", async () => {
      stdin = bytes(`{ "cniVersion": "0.4.0", "some": "config", "name": "te%%st" }`);
      versionInfo = pluginSupports("0.1.0", "0.2.0", "0.3.0", "0.4.0");
      expect(wire(await dispatch())?.code).toBe(ErrInvalidNetworkConfig);
      expect(calls()).toEqual([0, 0, 0, 0, 0]);
    });
  });

  describe("when the plugin has a bad version", () => {
    it("immediately returns a useful error", async () => {
      stdin = bytes(`{ "cniVersion": "0.4.0", "some": "config", "name": "test" }`);
      versionInfo = pluginSupports("0.1.0", "0.2.0", "adsfasdf");
      const err = await dispatch();
      expect(wire(err)?.code).toBe(ErrDecodingFailure);
      expect(err?.msg).toBe(
        `failed to convert major version part "adsfasdf": strconv.Atoi: parsing "adsfasdf": invalid syntax`,
      );
      expect(calls()).toEqual([0, 0, 0, 0, 0]);
    });

    it("is not reached when an earlier plugin version already allows the verb", async () => {
      stdin = bytes(`{ "cniVersion": "0.4.0", "name": "test" }`);
      versionInfo = pluginSupports("0.4.0", "adsfasdf");
      expect(await dispatch()).toBeUndefined();
      expect(cmdCheck.callCount).toBe(1);
    });
  });

  it("does not run the netns check", async () => {
    environment.CNI_NETNS = "/proc/self/ns/net";
    expect(await dispatch()).toBeUndefined();
    expect(cmdCheck.callCount).toBe(1);
  });
});

/** GC and STATUS share upstream's gating code; upstream tests only GC. */
function gcLikeVerb(verb: "GC" | "STATUS", fake: () => FakeCmd, index: number): void {
  describe(`when the CNI_COMMAND is ${verb}`, () => {
    beforeEach(() => {
      environment.CNI_COMMAND = verb;
      delete environment.CNI_NETNS;
      delete environment.CNI_IFNAME;
      delete environment.CNI_CONTAINERID;
      delete environment.CNI_ARGS;
      expectedCmdArgs = {
        containerID: "",
        netns: "",
        ifName: "",
        args: "",
        path: "/some/cni/path",
        netnsOverride: "",
        stdinData: bytes(stdinData),
      };
    });

    it(`extracts env vars and stdin data and calls cmd${verb}`, async () => {
      expect(await dispatch()).toBeUndefined();
      const expected = [0, 0, 0, 0, 0];
      expected[index] = 1;
      expect(calls()).toEqual(expected);
      expect(fake().received).toEqual(expectedCmdArgs);
    });

    it("does not call cmdAdd or cmdDel", async () => {
      expect(await dispatch()).toBeUndefined();
      expect(cmdAdd.callCount).toBe(0);
      expect(cmdDel.callCount).toBe(0);
    });

    describe("required / optional env vars", () => {
      envVarTable([
        ["command", "CNI_COMMAND", true],
        ["container id", "CNI_CONTAINERID", false],
        ["net ns", "CNI_NETNS", false],
        ["if name", "CNI_IFNAME", false],
        ["args", "CNI_ARGS", false],
        ["path", "CNI_PATH", true],
      ]);
    });

    it("does not validate the container ID or interface name", async () => {
      environment.CNI_CONTAINERID = "not valid!";
      environment.CNI_IFNAME = "..";
      expect(await dispatch()).toBeUndefined();
      expect(fake().received?.containerID).toBe("not valid!");
      expect(fake().received?.ifName).toBe("..");
    });

    describe("when multiple required env vars are missing", () => {
      it("reports that all of them are missing, not just the first", async () => {
        delete environment.CNI_PATH;
        expect(wire(await dispatch())).toEqual({
          code: ErrInvalidEnvironmentVariables,
          msg: "required env variables [CNI_PATH] missing",
          details: "",
        });
      });
    });

    describe("when cniVersion is less than 1.1.0", () => {
      it("immediately returns a useful error", async () => {
        stdin = bytes(`{ "name": "skel-test", "cniVersion": "0.3.0", "some": "config" }`);
        expect(wire(await dispatch())).toEqual({
          code: ErrIncompatibleCNIVersion,
          msg: `config version does not allow ${verb}`,
          details: "",
        });
        expect(fake().callCount).toBe(0);
      });

      it("refuses 1.0.0 too", async () => {
        stdin = bytes(`{ "name": "skel-test", "cniVersion": "1.0.0" }`);
        versionInfo = pluginSupports("1.0.0", "1.1.0");
        expect(wire(await dispatch())?.msg).toBe(`config version does not allow ${verb}`);
      });
    });

    describe("when plugin does not support 1.1.0", () => {
      it("immediately returns a useful error", async () => {
        stdin = bytes(`{ "name": "skel-test", "cniVersion": "1.1.0", "some": "config" }`);
        versionInfo = pluginSupports("0.1.0", "0.2.0", "0.3.0");
        expect(wire(await dispatch())).toEqual({
          code: ErrIncompatibleCNIVersion,
          msg: `plugin version does not allow ${verb}`,
          details: "",
        });
        expect(fake().callCount).toBe(0);
      });
    });

    it("calls the callback for a 1.1.0 config and plugin", async () => {
      stdin = bytes(`{ "name": "skel-test", "cniVersion": "1.1.0" }`);
      versionInfo = pluginSupports("1.0.0", "1.1.0");
      expect(await dispatch()).toBeUndefined();
      expect(fake().callCount).toBe(1);
    });

    describe("when the config has a bad version", () => {
      it("immediately returns a useful error", async () => {
        stdin = bytes(`{ "cniVersion": "adsfsadf", "some": "config", "name": "test" }`);
        versionInfo = pluginSupports("1.1.0");
        expect(wire(await dispatch())?.code).toBe(ErrDecodingFailure);
        expect(fake().callCount).toBe(0);
      });
    });

    describe("when the config has a bad name", () => {
      it("immediately returns invalid network config", async () => {
        stdin = bytes(`{ "cniVersion": "0.4.0", "some": "config", "name": "te%%st" }`);
        versionInfo = pluginSupports("1.1.0");
        expect(wire(await dispatch())?.code).toBe(ErrInvalidNetworkConfig);
        expect(fake().callCount).toBe(0);
      });
    });

    describe("when the plugin has a bad version", () => {
      it("immediately returns a useful error", async () => {
        stdin = bytes(`{ "cniVersion": "1.1.0", "some": "config", "name": "test" }`);
        versionInfo = pluginSupports("0.1.0", "0.2.0", "adsfasdf");
        expect(wire(await dispatch())?.code).toBe(ErrDecodingFailure);
        expect(fake().callCount).toBe(0);
      });
    });

    it("passes a typed error from the callback through", async () => {
      fake().returnsError = new CNIError(50, "plugin not available", "still starting");
      expect(wire(await dispatch())).toEqual({
        code: 50,
        msg: "plugin not available",
        details: "still starting",
      });
    });

    it("does not run the netns check", async () => {
      environment.CNI_NETNS = "/proc/self/ns/net";
      expect(await dispatch()).toBeUndefined();
    });
  });
}

gcLikeVerb("GC", () => cmdGC, 3);
gcLikeVerb("STATUS", () => cmdStatus, 4);

describe("when the CNI_COMMAND is DEL", () => {
  beforeEach(() => {
    environment.CNI_COMMAND = "DEL";
  });

  it("calls cmdDel with the env vars and stdin data", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(cmdDel.callCount).toBe(1);
    expect(cmdDel.received).toEqual(expectedCmdArgs);
  });

  it("does not call cmdAdd", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(cmdAdd.callCount).toBe(0);
  });

  describe("required / optional env vars", () => {
    envVarTable([
      ["command", "CNI_COMMAND", true],
      ["container id", "CNI_CONTAINERID", true],
      ["net ns", "CNI_NETNS", false],
      ["if name", "CNI_IFNAME", true],
      ["args", "CNI_ARGS", false],
      ["path", "CNI_PATH", true],
    ]);
  });

  it("validates the interface name", async () => {
    environment.CNI_IFNAME = "..";
    expect(wire(await dispatch())?.msg).toBe("interface name is . or ..");
    expect(cmdDel.callCount).toBe(0);
  });

  it("checks the version as ADD does", async () => {
    versionInfo = pluginSupports("0.4.0");
    expect(wire(await dispatch())?.details).toBe(`config is "9.8.7", plugin supports ["0.4.0"]`);
  });
});

describe("when the CNI_COMMAND is VERSION", () => {
  beforeEach(() => {
    environment.CNI_COMMAND = "VERSION";
  });

  it("prints the version to stdout", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(JSON.parse(stdout.text())).toEqual({
      cniVersion: current(),
      supportedVersions: ["9.8.7", "10.0.0"],
    });
  });

  it("prints exactly Go's json.Encoder bytes: struct order, compact, trailing newline", async () => {
    await dispatch();
    expect(stdout.text()).toBe(
      `{"cniVersion":"${current()}","supportedVersions":["9.8.7","10.0.0"]}\n`,
    );
    expect(current()).toBe("1.1.0");
  });

  it("does not call cmdAdd or cmdDel", async () => {
    expect(await dispatch()).toBeUndefined();
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
  });

  describe("VERSION does not need the usual env vars", () => {
    envVarTable([
      ["command", "CNI_COMMAND", true],
      ["container id", "CNI_CONTAINERID", false],
      ["net ns", "CNI_NETNS", false],
      ["if name", "CNI_IFNAME", false],
      ["args", "CNI_ARGS", false],
      ["path", "CNI_PATH", false],
    ]);
  });

  it("does not validate the container ID or interface name", async () => {
    environment.CNI_CONTAINERID = "%%%";
    environment.CNI_IFNAME = "a/b";
    expect(await dispatch()).toBeUndefined();
  });

  it("does not read from Stdin", async () => {
    const reader = new BadReader();
    stdin = reader;
    expect(await dispatch()).toBeUndefined();
    expect(reader.readCount).toBe(0);
    expect(JSON.parse(stdout.text())).toEqual({
      cniVersion: current(),
      supportedVersions: ["9.8.7", "10.0.0"],
    });
  });

  it("does not validate the config (none is sent)", async () => {
    stdin = bytes("not json");
    expect(await dispatch()).toBeUndefined();
  });

  it("reports a failed write as an I/O error", async () => {
    const failing = {
      write: (_chunk: string | Uint8Array, cb?: (e?: Error | null) => void): boolean => {
        cb?.(new Error("EPIPE"));
        return false;
      },
    };
    const err = await pluginMainWithError(funcs, versionInfo, "", {
      env: environment,
      stdin,
      stdout: failing,
      stderr,
      signal: controller.signal,
    });
    expect(wire(err)).toEqual({ code: ErrIOFailure, msg: "EPIPE", details: "" });
  });
});

describe("when the CNI_COMMAND is unrecognized", () => {
  beforeEach(() => {
    environment.CNI_COMMAND = "NOPE";
  });

  it("does not call any cmd callback", async () => {
    expect(await dispatch()).toBeDefined();
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
  });

  it("returns an error", async () => {
    expect(wire(await dispatch())).toEqual({
      code: ErrInvalidEnvironmentVariables,
      msg: "unknown CNI_COMMAND: NOPE",
      details: "",
    });
  });

  it("is case-sensitive", async () => {
    environment.CNI_COMMAND = "add";
    expect(wire(await dispatch())?.msg).toBe("unknown CNI_COMMAND: add");
  });

  it("validates the config first, as upstream reads stdin before dispatching", async () => {
    stdin = bytes("{}");
    expect(wire(await dispatch())).toEqual({
      code: ErrInvalidNetworkConfig,
      msg: "missing network name",
      details: "",
    });
  });

  it("prints the about string when the command is blank", async () => {
    environment.CNI_COMMAND = "";
    expect(await dispatch("test framework v42")).toBeUndefined();
    expect(stderr.text()).toContain("test framework v42");
  });
});

describe("when the CNI_COMMAND is missing", () => {
  it("prints the about string to stderr", async () => {
    environment = {};
    expect(await dispatch("AWESOME PLUGIN")).toBeUndefined();
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
    expect(stderr.text()).toBe("AWESOME PLUGIN\nCNI protocol versions supported: 9.8.7, 10.0.0\n");
    expect(stdout.text()).toBe("");
  });

  it("fails if there is no about string", async () => {
    environment = {};
    expect(wire(await dispatch())).toEqual({
      code: ErrInvalidEnvironmentVariables,
      msg: "required env variables [CNI_COMMAND] missing",
      details: "",
    });
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
    expect(stderr.text()).toBe("");
  });

  it("prints the about string even when other variables are set", async () => {
    delete environment.CNI_COMMAND;
    expect(await dispatch("AWESOME PLUGIN")).toBeUndefined();
    expect(stderr.text()).toMatch(/^AWESOME PLUGIN\n/);
  });
});

describe("when stdin cannot be read", () => {
  beforeEach(() => {
    stdin = new BadReader();
  });

  it("does not call any cmd callback", async () => {
    expect(await dispatch()).toBeDefined();
    expect(calls()).toEqual([0, 0, 0, 0, 0]);
  });

  it("wraps and returns the error", async () => {
    expect(wire(await dispatch())).toEqual({
      code: ErrIOFailure,
      msg: "error reading from stdin: banana",
      details: "",
    });
  });

  it("says the process's own read failure as Go's error on /dev/stdin", async () => {
    const ebadf = { code: "EBADF", errno: -9, syscall: "read" };
    stdin = new BadReader(Object.assign(new Error("EBADF: bad file descriptor, read"), ebadf));
    expect(wire(await dispatch())).toEqual({
      code: ErrIOFailure,
      msg: "error reading from stdin: read /dev/stdin: bad file descriptor",
      details: "",
    });
  });
});

describe("reading stdin", () => {
  it("concatenates a chunked stream exactly, byte for byte", async () => {
    const config = `{"name":"skel-test","cniVersion":"9.8.7","x":"\u00e9\u{1f600}"}`;
    const all = bytes(config);
    stdin = (async function* () {
      for (let i = 0; i < all.length; i += 3) yield all.subarray(i, i + 3);
    })();
    expect(await dispatch()).toBeUndefined();
    expect(cmdAdd.received?.stdinData).toEqual(all);
  });

  it("keeps invalid UTF-8 in stdinData as it came", async () => {
    const raw = new Uint8Array([
      ...bytes(`{"name":"skel-test","cniVersion":"9.8.7","x":"`),
      0xff,
      0x22,
      0x7d,
    ]);
    stdin = raw;
    expect(await dispatch()).toBeUndefined();
    expect(cmdAdd.received?.stdinData).toEqual(raw);
  });
});

describe("when the callback returns an error", () => {
  describe("when it is a typed Error", () => {
    it("returns the error as-is", async () => {
      const typed = new CNIError(1234, "insufficient something");
      cmdAdd.returnsError = typed;
      const err = await dispatch();
      expect(err).toBe(typed);
      expect(wire(err)).toEqual({ code: 1234, msg: "insufficient something", details: "" });
    });

    it("finds a typed error in the cause chain, as errors.As does", async () => {
      const typed = new CNIError(11, "try again later", "busy");
      cmdAdd.returnsError = new Error("wrapped", { cause: new Error("again", { cause: typed }) });
      expect(await dispatch()).toBe(typed);
    });

    it("finds a typed error inside an AggregateError (Go's joined errors)", async () => {
      const typed = new CNIError(7, "bad config");
      cmdAdd.returnsError = new AggregateError([new Error("plain"), typed], "joined");
      expect(await dispatch()).toBe(typed);
    });

    it("accepts a CNIError-shaped error from another copy of the library", async () => {
      const foreign = Object.assign(new Error("x"), {
        [Symbol.for("libcni.error.ids")]: ["LIBCNI_ERR_CNI", "LIBCNI_ERR"],
        code: 3,
        msg: "unknown container",
        details: "",
      });
      cmdAdd.returnsError = foreign;
      expect(await dispatch()).toBe(foreign);
    });
  });

  describe("when it is an unknown error", () => {
    it("wraps and returns the error", async () => {
      const potato = new Error("potato");
      cmdAdd.returnsError = potato;
      const err = await dispatch();
      expect(wire(err)).toEqual({ code: ErrInternal, msg: "potato", details: "" });
      expect(err?.cause).toBe(potato);
    });

    it("turns a thrown non-Error into its text", async () => {
      cmdAdd.returnsError = "just a string";
      expect(wire(await dispatch())).toEqual({
        code: ErrInternal,
        msg: "just a string",
        details: "",
      });
    });

    it("fails with an error the callback returns, as Go's skel with a returned error", async () => {
      const typed = new CNIError(7, "returned");
      funcs.add = async () => typed as never;
      expect(await dispatch()).toBe(typed);
      funcs.add = async () => new Error("plain, returned") as never;
      expect(wire(await dispatch())).toEqual({
        code: ErrInternal,
        msg: "plain, returned",
        details: "",
      });
    });

    it("catches a callback that throws synchronously", async () => {
      funcs.add = () => {
        throw new Error("sync boom");
      };
      expect(wire(await dispatch())?.msg).toBe("sync boom");
    });
  });
});

describe("the callback's signal", () => {
  it("is the one given, and aborting it reaches a waiting callback", async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    funcs.add = async (_args, { signal }) => {
      const aborted = new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => resolve()),
      );
      started();
      await aborted;
      throw signal.reason;
    };
    const pending = dispatch();
    await running;
    controller.abort(new Error("runtime gave up"));
    expect(wire(await pending)).toEqual({
      code: ErrInternal,
      msg: "runtime gave up",
      details: "",
    });
  });

  it("is passed already aborted when it was aborted before the callback ran", async () => {
    controller.abort();
    await dispatch();
    expect(cmdAdd.receivedCtx?.signal.aborted).toBe(true);
  });
});

describe("Go names", () => {
  it("pluginMainFuncsWithError is pluginMainWithError", () => {
    expect(pluginMainFuncsWithError).toBe(pluginMainWithError);
  });
});
