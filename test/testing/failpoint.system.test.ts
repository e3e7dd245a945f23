// failpointPlugin around Debian's real plugins, on a testHost (root): a failure on each verb
// surfaces as the plugin's error, a failed ADD is rolled back by libcni/runtime with nothing
// left, a hung DEL is stopped by an abort (the hung process with it), a crash surfaces as one.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { networkConfFromBytes } from "../../src/conf/index.js";
import {
  MultiError,
  PluginAbortedError,
  PluginExecError,
  PodSetupError,
} from "../../src/errors/index.js";
import { loadNetworks } from "../../src/runtime/index.js";
import {
  eventually,
  type FailpointOptions,
  ping,
  requirePlugins,
  type TestHost,
  testHost,
} from "../../src/testing/index.js";

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error("the system tier runs as root (network namespaces)");
  await requirePlugins(["bridge", "host-local", "tuning"]);
});

/** A failpoint on a real plugin (by its type), in the host's wrapper dir. */
function failpoint(
  host: TestHost,
  options: Omit<FailpointOptions, "dir" | "plugin"> & { type: string },
) {
  const { type, ...rest } = options;
  return host.failpoint({ plugin: type, ...rest });
}

function bridgeList(host: TestHost, cniVersion = "1.0.0", chained: object[] = []) {
  return {
    cniVersion,
    name: "fpnet",
    plugins: [
      {
        type: "bridge",
        bridge: "cni-fp0",
        isGateway: true,
        ipam: { type: "host-local", dataDir: host.dataDir, ranges: [[{ subnet: "10.78.0.0/24" }]] },
      },
      ...chained,
    ],
  };
}

/** The plugin's own error inside the library's wrapping (a chain error's cause, a MultiError's first). */
function pluginError(error: unknown): PluginExecError {
  let current = error;
  for (let depth = 0; depth < 10; depth++) {
    if (current instanceof PluginExecError) return current;
    current = current instanceof MultiError ? current.errors[0] : (current as Error)?.cause;
  }
  throw new Error(`no plugin error in ${String(error)}`, { cause: error });
}

const listOf = (value: object) => networkConfFromBytes(JSON.stringify(value));

async function veths(host: TestHost): Promise<number> {
  const { stdout } = await host.netns.run(["ip", "-o", "link", "show", "type", "veth"]);
  return stdout.split("\n").filter((l) => l !== "").length;
}

async function reservations(host: TestHost): Promise<string[]> {
  const names = await readdir(join(host.dataDir, "fpnet")).catch(() => []);
  return names.filter((n) => n !== "lock" && !n.startsWith("last_reserved_ip"));
}

/** Pids of processes running the hang action's sleep. */
async function hungSleeps(): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline === "sleep\u00002147483647\u0000") pids.push(Number(entry));
  }
  return pids;
}

