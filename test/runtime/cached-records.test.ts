/**
 * Teardown, CHECK, GC and pod status over every kind of record a host's cache holds: network
 * lists (AddNetworkList), single plugin configurations (Go's AddNetwork, a runtime attaching a
 * `.conf` alone), a configuration of neither kind (reported, never dropped); CHECK of an
 * attachment whose configuration has none (below 0.4.0, or disableCheck) skipped and said so.
 */
import { access, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { intentsDir, writeIntent } from "../../src/cache/intent.js";
import { networkPluginConfFromBytes } from "../../src/index.js";
import { cachedAttachments } from "../../src/runtime/cached-pod.js";
import {
  loadNetworks,
  PodNotFoundError,
  PodTeardownError,
  planPod,
  RuntimeGCError,
} from "../../src/runtime/index.js";
import { intentOf } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const pod = { id: "pod1", netns: "/run/netns/pod1" };

describe("cached records of every kind", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
  });
  afterEach(() => d.cleanup());

  const load = (extra: object = {}) =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, ...extra });
  const records = async () => (await readdir(join(d.cacheDir, "results"))).sort();
  const single = (cniVersion = "1.0.0") =>
    networkPluginConfFromBytes(
      new TextEncoder().encode(
        JSON.stringify({ cniVersion, name: "solo", type: "macvlan", master: "eth9" }),
      ),
    );

  /** A single plugin attached as Go's AddNetwork attaches it: its record holds the plugin's bytes. */
  async function attachSingle(rt: Awaited<ReturnType<typeof load>>, cniVersion?: string) {
    await rt.cni.addNetwork(single(cniVersion), {
      containerID: "pod1",
      netNS: "/run/netns/pod1",
      ifName: "net9",
      args: [["K8S_POD_NAME", "web"]],
    });
    fake.calls.length = 0;
  }

  it("reads no record once the call's signal aborted (teardown, check, status and GC read through it)", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    const controller = new AbortController();
    controller.abort(new Error("shutting down"));
    const ctx = { cni: rt.cni, set: undefined, timeout: 0, traceContext: undefined };
    const aborted = cachedAttachments({ ...ctx, signal: controller.signal }, "pod1");
    await expect(aborted).rejects.toThrow("shutting down");
    const read = await cachedAttachments({ ...ctx, signal: undefined }, "pod1");
    expect(read.usable.map((a) => [a.network, a.ifName])).toEqual([["a", "eth0"]]);
  });

  it("tears a single-plugin record down by running that plugin with its cached config", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    await attachSingle(rt);
    const removed = await rt.teardownPod("pod1");
    expect(removed).toEqual([
      { network: "solo", ifName: "net9" },
      { network: "a", ifName: "eth0" },
    ]);
    const del = fake.calls.find((c) => c.network === "solo");
    expect(del).toMatchObject({
      command: "DEL",
      type: "macvlan",
      ifName: "net9",
      args: "K8S_POD_NAME=web",
    });
    expect(del?.config.master).toBe("eth9");
    // As upstream's DelNetwork: the cached result is the prevResult.
    expect(del?.config.prevResult).toMatchObject({ cniVersion: "1.0.0" });
    expect(await records()).toEqual([]);
  });

  it("CHECKs a single-plugin record with its plugin, and GC DELs it for a stale pod", async () => {
    const rt = await load();
    await attachSingle(rt);
    expect(await rt.checkPod("pod1")).toEqual([{ network: "solo", ifName: "net9" }]);
    expect(fake.seq()).toEqual(["CHECK solo:net9"]);
    fake.calls.length = 0;
    const report = await rt.gc([]);
    expect(report.removed).toEqual([{ podID: "pod1", network: "solo", ifName: "net9" }]);
    expect(fake.seq("DEL")).toEqual(["DEL solo:net9"]);
    expect(await records()).toEqual([]);
  });

  it("reports a record whose configuration is neither kind, and keeps it", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    const config = Buffer.from(JSON.stringify({ cniVersion: "1.0.0", name: "odd" })).toString(
      "base64",
    );
    await writeFile(
      join(d.cacheDir, "results", "odd-pod1-net5"),
      JSON.stringify({
        kind: "cniCacheV1",
        containerId: "pod1",
        config,
        ifName: "net5",
        networkName: "odd",
        netns: "/run/netns/pod1",
      }),
    );
    const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodTeardownError);
    const failures = (error as PodTeardownError).failures;
    expect(failures.map((f) => [f.network, f.ifName])).toEqual([["odd", "net5"]]);
    expect(String(failures[0].error)).toContain(
      "cached configuration of odd/net5 is neither a network list nor a plugin configuration",
    );
    expect(await records()).toEqual(["odd-pod1-net5"]);
    await expect(rt.gc([])).rejects.toBeInstanceOf(RuntimeGCError);
    expect(await records()).toEqual(["odd-pod1-net5"]);
  });

  it("keeps the intent of an interrupted attachment it cannot ready, reporting it each time", async () => {
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
    const rt = await load();
    // The setup died after a's record: b is known from the intent alone, and its
    // configuration there is neither kind (as a drop-in-only list's bytes are).
    await rt.setupPod({ ...pod, networks: ["a"] });
    const planned = intentOf(planPod(rt.networkSet, pod, undefined));
    planned[1] = {
      ...planned[1],
      config: new TextEncoder().encode(JSON.stringify({ cniVersion: "1.0.0", name: "b" })),
    };
    await writeIntent(d.cacheDir, "pod1", planned, true);
    const intent = join(intentsDir(d.cacheDir), "pod1");
    fake.calls.length = 0;
    for (let i = 0; i < 2; i++) {
      const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PodTeardownError);
      const failures = (error as PodTeardownError).failures;
      expect(failures.map((f) => [f.network, f.ifName])).toEqual([["b", "net1"]]);
      expect(String(failures[0].error)).toContain("neither a network list nor a plugin");
      await access(intent);
    }
    // a's record, then a again from the intent that still names it (DEL twice is the spec's).
    expect(fake.seq("DEL")).toEqual(["DEL a:eth0", "DEL a:eth0"]);
    await expect(rt.gc([])).rejects.toBeInstanceOf(RuntimeGCError);
    await access(intent);
  });

  it("skips CHECK of the built-in loopback (0.3.1) and says so", async () => {
    const rt = await load({ loopback: true });
    await rt.setupPod(pod);
    fake.calls.length = 0;
    expect(await rt.checkPod("pod1")).toEqual([
      {
        network: "cni-loopback",
        ifName: "lo",
        skipped: 'configuration version "0.3.1" does not support the CHECK command',
      },
      { network: "a", ifName: "eth0" },
    ]);
    expect(fake.seq()).toEqual(["CHECK a:eth0"]);
  });

  it("skips CHECK of a single plugin below 0.4.0 and of a list with disableCheck", async () => {
    await writeFile(
      join(d.confDir, "20-b.conflist"),
      JSON.stringify({
        cniVersion: "1.0.0",
        name: "b",
        disableCheck: true,
        plugins: [{ type: "ptp" }],
      }),
    );
    const rt = await load();
    await rt.setupPod(pod);
    await attachSingle(rt, "0.3.1");
    const checked = await rt.checkPod("pod1");
    expect(checked.map((c) => [c.network, c.skipped])).toEqual(
      expect.arrayContaining([
        ["a", undefined],
        ["b", "disableCheck is set"],
        ["solo", 'configuration version "0.3.1" does not support the CHECK command'],
      ]),
    );
    expect(fake.seq()).toEqual(["CHECK a:eth0"]);
  });

  it("gives a record without a netns (Go libcni before 1.2) the caller's; a cached netns wins", async () => {
    const rt = await load();
    await rt.setupPod(pod);
    const record = join(d.cacheDir, "results", "a-pod1-eth0");
    const { netns: _dropped, ...withoutNetns } = JSON.parse(await readFile(record, "utf8"));
    await writeFile(record, JSON.stringify(withoutNetns));
    await attachSingle(rt);
    await rt.teardownPod({ id: "pod1", netns: "/run/netns/other" });
    expect(fake.calls.map((c) => `${c.network} ${c.netns}`)).toEqual([
      "solo /run/netns/pod1",
      "a /run/netns/other",
    ]);
  });

  describe("podStatus", () => {
    it("rebuilds setupPod's summary from the cache alone, after a restart, with each result", async () => {
      const first = await load();
      const setup = await first.setupPod({ ...pod, networks: ["a"] });
      await attachSingle(first);
      // A restarted runtime, with network a gone from the conf dir.
      await rm(join(d.confDir, "10-a.conflist"));
      const rt = await load();
      expect(rt.networks).toEqual([]);
      fake.calls.length = 0;
      const status = await rt.podStatus("pod1");
      expect(fake.calls).toEqual([]);
      expect(status.podID).toBe("pod1");
      expect(status.problems).toEqual([]);
      expect(status.attachments.map((a) => [a.network, a.ifName, a.netns])).toEqual(
        expect.arrayContaining([
          ["a", "eth0", "/run/netns/pod1"],
          ["solo", "net9", "/run/netns/pod1"],
        ]),
      );
      const a = status.attachments.find((x) => x.network === "a");
      expect(a?.result?.cniVersion).toBe("1.1.0");
      // The same summary as setup gave, for network a.
      expect(status.interfaces.filter((i) => i.network === "a")).toEqual(setup.interfaces);
      expect(status.routes.filter((r) => r.network === "a")).toEqual(setup.routes);
      expect(status.dns.filter((x) => x.network === "a")).toEqual(setup.dns);
      expect(status.raw).toHaveLength(2);
      // JSON carries each attachment's result.
      const json = JSON.parse(JSON.stringify(status));
      expect(
        json.attachments.find((x: { network: string }) => x.network === "a").result.ips,
      ).toHaveLength(1);
    });

    it("throws PodNotFoundError for a pod with nothing cached", async () => {
      const rt = await load();
      await expect(rt.podStatus("nope")).rejects.toBeInstanceOf(PodNotFoundError);
    });

    it("lists an unreadable record as a problem and keeps the rest", async () => {
      const rt = await load();
      await rt.setupPod(pod);
      // A record whose configuration names another network: upstream's lookups would miss it.
      const config = Buffer.from(
        JSON.stringify({ cniVersion: "1.0.0", name: "other", plugins: [{ type: "x" }] }),
      ).toString("base64");
      await writeFile(
        join(d.cacheDir, "results", "bad-pod1-net7"),
        JSON.stringify({
          kind: "cniCacheV1",
          containerId: "pod1",
          config,
          ifName: "net7",
          networkName: "bad",
          netns: "/run/netns/pod1",
        }),
      );
      const status = await rt.podStatus("pod1");
      expect(status.attachments.map((x) => x.network)).toEqual(["a"]);
      expect(status.problems.map((p) => [p.network, p.ifName])).toEqual([["bad", "net7"]]);
      expect(String(status.problems[0].error)).toContain("names network other");
    });
  });
});
