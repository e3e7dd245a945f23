/**
 * Issue 30, item 6: a runtime follows its networks away. A reload (or the watcher) that finds
 * the default network gone, or every network gone, makes the runtime not ready until a usable
 * config is back, as go-cni's Load and ocicni's syncNetworkConfig do; pods set up before keep
 * tearing down from their records. Only a conf dir that cannot be listed keeps a ready set.
 */
import { mkdir, rename, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CNIRuntime,
  DefaultNetworkNotFoundError,
  loadNetworks,
  type NetworkWatcher,
  NoNetworksError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, nextChange, writeNetwork } from "./helpers.js";

describe("a runtime that follows its networks away", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let w: NetworkWatcher | undefined;
  let podsFile: string;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    podsFile = await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
  });
  afterEach(async () => {
    await w?.close();
    w = undefined;
    await d.cleanup();
  });

  const load = (extra: object = {}): Promise<CNIRuntime> =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, ...extra });
  const pod = (id: string) => ({ id, netns: `/run/netns/${id}` });
  const adds = () => fake.calls.filter((c) => c.command === "ADD").length;

  it("default network's file deleted: not ready with the reason, setups refused, old pods torn down from their records; file back: ready", async () => {
    const rt = await load({ defaultNetwork: "pods" });
    expect((await rt.status()).ready).toBe(true);
    await rt.setupPod(pod("before"));

    await rm(podsFile);
    await rt.reload();
    const status = await rt.status();
    expect(status.ready).toBe(false);
    expect(status.reason).toBe(`default network "pods" not found in ${d.confDir}`);
    expect(rt.defaultNetwork).toBeUndefined();
    expect(rt.networks.map((n) => n.name)).toEqual(["b"]);

    const before = adds();
    const refused = await rt.setupPod(pod("after")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DefaultNetworkNotFoundError);
    expect(refused).toBeInstanceOf(NoNetworksError);
    expect(refused).toMatchObject({
      id: "LIBCNI_ERR_DEFAULT_NETWORK_NOT_FOUND",
      network: "pods",
      confDir: d.confDir,
    });
    expect(adds()).toBe(before);
    // ocicni's rule: a pod that names its networks is not the default network's business.
    expect((await rt.setupPod({ ...pod("named"), networks: ["b"] })).attachments).toEqual([
      { network: "b", ifName: "eth0" },
    ]);

    fake.calls.length = 0;
    expect(await rt.teardownPod("before")).toEqual([
      { network: "b", ifName: "net1" },
      { network: "pods", ifName: "eth0" },
    ]);
    // The deleted network's DEL ran with its cached configuration.
    expect(fake.calls.map((c) => `${c.command} ${c.network} ${c.type} ${c.ifName}`)).toEqual([
      "DEL b macvlan net1",
      "DEL pods bridge eth0",
    ]);
    expect(fake.calls[1].config.prevResult).toBeDefined();

    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"]);
    await rt.reload();
    const back = await rt.status();
    expect(back.ready).toBe(true);
    expect(back.reason).toBeUndefined();
    expect(rt.defaultNetwork?.name).toBe("pods");
    expect((await rt.setupPod(pod("again"))).attachments).toEqual([
      { network: "pods", ifName: "eth0" },
      { network: "b", ifName: "net1" },
    ]);
  });

  it("a broken edit of the default network's file is the network gone, the file named", async () => {
    const rt = await load({ defaultNetwork: "pods" });
    await writeFile(podsFile, '{"cniVersion":"1.0.0","name":"pods","plugins":[');
    await rt.reload();
    const status = await rt.status();
    expect(status.ready).toBe(false);
    expect(status.reason).toContain(`default network "pods" not found in ${d.confDir}: `);
    expect(status.reason).toContain("10-pods.conflist");
    expect(rt.networkSet.notReady).toBeInstanceOf(DefaultNetworkNotFoundError);
    expect(rt.networkSet.notReady?.problems.map((p) => p.file)).toEqual([podsFile]);
  });

  it("every network gone, then the dir itself: not ready each time, with the reason; back: ready", async () => {
    const rt = await load();
    await rt.setupPod(pod("before"));
    await rm(podsFile);
    await rm(join(d.confDir, "20-b.conflist"));
    await rt.reload();
    expect(await rt.status()).toMatchObject({
      ready: false,
      reason: `no valid networks found in ${d.confDir}`,
      networks: [],
    });
    await expect(rt.setupPod(pod("after"))).rejects.toBeInstanceOf(NoNetworksError);
    await expect(rt.setupPod({ ...pod("after"), networks: ["b"] })).rejects.toBeInstanceOf(
      NoNetworksError,
    );

    await rename(d.confDir, join(d.base, "gone"));
    await rt.reload();
    expect((await rt.status()).reason).toBe(`conf dir ${d.confDir} does not exist`);
    fake.calls.length = 0;
    expect(await rt.teardownPod("before")).toHaveLength(2);
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL pods:eth0"]);

    await mkdir(d.confDir);
    await writeNetwork(d.confDir, "30-c.conflist", "c");
    await rt.reload();
    expect((await rt.status()).ready).toBe(true);
    expect(rt.defaultNetwork?.name).toBe("c");
  });

  it("without a named default, the first remaining file's network becomes the default: still ready", async () => {
    const rt = await load();
    expect(rt.defaultNetwork?.name).toBe("pods");
    await rm(podsFile);
    await rt.reload();
    expect((await rt.status()).ready).toBe(true);
    expect(rt.defaultNetwork?.name).toBe("b");
    expect((await rt.setupPod(pod("p"))).attachments).toEqual([{ network: "b", ifName: "eth0" }]);
  });

  it("the watcher follows the default network away and back, without an error", async () => {
    const rt = await load({ defaultNetwork: "pods" });
    w = rt.watch({ debounce: 20, persistent: false });
    const errors: unknown[] = [];
    w.on("error", (e) => errors.push(e));
    const gone = nextChange(w, (c) => c.removed.includes("pods"));
    await rm(podsFile);
    const change = await gone;
    expect(change.set.notReady).toBeInstanceOf(DefaultNetworkNotFoundError);
    expect((await rt.status()).ready).toBe(false);
    await expect(rt.setupPod(pod("p"))).rejects.toBeInstanceOf(DefaultNetworkNotFoundError);

    const back = nextChange(w, (c) => c.added.includes("pods"));
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"]);
    expect((await back).set.notReady).toBeUndefined();
    expect((await rt.status()).ready).toBe(true);
    expect(errors).toEqual([]);
    expect(w.lastError).toBeUndefined();
  });

  it("a conf dir that cannot be listed (not its absence) keeps a ready set, and says why", async () => {
    const link = join(d.base, "net.d-link");
    await symlink(d.confDir, link);
    const rt = await loadNetworks({ confDir: link, cacheDir: d.cacheDir, exec: fake.exec });
    expect((await rt.status()).ready).toBe(true);
    // A symlink to itself: readdir fails with ELOOP, which says nothing about the networks.
    await rm(link);
    await symlink(link, link);
    const error = await rt.reload().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoNetworksError);
    expect((error as NoNetworksError).reason).toMatch(/^conf dir .*net\.d-link cannot be read: /);
    expect(rt.networks.map((n) => n.name)).toEqual(["pods", "b"]);
    expect((await rt.status()).ready).toBe(true);
    // Readable again, without the default network's file: followed.
    await rm(link);
    await symlink(d.confDir, link);
    await rm(podsFile);
    await rt.reload();
    expect(rt.networks.map((n) => n.name)).toEqual(["b"]);
  });
});
