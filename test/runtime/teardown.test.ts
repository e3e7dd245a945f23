import { readdir, rm, utimes } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadNetworks, PodTeardownError } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("teardownPod: from the result cache", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "portmap"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
    await writeNetwork(d.confDir, "30-c.conflist", "c", ["ptp"]);
  });
  afterEach(() => d.cleanup());

  const load = () => loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  const records = async () => (await readdir(join(d.cacheDir, "results"))).sort();
  const pod = { id: "pod1", netns: "/run/netns/pod1" };

  it("aborted while it reads the pod's records: rejects with the reason, its records kept and read no further", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    fake.calls.length = 0;
    const controller = new AbortController();
    const reason = new Error("shutting down");
    const call = rt.teardownPod("pod1", { signal: controller.signal });
    setImmediate(() => controller.abort(reason)); // the pod's lock is held; its reads under way
    await expect(call).rejects.toBe(reason);
    expect(fake.calls).toEqual([]);
    expect(await records()).toHaveLength(3);
    expect(await rt.teardownPod("pod1")).toHaveLength(3);
  });

  it("DELs every attachment in reverse attach order, and a second call succeeds", async () => {
    const rt = await load();
    await rt.setupPod({ ...pod, args: { K8S_POD_NAME: "web" } });
    fake.calls.length = 0;
    const removed = await rt.teardownPod("pod1");
    expect(removed).toEqual([
      { network: "c", ifName: "net2" },
      { network: "b", ifName: "net1" },
      { network: "a", ifName: "eth0" },
    ]);
    expect(
      fake.calls.map((c) => `${c.command} ${c.type} ${c.ifName} ${c.netns} ${c.args}`),
    ).toEqual([
      "DEL ptp net2 /run/netns/pod1 K8S_POD_NAME=web",
      "DEL macvlan net1 /run/netns/pod1 K8S_POD_NAME=web",
      "DEL portmap eth0 /run/netns/pod1 K8S_POD_NAME=web",
      "DEL bridge eth0 /run/netns/pod1 K8S_POD_NAME=web",
    ]);
    // DEL gets the cached result as prevResult.
    expect(fake.calls[0].config.prevResult).toMatchObject({ cniVersion: "1.0.0" });
    expect(await records()).toEqual([]);
    fake.calls.length = 0;
    expect(await rt.teardownPod({ id: "pod1" })).toEqual([]);
    expect(fake.calls).toEqual([]);
  });

  it("a DEL that says 'not found' is taken as gone, as go-cni's Remove: teardown goes on and the record goes", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    fake.fail.set("b/DEL", "link net1 not found");
    fake.fail.set("c/DEL", "permission denied");
    const error = (await rt.teardownPod("pod1").catch((e: unknown) => e)) as PodTeardownError;
    // Only the other failure is one; b's record went with a's.
    expect(error.failures.map((f) => f.network)).toEqual(["c"]);
    expect(await records()).toEqual(["c-pod1-net2"]);
    fake.fail.delete("c/DEL");
    expect(await rt.teardownPod("pod1")).toEqual([{ network: "c", ifName: "net2" }]);
    expect(await records()).toEqual([]);
  });

  it("uses the record times for the order: explicit names torn down last-attached first", async () => {
    const rt = await load();
    await rt.setupPod({
      ...pod,
      networks: [
        { name: "c", ifName: "zz" },
        { name: "a", ifName: "aa" },
      ],
    });
    // Make the times unambiguous (file timestamps are coarse).
    await utimes(join(d.cacheDir, "results", "c-pod1-zz"), 1000, 1000);
    await utimes(join(d.cacheDir, "results", "a-pod1-aa"), 2000, 2000);
    fake.calls.length = 0;
    await rt.teardownPod("pod1");
    expect(fake.seq("DEL")).toEqual(["DEL a:aa", "DEL a:aa", "DEL c:zz"]);
  });

  it("DELs each attachment from its record as it was read, reading none again", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    const { writeFile } = await import("node:fs/promises");
    fake.calls.length = 0;
    // During the first DEL, the records not yet DELeted change on disk: the teardown passes on
    // what it read before the first plugin ran.
    fake.gate = async (call) => {
      if (call.network !== "c") return;
      for (const name of ["a-pod1-eth0", "b-pod1-net1"]) {
        await writeFile(join(d.cacheDir, "results", name), "not a record");
      }
    };
    await rt.teardownPod("pod1");
    const prev = (network: string) =>
      fake.calls.find((c) => c.network === network)?.config.prevResult as { ips?: unknown[] };
    expect(prev("b")?.ips).toHaveLength(1);
    expect(prev("a")?.ips).toHaveLength(1);
    expect(await records()).toEqual([]);
  });

  it("checks each attachment from its record as it was read, reading none again", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    const { writeFile } = await import("node:fs/promises");
    fake.calls.length = 0;
    fake.gate = async (call) => {
      if (call.network !== "a") return;
      for (const name of ["b-pod1-net1", "c-pod1-net2"]) {
        await writeFile(join(d.cacheDir, "results", name), "not a record");
      }
    };
    await rt.checkPod("pod1");
    const prev = (network: string) =>
      fake.calls.find((c) => c.network === network)?.config.prevResult as { ips?: unknown[] };
    expect(fake.seq("CHECK")).toEqual([
      "CHECK a:eth0",
      "CHECK a:eth0",
      "CHECK b:net1",
      "CHECK c:net2",
    ]);
    expect(prev("b")?.ips).toHaveLength(1);
    expect(prev("c")?.ips).toHaveLength(1);
  });

  it("uses the cached configuration after the network was edited in the conf dir", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["other"]);
    await rt.reload();
    expect(rt.networkSet.get("a")?.config.plugins[0].network.type).toBe("other");
    fake.calls.length = 0;
    await rt.teardownPod("pod1");
    expect(fake.calls.map((c) => `${c.network}/${c.type}`)).toEqual([
      "c/ptp",
      "b/macvlan",
      "a/portmap",
      "a/bridge",
    ]);
  });

  it("tears down a network deleted from the conf dir, from a fresh runtime", async () => {
    await (await load()).setupPod(pod);
    await rm(join(d.confDir, "20-b.conflist"));
    const rt = await load();
    expect(rt.networks.map((n) => n.name)).toEqual(["a", "c"]);
    fake.calls.length = 0;
    await rt.teardownPod("pod1");
    expect(fake.seq("DEL")).toContain("DEL b:net1");
    expect(await records()).toEqual([]);
  });

  it("tries every attachment and throws the failures together; what failed stays cached", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    fake.fail.set("b/DEL", "b stuck");
    const e = (await rt.teardownPod("pod1").catch((x: unknown) => x)) as PodTeardownError;
    expect(e).toBeInstanceOf(PodTeardownError);
    expect(e.id).toBe("LIBCNI_ERR_POD_TEARDOWN");
    expect(e.failures.map((f) => `${f.network}:${f.ifName}`)).toEqual(["b:net1"]);
    expect(e.message).toContain("b stuck");
    expect(fake.seq("DEL")).toContain("DEL a:eth0");
    expect(await records()).toEqual(["b-pod1-net1"]);
    fake.fail.clear();
    await rt.teardownPod("pod1");
    expect(await records()).toEqual([]);
  });

  it("a DEL over the per-network timeout names its network once in the message", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    fake.hang.add("b/DEL");
    const e = (await rt
      .teardownPod("pod1", { timeout: 50 })
      .catch((x: unknown) => x)) as PodTeardownError;
    expect(e).toBeInstanceOf(PodTeardownError);
    expect(e.message).toBe("tear down pod pod1: b (net1): DEL timed out after 50 ms");
    expect((e.failures[0].error as Error).message).toBe("network b: DEL timed out after 50 ms");
    fake.hang.clear();
    await rt.teardownPod("pod1");
  });

  it("leaves other pods' attachments alone", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    await rt.setupPod({ id: "pod2", netns: "/run/netns/pod2", networks: ["b"] });
    await rt.teardownPod("pod1");
    expect(await records()).toEqual(["b-pod2-eth0"]);
  });
});
