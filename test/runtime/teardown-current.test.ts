/**
 * Issue 30, item 6: teardown of a pod the cache holds nothing for. By default nothing runs (the
 * pod is already torn down); with `ifNoRecords: "current-config"` each network is DELeted with
 * the current configuration on the interface names setupPod would give, as go-cni's Remove and
 * ocicni's TearDownPod fallback do, and each removal says so.
 */
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/index.js";
import {
  type CNIRuntime,
  loadNetworks,
  NetworkNotFoundError,
  NoNetworksError,
  PodTeardownError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("teardownPod of a pod with no records", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", [
      "bridge",
      { type: "portmap", capabilities: { portMappings: true } },
    ]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
  });
  afterEach(() => d.cleanup());

  const load = (extra: object = {}): Promise<CNIRuntime> =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, ...extra });
  const records = async () => (await readdir(join(d.cacheDir, "results")).catch(() => [])).sort();
  const pod = {
    id: "pod9",
    netns: "/run/netns/pod9",
    args: { K8S_POD_NAME: "web" },
    capabilities: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] },
  };

  it("does nothing by default, as before", async () => {
    const rt = await load();
    expect(await rt.teardownPod(pod)).toEqual([]);
    expect(await rt.teardownPod("pod9", { ifNoRecords: "nothing" })).toEqual([]);
    expect(fake.calls).toEqual([]);
  });

  it('"current-config" DELs every current network with the current config, on the planned interfaces, reverse attach order', async () => {
    const rt = await load();
    const removed = await rt.teardownPod(pod, { ifNoRecords: "current-config" });
    expect(removed).toEqual([
      { network: "b", ifName: "net1", fromCurrentConfig: true },
      { network: "a", ifName: "eth0", fromCurrentConfig: true },
    ]);
    expect(
      fake.calls.map(
        (c) => `${c.command} ${c.containerID} ${c.type} ${c.ifName} ${c.netns} ${c.args}`,
      ),
    ).toEqual([
      "DEL pod9 macvlan net1 /run/netns/pod9 K8S_POD_NAME=web",
      "DEL pod9 portmap eth0 /run/netns/pod9 K8S_POD_NAME=web",
      "DEL pod9 bridge eth0 /run/netns/pod9 K8S_POD_NAME=web",
    ]);
    // The conf file's plugin config with name and cniVersion injected (Go's sorted map), no
    // prevResult (nothing cached); portmap gets the pod's port mappings as go-cni sends them.
    expect(fake.calls[0].stdin).toBe('{"cniVersion":"1.0.0","name":"b","type":"macvlan"}');
    expect(fake.calls[2].stdin).toBe('{"cniVersion":"1.0.0","name":"a","type":"bridge"}');
    expect(fake.calls[1].stdin).toBe(
      '{"capabilities":{"portMappings":true},"cniVersion":"1.0.0","name":"a",' +
        '"runtimeConfig":{"portMappings":[{"HostPort":8080,"ContainerPort":80,"Protocol":"tcp","HostIP":""}]},' +
        '"type":"portmap"}',
    );
    expect(await records()).toEqual([]);
  });

  it("takes the pod's networks and interface names, and go-cni's names with interfacePrefix", async () => {
    const rt = await load({ interfacePrefix: "eth" });
    const removed = await rt.teardownPod(
      { id: "pod9", netns: "/run/netns/pod9", networks: ["b", { name: "a", ifName: "web0" }] },
      { ifNoRecords: "current-config" },
    );
    expect(removed).toEqual([
      { network: "a", ifName: "web0", fromCurrentConfig: true },
      { network: "b", ifName: "eth0", fromCurrentConfig: true },
    ]);
    expect(fake.seq("DEL")).toEqual(["DEL a:web0", "DEL a:web0", "DEL b:eth0"]);
    // Without a netns (an ID alone): an empty CNI_NETNS, which the spec allows for DEL.
    fake.calls.length = 0;
    await rt.teardownPod("pod9", { ifNoRecords: "current-config" });
    expect(fake.calls.map((c) => `${c.ifName}:${c.netns}`)).toEqual(["eth1:", "eth0:", "eth0:"]);
  });

  it("a pod with records is torn down from them, with the cached config, option or not", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["edited"]);
    await rt.reload();
    fake.calls.length = 0;
    const removed = await rt.teardownPod(pod, { ifNoRecords: "current-config" });
    expect(removed).toEqual([
      { network: "b", ifName: "net1" },
      { network: "a", ifName: "eth0" },
    ]);
    expect(fake.calls.map((c) => c.type)).toEqual(["macvlan", "portmap", "bridge"]);
    expect(fake.calls[0].config.prevResult).toBeDefined();
    // Now the pod has no records: the option DELs with the current (edited) config.
    fake.calls.length = 0;
    const again = await rt.teardownPod(pod, { ifNoRecords: "current-config" });
    expect(again.every((a) => a.fromCurrentConfig)).toBe(true);
    expect(fake.calls.map((c) => c.type)).toEqual(["edited", "portmap", "bridge"]);
  });

  it("tries every network and reports the failures together", async () => {
    const rt = await load();
    fake.fail.set("b/DEL", "macvlan is unhappy");
    const error = await rt
      .teardownPod(pod, { ifNoRecords: "current-config" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodTeardownError);
    expect((error as PodTeardownError).message).toContain("macvlan is unhappy");
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
  });

  it("refuses to guess: not ready and naming no networks is NoNetworksError; a network not loaded is NetworkNotFoundError; nothing runs", async () => {
    const rt = await load({ defaultNetwork: "a" });
    await rm(join(d.confDir, "10-a.conflist"));
    await rt.reload();
    await expect(rt.teardownPod(pod, { ifNoRecords: "current-config" })).rejects.toBeInstanceOf(
      NoNetworksError,
    );
    await expect(
      rt.teardownPod({ ...pod, networks: ["a"] }, { ifNoRecords: "current-config" }),
    ).rejects.toBeInstanceOf(NetworkNotFoundError);
    expect(fake.calls).toEqual([]);
    // Naming a network still loaded works while the default network is gone.
    expect(
      await rt.teardownPod({ ...pod, networks: ["b"] }, { ifNoRecords: "current-config" }),
    ).toEqual([{ network: "b", ifName: "eth0", fromCurrentConfig: true }]);
  });

  it("rejects an unknown ifNoRecords before anything runs", async () => {
    const rt = await load();
    await expect(rt.teardownPod(pod, { ifNoRecords: "guess" as "nothing" })).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    expect(fake.calls).toEqual([]);
  });
});