describe("failpoints on real plugins", () => {
  it("ADD: a chained plugin's failure rolls the pod's setup back, nothing left", async () => {
    await using host = await testHost();
    const tuning = await failpoint(host, { type: "tuning", verb: "ADD", action: "fail" });
    const conf = bridgeList(host, "1.0.0", [{ type: "tuning", sysctl: {} }]);
    await writeFile(join(host.confDir, "10-fpnet.conflist"), JSON.stringify(conf));
    const runtime = await loadNetworks({ confDir: host.confDir, ...host.runtimeOptions });
    const pod = await host.pod();

    const error = await runtime.setupPod({ id: "p1", netns: pod.path }).catch((e) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    const setup = error as PodSetupError;
    expect(setup.failure.network).toBe("fpnet");
    expect(pluginError(setup.failure.error).code).toBe(999);
    expect(setup.rolledBack).toEqual([{ network: "fpnet", ifName: "eth0" }]);
    expect(setup.rollbackFailures).toEqual([]);
    // The real bridge had run (veth, address) and the rollback's DEL undid it.
    expect(await tuning.calls("ADD")).toBe(1);
    expect(await tuning.calls("DEL")).toBe(1);
    expect(await veths(host)).toBe(0);
    expect(await reservations(host)).toEqual([]);
    const left = await pod.exec(["ip", "link", "show", "eth0"]);
    expect(left.exitCode).not.toBe(0);
  });

  it("ADD: a crash surfaces as a SIGKILL, the Nth call only", async () => {
    await using host = await testHost();
    const bridge = await failpoint(host, { type: "bridge", verb: "ADD", call: 2, action: "crash" });
    const list = listOf(bridgeList(host));
    const a = await host.pod();
    const b = await host.pod();
    await host.cni.addNetworkList(list, { containerID: "a", netNS: a.path, ifName: "eth0" });
    const rtB = { containerID: "b", netNS: b.path, ifName: "eth0" };
    const error = pluginError(await host.cni.addNetworkList(list, rtB).catch((e) => e));
    expect(error.signal).toBe("SIGKILL");
    expect(error.message).toContain("signal: killed");
    expect(await bridge.calls("ADD")).toBe(2);
    // The third ADD goes through: recovery after a crash.
    await host.cni.addNetworkList(list, rtB);
    expect((await ping(b.path, "10.78.0.1")).ok).toBe(true);
  });

  it("CHECK: the plugin's error, and the real CHECK once the failpoint has passed", async () => {
    await using host = await testHost();
    await failpoint(host, { type: "bridge", verb: "CHECK", call: 1, action: "fail", code: 11 });
    const list = listOf(bridgeList(host));
    const pod = await host.pod();
    const rt = { containerID: "c", netNS: pod.path, ifName: "eth0" };
    await host.cni.addNetworkList(list, rt);
    const check = pluginError(await host.cni.checkNetworkList(list, rt).catch((e) => e));
    expect([check.code, check.msg]).toEqual([11, "failpoint: CHECK of bridge failed on purpose"]);
    await expect(host.cni.checkNetworkList(list, rt)).resolves.toBeUndefined();
  });

  it("DEL: a hung plugin is stopped by the abort, its process gone; the retry cleans up", async () => {
    await using host = await testHost({ execOptions: { graceMs: 200 } });
    const bridge = await failpoint(host, { type: "bridge", verb: "DEL", call: 1, action: "hang" });
    const list = listOf(bridgeList(host));
    const pod = await host.pod();
    const rt = { containerID: "d", netNS: pod.path, ifName: "eth0" };
    await host.cni.addNetworkList(list, rt);
    const before = await hungSleeps();

    const start = Date.now();
    const error = pluginError(
      await host.cni.delNetworkList(list, rt, { signal: AbortSignal.timeout(500) }).catch((e) => e),
    );
    expect(error).toBeInstanceOf(PluginAbortedError);
    expect((error as PluginAbortedError).timedOut).toBe(true);
    expect(Date.now() - start).toBeLessThan(10_000);
    await eventually(async () => {
      expect((await hungSleeps()).filter((p) => !before.includes(p))).toEqual([]);
    });
    expect(await veths(host)).toBe(1);

    await host.cni.delNetworkList(list, rt);
    expect(await bridge.calls("DEL")).toBe(2);
    expect(await veths(host)).toBe(0);
    expect(await reservations(host)).toEqual([]);
  });

  it("GC, STATUS and VERSION: the plugin's error reaches the caller", async () => {
    await using host = await testHost();
    // Spec 1.1.0 is the first with GC and STATUS; the failpoint answers before the plugin.
    const list = listOf(bridgeList(host, "1.1.0"));
    await failpoint(host, { type: "bridge", verb: "GC", action: "fail", message: "gc broke" });
    const gc = pluginError(await host.cni.gcNetworkList(list).catch((e) => e));
    expect([gc.code, gc.msg]).toEqual([999, "gc broke"]);
    await failpoint(host, { type: "bridge", verb: "STATUS", action: "fail", code: 50 });
    const status = pluginError(await host.cni.getStatusNetworkList(list).catch((e) => e));
    expect(status.code).toBe(50);
    const version = await failpoint(host, { type: "bridge", verb: "VERSION", action: "garbage" });
    await expect(host.cni.getVersionInfo("bridge")).rejects.toThrow();
    expect(await version.calls("VERSION")).toBe(1);
  });
});
