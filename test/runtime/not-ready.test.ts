/**
 * A runtime that starts before its network config exists (kubelet starts the runtime before
 * the CNI DaemonSet writes /etc/cni/net.d): not ready, with the reason, until a reload or the
 * watcher brings the first network in. containerd and CRI-O start the same way.
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CNIRuntime,
  loadNetworks,
  type NetworkSetChange,
  type NetworkWatcher,
  NoNetworksError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const firstChange = (w: NetworkWatcher): Promise<NetworkSetChange> =>
  new Promise((resolve) => w.once("change", resolve));

describe("a runtime started before its network config exists", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let watcher: NetworkWatcher | undefined;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
  });
  afterEach(async () => {
    await watcher?.close();
    watcher = undefined;
    await d.cleanup();
  });

  const load = (confDir: string, extra: object = {}): Promise<CNIRuntime> =>
    loadNetworks({ confDir, cacheDir: d.cacheDir, exec: fake.exec, ...extra });
  const pod = { id: "p1", netns: "/run/netns/p1" };

  it("says why it is not ready, refuses setups with NoNetworksError, and a reload brings the network in", async () => {
    const rt = await load(d.confDir);
    const status = await rt.status();
    expect(status).toMatchObject({ ready: false, defaultReady: false, networks: [] });
    expect(status.reason).toBe(`no valid networks found in ${d.confDir}`);
    const error = await rt.setupPod(pod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoNetworksError);
    expect(fake.calls).toEqual([]);
    // A reload of a runtime that is not ready is not an error, whatever it finds.
    await rt.reload();
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    await rt.reload();
    expect((await rt.status()).ready).toBe(true);
    expect((await rt.setupPod(pod)).attachments).toEqual([{ network: "a", ifName: "eth0" }]);
  });

  it("names a missing conf dir, and the watcher picks it up when it is created", async () => {
    const confDir = join(d.base, "later", "net.d");
    const rt = await load(confDir);
    expect((await rt.status()).reason).toBe(`conf dir ${confDir} does not exist`);
    watcher = rt.watch({ debounce: 20, persistent: false });
    const change = firstChange(watcher);
    await mkdir(join(d.base, "later"));
    await mkdir(confDir);
    await writeNetwork(confDir, "10-a.conflist", "a");
    expect(await change).toMatchObject({ added: ["a"] });
    expect((await rt.status()).ready).toBe(true);
  });

  it("follows a conf dir replaced under its name (mv net.d old; mkdir net.d)", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    const rt = await load(d.confDir);
    watcher = rt.watch({ debounce: 20, persistent: false });
    const gone = firstChange(watcher);
    await rename(d.confDir, join(d.base, "old"));
    await mkdir(d.confDir);
    await writeNetwork(d.confDir, "10-b.conflist", "b");
    await gone;
    // Whatever the first reload saw, later writes in the new dir are followed.
    const later = new Promise<void>((resolve) =>
      watcher?.on("change", (c) => c.set.get("c") && resolve()),
    );
    await writeNetwork(d.confDir, "20-c.conflist", "c");
    await later;
    expect(rt.networks.map((n) => n.name)).toEqual(["b", "c"]);
  });

  it("a setup naming its networks proceeds while only the default network is missing", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    const rt = await load(d.confDir, { defaultNetwork: "pods" });
    const status = await rt.status();
    expect(status.ready).toBe(false);
    expect(status.reason).toBe(`default network "pods" not found in ${d.confDir}`);
    await expect(rt.setupPod(pod)).rejects.toBeInstanceOf(NoNetworksError);
    expect((await rt.setupPod({ ...pod, networks: ["a"] })).attachments).toHaveLength(1);
    await writeNetwork(d.confDir, "20-pods.conflist", "pods");
    await rt.reload();
    expect(rt.defaultNetwork?.name).toBe("pods");
    expect((await rt.status()).ready).toBe(true);
  });

  it("a ready runtime whose dir is emptied follows it: not ready, with the reason (go-cni, ocicni)", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    const rt = await load(d.confDir);
    await rm(join(d.confDir, "10-a.conflist"));
    await rt.reload();
    expect(rt.networks).toEqual([]);
    expect(await rt.status()).toMatchObject({
      ready: false,
      reason: `no valid networks found in ${d.confDir}`,
    });
  });
});
