// The netns check (upstream pkg/ns.CheckNetNS), against real namespaces: the test process's own
// and a fresh one made with `unshare -n` (root, as CI runs).
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { pluginMainWithError } from "../../src/skel/index.js";
import { isPluginNetNS } from "../../src/skel/netns.js";
import { ErrInvalidNetNS } from "../../src/types/error-codes.js";
import { pluginSupports } from "../../src/version/index.js";
import { bytes, Collector, FakeCmd, wire } from "./harness.js";

let child: ChildProcess | undefined;

afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = once(child, "exit");
    child.kill("SIGKILL");
    await exited;
  }
  child = undefined;
});

/** A process sleeping in a new network namespace; its /proc/<pid>/ns/net names that netns. */
async function otherNetNS(): Promise<string> {
  child = spawn("unshare", ["-n", "sleep", "30"], { stdio: "ignore" });
  await once(child, "spawn");
  const path = `/proc/${child.pid}/ns/net`;
  // unshare execs sleep once the namespace exists; wait until the link shows a new netns.
  for (let i = 0; i < 100; i++) {
    if (!(await isPluginNetNS(path).catch(() => true))) return path;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error("unshare -n did not produce a new network namespace");
}

describe("isPluginNetNS", () => {
  it("is true for the process's own netns", async () => {
    expect(await isPluginNetNS("/proc/self/ns/net")).toBe(true);
    expect(await isPluginNetNS(`/proc/${process.pid}/ns/net`)).toBe(true);
  });

  it("is false for another netns", async () => {
    const path = await otherNetNS();
    expect(await isPluginNetNS(path)).toBe(false);
  });

  it("is false for a path that does not exist or is empty (DEL of a vanished netns)", async () => {
    expect(await isPluginNetNS("/some/netns/path")).toBe(false);
    expect(await isPluginNetNS("")).toBe(false);
  });

  it("compares the namespace, not the path: a regular file is not the netns", async () => {
    expect(await isPluginNetNS("/proc/self/status")).toBe(false);
  });
});

describe("the dispatcher's netns check", () => {
  const env = (command: string, netns: string, override?: string): Record<string, string> => ({
    CNI_COMMAND: command,
    CNI_CONTAINERID: "c1",
    CNI_NETNS: netns,
    CNI_IFNAME: "eth0",
    CNI_PATH: "/opt/cni/bin",
    ...(override === undefined ? {} : { CNI_NETNS_OVERRIDE: override }),
  });

  async function run(environment: Record<string, string>, cmd: FakeCmd, versions = ["1.0.0"]) {
    return pluginMainWithError(
      { add: cmd.func, del: cmd.func, check: cmd.func },
      pluginSupports(...versions),
      "",
      {
        env: environment,
        stdin: bytes(`{"name":"n","cniVersion":"1.0.0"}`),
        stdout: new Collector(),
        stderr: new Collector(),
        signal: new AbortController().signal,
      },
    );
  }

  for (const verb of ["ADD", "DEL"]) {
    it(`${verb} in the plugin's own netns fails with code 8 and does not run the callback`, async () => {
      const cmd = new FakeCmd();
      expect(wire(await run(env(verb, "/proc/self/ns/net"), cmd))).toEqual({
        code: ErrInvalidNetNS,
        msg: "plugin's netns and netns from CNI_NETNS should not be the same",
        details: "",
      });
      expect(cmd.callCount).toBe(0);
    });

    for (const override of ["true", "TRUE", "True", "1"]) {
      it(`${verb} skips the check with CNI_NETNS_OVERRIDE=${override}`, async () => {
        const cmd = new FakeCmd();
        expect(await run(env(verb, "/proc/self/ns/net", override), cmd)).toBeUndefined();
        expect(cmd.callCount).toBe(1);
        expect(cmd.received?.netnsOverride).toBe(override);
      });
    }

    for (const override of ["0", "false", "yes", " 1"]) {
      it(`${verb} still checks with CNI_NETNS_OVERRIDE=${JSON.stringify(override)}`, async () => {
        const cmd = new FakeCmd();
        expect(wire(await run(env(verb, "/proc/self/ns/net", override), cmd))?.code).toBe(
          ErrInvalidNetNS,
        );
      });
    }

    it(`${verb} in another netns runs the callback`, async () => {
      const cmd = new FakeCmd();
      expect(await run(env(verb, await otherNetNS()), cmd)).toBeUndefined();
      expect(cmd.callCount).toBe(1);
    });

    it(`${verb} reports a version mismatch before the netns check`, async () => {
      const cmd = new FakeCmd();
      expect(wire(await run(env(verb, "/proc/self/ns/net"), cmd, ["0.4.0"]))?.msg).toBe(
        "incompatible CNI versions",
      );
    });
  }

  it("DEL with no CNI_NETNS runs the callback", async () => {
    const cmd = new FakeCmd();
    const environment = env("DEL", "");
    expect(await run(environment, cmd)).toBeUndefined();
    expect(cmd.callCount).toBe(1);
  });
});
