import { mkdir, readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CacheRecordRemoveError, PluginChainError, PluginNotFoundError } from "../../src/index.js";
import { findInPath } from "../../src/invoke/index.js";
import {
  type CNIRuntime,
  InterruptedSetupError,
  loadNetworks,
  NetworkTimeoutError,
  PodSetupError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("setupPod", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "portmap"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
    await writeNetwork(d.confDir, "30-c.conflist", "c", ["ptp"]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(() => d.cleanup());

  const records = async () => {
    try {
      return (await readdir(join(d.cacheDir, "results"))).sort();
    } catch {
      return [];
    }
  };
  const pod = { id: "pod1", netns: "/run/netns/pod1" };

  it("attaches every network in order and returns a plain summary", async () => {
    const result = await rt.setupPod(pod);
    expect(fake.seq()).toEqual(["ADD a:eth0", "ADD a:eth0", "ADD b:net1", "ADD c:net2"]);
    expect(result.attachments).toEqual([
      { network: "a", ifName: "eth0" },
      { network: "b", ifName: "net1" },
      { network: "c", ifName: "net2" },
    ]);
    const eth0 = result.interfaces.find((i) => i.name === "eth0");
    expect(eth0).toEqual({
      name: "eth0",
      network: "a",
      mac: "02:00:00:00:01:01",
      sandbox: "/run/netns/pod1",
      ips: [{ address: "10.1.0.2/24", gateway: "10.1.0.1" }],
    });
    expect(result.interfaces.find((i) => i.name === "veth1")?.sandbox).toBeUndefined();
    expect(result.routes[0]).toEqual({ network: "a", dst: "0.0.0.0/0", gw: "10.1.0.1" });
    expect(result.dns[0]).toEqual({ network: "a", nameservers: ["10.0.0.10"] });
    // JSON-serialisable, the raw results left out; still there for who wants them.
    const json = JSON.parse(JSON.stringify(result));
    expect(json).toEqual({ ...json, podID: "pod1" });
    expect(json.raw).toBeUndefined();
    expect(result.raw.map((r) => [r.network, r.ifName, r.result.cniVersion])).toEqual([
      ["a", "eth0", "1.1.0"],
      ["b", "net1", "1.1.0"],
      ["c", "net2", "1.1.0"],
    ]);
    expect(await records()).toEqual(["a-pod1-eth0", "b-pod1-net1", "c-pod1-net2"]);
  });

  it("attaches only the networks asked for, in the order asked", async () => {
    const result = await rt.setupPod({ ...pod, networks: ["c", "a"] });
    expect(result.attachments).toEqual([
      { network: "c", ifName: "eth0" },
      { network: "a", ifName: "net1" },
    ]);
  });

  for (const [failing, expected] of [
    ["a", ["ADD a:eth0", "DEL a:eth0"]],
    ["b", ["ADD a:eth0", "ADD b:net1", "DEL b:net1", "DEL a:eth0"]],
    ["c", ["ADD a:eth0", "ADD b:net1", "ADD c:net2", "DEL c:net2", "DEL b:net1", "DEL a:eth0"]],
  ] as const) {
    it(`rolls back in reverse order when network ${failing} fails, the failed one included`, async () => {
      fake.fail.set(`${failing}/ADD`, `no luck on ${failing}`);
      const error = await rt.setupPod(pod).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PodSetupError);
      const e = error as PodSetupError;
      expect(e.id).toBe("LIBCNI_ERR_POD_SETUP");
      expect(e.failure.network).toBe(failing);
      expect(e.cause).toBeInstanceOf(PluginChainError);
      expect(e.cause).toBe(e.failure.error);
      expect(e.rollbackFailures).toEqual([]);
      expect(e.message).toContain(`no luck on ${failing}`);
      expect(e.message).toContain("rolled back");
      // One entry per plugin call: dedupe the chains' plugins to network level.
      const seq = fake.seq().filter((s, i, all) => all.indexOf(s) === i);
      expect(seq).toEqual(expected);
      expect(await records()).toEqual([]);
    });
  }

  it("rolls back a chain that failed half-way: DEL runs its whole chain in reverse", async () => {
    fake.fail.set("a/portmap/ADD", "portmap broke");
    await expect(rt.setupPod(pod)).rejects.toBeInstanceOf(PodSetupError);
    expect(fake.calls.map((c) => `${c.command} ${c.type}`)).toEqual([
      "ADD bridge",
      "ADD portmap",
      "DEL portmap",
      "DEL bridge",
    ]);
  });

  it("reports the rollback DELs that failed, and keeps going", async () => {
    fake.fail.set("c/ADD", "c add");
    fake.fail.set("b/DEL", "b del");
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(
      e.rollbackFailures.map((f) => [f.network, f.ifName, (f.error as Error).message]),
    ).toEqual([["b", "net1", 'plugin type="macvlan" failed (delete): b del']]);
    expect(e.message).toBe(
      'set up pod pod1: network c (net2): plugin type="ptp" failed (add): c add (rollback failed: b (net1): plugin type="macvlan" failed (delete): b del)',
    );
    expect(fake.seq("DEL")).toEqual(["DEL c:net2", "DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
    expect(await records()).toEqual(["b-pod1-net1"]);
  });

  it("refuses a pod whose rollback left its intent, until teardown undoes it", async () => {
    fake.fail.set("c/ADD", "c add");
    fake.fail.set("b/DEL", "b del");
    await expect(rt.setupPod(pod)).rejects.toBeInstanceOf(PodSetupError);
    fake.fail.clear();
    fake.calls.length = 0;
    // A retry on other networks would have written its own intent over b's, and b leaked.
    const e = await rt.setupPod({ ...pod, networks: ["a"] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InterruptedSetupError);
    expect((e as Error).message).toBe(
      `pod pod1 has an interrupted setup (setup intent ${join(d.cacheDir, "libcni", "setup-intents", "pod1")}): tear the pod down before setting it up again`,
    );
    expect((e as InterruptedSetupError).inFlightElsewhere).toBe(false);
    expect(fake.calls).toEqual([]);
    await rt.teardownPod(pod.id);
    // The intent's attachments without a record (a's chain: two plugins), then b's record.
    expect(fake.seq("DEL")).toEqual(["DEL c:net2", "DEL a:eth0", "DEL a:eth0", "DEL b:net1"]);
    await rt.setupPod({ ...pod, networks: ["a"] });
    expect(await records()).toEqual(["a-pod1-eth0"]);
  });

  it("parallel: every ADD at once; on failure every network is rolled back", async () => {
    const started: string[] = [];
    let release!: () => void;
    const all = new Promise<void>((r) => {
      release = r;
    });
    fake.gate = async (call) => {
      if (call.command !== "ADD" || call.type === "portmap") return;
      started.push(call.network);
      if (started.length === 3) release();
      await all;
    };
    fake.fail.set("b/ADD", "b failed");
    const e = (await rt
      .setupPod(pod, { parallel: true })
      .catch((x: unknown) => x)) as PodSetupError;
    expect(started.sort()).toEqual(["a", "b", "c"]);
    expect(e).toBeInstanceOf(PodSetupError);
    expect(e.failure.network).toBe("b");
    fake.gate = undefined;
    expect(fake.seq("DEL")).toEqual(["DEL c:net2", "DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
    expect(await records()).toEqual([]);
  });

  it("parallel: a successful setup returns the results in attach order", async () => {
    const result = await rt.setupPod(pod, { parallel: true });
    expect(result.attachments.map((a) => a.network)).toEqual(["a", "b", "c"]);
  });

  it("a network over the per-network timeout fails with NetworkTimeoutError and is rolled back", async () => {
    fake.hang.add("b/ADD");
    const e = (await rt.setupPod(pod, { timeout: 50 }).catch((x: unknown) => x)) as PodSetupError;
    expect(e).toBeInstanceOf(PodSetupError);
    expect(e.failure.error).toBeInstanceOf(NetworkTimeoutError);
    const timeout = e.failure.error as NetworkTimeoutError;
    // On its own the error names its network; in the pod's message the network is named once.
    expect(timeout.message).toBe("network b: ADD timed out after 50 ms");
    expect([timeout.network, timeout.verb, timeout.timeout]).toEqual(["b", "ADD", 50]);
    expect(e.message).toBe(
      "set up pod pod1: network b (net1): ADD timed out after 50 ms (rolled back)",
    );
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
  });

  it("the caller's abort stops the setup, and the rollback still runs", async () => {
    const controller = new AbortController();
    fake.hang.add("b/ADD");
    fake.gate = async (call) => {
      if (call.network === "b" && call.command === "ADD")
        setTimeout(() => controller.abort(new Error("stop")), 5);
    };
    const e = (await rt
      .setupPod(pod, { signal: controller.signal })
      .catch((x: unknown) => x)) as PodSetupError;
    expect(e).toBeInstanceOf(PodSetupError);
    expect(e.failure.network).toBe("b");
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
    expect(await records()).toEqual([]);
  });

  it("lists what the rollback DELeted, in DEL order", async () => {
    fake.fail.set("c/ADD", "c add");
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(e.rolledBack).toEqual([
      { network: "c", ifName: "net2" },
      { network: "b", ifName: "net1" },
      { network: "a", ifName: "eth0" },
    ]);
  });

  it("a rollback DEL answered 'not found' counts as done, and the record its ADD wrote goes", async () => {
    fake.fail.set("c/ADD", "c add");
    fake.fail.set("b/DEL", "link not found");
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(e.rollbackFailures).toEqual([]);
    expect(e.rolledBack).toContainEqual({ network: "b", ifName: "net1" });
    // The pod has nothing left: no record for podStatus or checkPod to take as attached.
    expect(await records()).toEqual([]);
    expect(await rt.interruptedSetups()).toEqual([]);
  });

  it("a record the rollback cannot remove is that attachment's failure, and the rollback goes on", async () => {
    // b's record path is a directory with something in it: its ADD's write fails, its DEL says
    // "not found", and its record cannot go. That was thrown out of the rollback: a stayed.
    await mkdir(join(d.cacheDir, "results", "b-pod1-net1", "x"), { recursive: true });
    fake.fail.set("b/DEL", "link not found");
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(e).toBeInstanceOf(PodSetupError);
    expect(e.rollbackFailures).toEqual([
      { network: "b", ifName: "net1", error: expect.any(CacheRecordRemoveError) },
    ]);
    expect(e.rolledBack).toEqual([{ network: "a", ifName: "eth0" }]);
    expect(fake.seq("DEL").slice(0, 2)).toEqual(["DEL b:net1", "DEL a:eth0"]);
  });

  it("a plugin not installed fails the setup before any plugin runs, with nothing to undo", async () => {
    const real = fake.exec.findInPath.bind(fake.exec);
    fake.exec.findInPath = (plugin, paths) =>
      plugin === "ptp" ? findInPath(plugin, [join(d.base, "no-bin")]) : real(plugin, paths);
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(e).toBeInstanceOf(PodSetupError);
    expect(e.failure).toMatchObject({ network: "c", ifName: "net2" });
    expect(e.failure.error).toBeInstanceOf(PluginNotFoundError);
    expect(e.rollbackFailures).toEqual([]);
    expect(e.rolledBack).toEqual([]);
    expect(e.message).toMatch(/\(nothing to undo\)$/);
    expect(fake.calls).toEqual([]);
  });

  it("an IPAM plugin not installed fails the setup as its plugin's would, before anything runs", async () => {
    // Its plugin would fail ADD and the rollback's DEL alike (the IPAM delegation), leaving the
    // pod's intent for ever: looked up with the plugins, it is reported at load too.
    await writeNetwork(d.confDir, "30-c.conflist", "c", [{ type: "ptp", ipam: { type: "dhcp" } }]);
    const real = fake.exec.findInPath.bind(fake.exec);
    fake.exec.findInPath = (plugin, paths) =>
      plugin === "dhcp" ? findInPath(plugin, [join(d.base, "no-bin")]) : real(plugin, paths);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    expect(rt.problems).toMatchObject([{ network: "c", kind: "missing-plugin" }]);
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(e.failure).toMatchObject({ network: "c", ifName: "net2" });
    expect(e.failure.error).toBeInstanceOf(PluginNotFoundError);
    expect(e.message).toMatch(/failed to find plugin "dhcp".*\(nothing to undo\)$/);
    expect(fake.calls).toEqual([]);
    expect(await rt.interruptedSetups()).toEqual([]);
  });

  it("a network whose time ran out before its first plugin started gets no DEL", async () => {
    // Another caller holds network b's attachment lock with a plugin that hangs.
    const other = new AbortController();
    fake.hang.add("b/ADD");
    const b = rt.networkSet.get("b");
    if (b === undefined) throw new Error("no network b");
    const held = rt.cni
      .addNetworkList(
        b.config,
        { containerID: "pod1", netNS: "/x", ifName: "net1" },
        {
          signal: other.signal,
        },
      )
      .catch(() => undefined);
    await vi.waitFor(() => expect(fake.seq("ADD")).toEqual(["ADD b:net1"]));
    const e = (await rt
      .setupPod({ ...pod, networks: ["a", "b"] }, { timeout: 100 })
      .catch((x: unknown) => x)) as PodSetupError;
    other.abort();
    await held;
    expect(e.failure.network).toBe("b");
    expect(e.failure.error).toBeInstanceOf(NetworkTimeoutError);
    // b's ADD never ran for the pod (only the other caller's did): only a is undone.
    expect(e.rolledBack).toEqual([{ network: "a", ifName: "eth0" }]);
    expect(fake.seq("DEL")).toEqual(["DEL a:eth0", "DEL a:eth0"]);
    expect(e.message).toMatch(/\(rolled back\)$/);
  });

  it("says nothing to undo when the first network's time ran out before its plugins started", async () => {
    const other = new AbortController();
    fake.hang.add("a/ADD");
    const a = rt.networkSet.get("a");
    if (a === undefined) throw new Error("no network a");
    const held = rt.cni
      .addNetworkList(
        a.config,
        { containerID: "pod1", netNS: "/x", ifName: "eth0" },
        {
          signal: other.signal,
        },
      )
      .catch(() => undefined);
    await vi.waitFor(() => expect(fake.seq("ADD")).toEqual(["ADD a:eth0"]));
    const e = (await rt.setupPod(pod, { timeout: 100 }).catch((x: unknown) => x)) as PodSetupError;
    other.abort();
    await held;
    expect(e.rollbackFailures).toEqual([]);
    expect(e.rolledBack).toEqual([]);
    expect(fake.seq("DEL")).toEqual([]);
    expect(e.message).toBe(
      "set up pod pod1: network a (eth0): ADD timed out after 100 ms (nothing to undo)",
    );
  });
});
