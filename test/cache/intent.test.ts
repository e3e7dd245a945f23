/**
 * Crash-safe setup: what a setup is about to attach is on disk before its first plugin runs,
 * where Go does not look; teardown and GC DEL every attachment of an interrupted setup that has
 * no record, with what it was started with. (The SIGKILL trials on real plugins are in
 * test/e2e/crash-recovery.test.ts.)
 */
import { access, readdir, readFile, readlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { intentsDir, writeIntent } from "../../src/cache/intent.js";
import { type CNIRuntime, loadNetworks, PodSetupError, planPod } from "../../src/runtime/index.js";
import { intentOf } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "../runtime/helpers.js";

const pod = { id: "pod1", netns: "/run/netns/pod1", args: { K8S_POD_NAME: "web" } };
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe("setup intents", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge", "portmap"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(() => d.cleanup());

  const intentFile = () => join(intentsDir(d.cacheDir), "pod1");
  const records = async () => (await readdir(join(d.cacheDir, "results")).catch(() => [])).sort();

  it("is on disk before the first plugin runs, names every planned attachment, and goes after", async () => {
    let seen: unknown;
    fake.gate = async (call) => {
      if (seen === undefined && call.command === "ADD") {
        seen = JSON.parse(await readFile(intentFile(), "utf8"));
      }
    };
    await rt.setupPod({
      ...pod,
      capabilities: { portMappings: [{ hostPort: 80, containerPort: 80 }] },
    });
    expect(seen).toMatchObject({
      kind: "libcniSetupIntentV1",
      containerId: "pod1",
      attachments: [
        {
          networkName: "a",
          ifName: "eth0",
          netns: "/run/netns/pod1",
          cniArgs: [["K8S_POD_NAME", "web"]],
        },
        { networkName: "b", ifName: "net1", netns: "/run/netns/pod1" },
      ],
    });
    // Its owner: this process, where its pid and start time mean something (namespaces, boot).
    const stat = await readFile("/proc/self/stat", "latin1");
    expect((seen as { owner: unknown }).owner).toEqual({
      pid: Number(await readlink("/proc/self")),
      start: stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19],
      ns: expect.stringMatching(/^[0-9a-z]{8}$/),
      boot: (await readFile("/proc/sys/kernel/random/boot_id", "latin1")).trim(),
    });
    const [first] = (seen as { attachments: { config: string; capabilityArgs: unknown }[] })
      .attachments;
    expect(JSON.parse(Buffer.from(first?.config ?? "", "base64").toString())).toMatchObject({
      name: "a",
    });
    expect(first?.capabilityArgs).toEqual({
      portMappings: [{ HostPort: 80, ContainerPort: 80, Protocol: "", HostIP: "" }],
    });
    expect(await exists(intentFile())).toBe(false);
    // Go's results/ holds Go's records only.
    expect(await records()).toEqual(["a-pod1-eth0", "b-pod1-net1"]);
  });

  it("teardown DELs a network whose setup was interrupted (no record) with what it was started with", async () => {
    // As a process killed while network b's plugins ran: a is recorded, b only in the intent.
    await rt.setupPod({ ...pod, networks: ["a"] });
    await writeIntent(d.cacheDir, "pod1", intentOf(planPod(rt.networkSet, pod, undefined)), true);
    fake.calls.length = 0;
    const removed = await rt.teardownPod("pod1");
    expect(removed).toEqual([
      { network: "b", ifName: "net1" },
      { network: "a", ifName: "eth0" },
    ]);
    expect(
      fake.calls.map((c) => `${c.command} ${c.network}/${c.type}:${c.ifName} ${c.netns} ${c.args}`),
    ).toEqual([
      "DEL b/macvlan:net1 /run/netns/pod1 K8S_POD_NAME=web",
      "DEL a/portmap:eth0 /run/netns/pod1 K8S_POD_NAME=web",
      "DEL a/bridge:eth0 /run/netns/pod1 K8S_POD_NAME=web",
    ]);
    expect(await exists(intentFile())).toBe(false);
    expect(await records()).toEqual([]);
    expect(await rt.teardownPod("pod1")).toEqual([]);
  });

  it("GC collects a pod whose setup was interrupted before any record was written", async () => {
    await writeIntent(d.cacheDir, "pod1", intentOf(planPod(rt.networkSet, pod, undefined)), true);
    const report = await rt.gc([]);
    expect(report.removed).toEqual([
      { podID: "pod1", network: "b", ifName: "net1" },
      { podID: "pod1", network: "a", ifName: "eth0" },
    ]);
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
    expect(await exists(intentFile())).toBe(false);
  });

  it("GC drops an interrupted setup's intent that names no attachment", async () => {
    await writeIntent(d.cacheDir, "pod1", [], true);
    expect((await rt.gc([])).removed).toEqual([]);
    expect(await exists(intentFile())).toBe(false);
  });

  it("an unreadable intent is reported and set aside, never acted on blindly", async () => {
    await writeIntent(d.cacheDir, "pod1", [], true);
    await writeFile(intentFile(), "{not json");
    const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
    expect(String(error)).toContain("setup intent");
    expect(fake.seq("DEL")).toEqual([]);
    // Kept for a look under another name (test/runtime/damaged-intents.test.ts), not in the way.
    expect(await exists(intentFile())).toBe(false);
    expect(await rt.interruptedSetups()).toEqual([]);
  });

  it("lists the interrupted setups, not a setup running in this runtime", async () => {
    await writeIntent(
      d.cacheDir,
      "crashed",
      intentOf(planPod(rt.networkSet, { ...pod, id: "crashed" }, undefined)),
      true,
    );
    let during: string[] = [];
    fake.gate = async (call) => {
      if (call.command === "ADD" && during.length === 0) during = await rt.interruptedSetups();
    };
    await rt.setupPod(pod);
    expect(during).toEqual(["crashed"]);
    expect(await rt.interruptedSetups()).toEqual(["crashed"]);
    await rt.teardownPod("crashed");
    expect(await rt.interruptedSetups()).toEqual([]);
  });

  it("GC removes the temporary file of an intent write a killed runtime left, once stale", async () => {
    await writeIntent(d.cacheDir, "pod1", [], true);
    const stale = join(intentsDir(d.cacheDir), ".libcni-dead-1.tmp");
    const fresh = join(intentsDir(d.cacheDir), ".libcni-live-1.tmp");
    await writeFile(stale, "{");
    await writeFile(fresh, "{");
    await utimes(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await rt.gc([]);
    // The stale one goes; a young one may be a write in progress and stays.
    expect((await readdir(intentsDir(d.cacheDir))).sort()).toEqual([".libcni-live-1.tmp"]);
  });

  it("GC leaves the intent of a valid pod alone", async () => {
    await writeIntent(d.cacheDir, "pod1", intentOf(planPod(rt.networkSet, pod, undefined)), true);
    await rt.gc(["pod1"]);
    expect(fake.seq("DEL")).toEqual([]);
    expect(await exists(intentFile())).toBe(true);
  });

  it("a failed rollback keeps the intent, and the next teardown DELs the attachment again", async () => {
    fake.fail.set("b/ADD", "b add");
    fake.fail.set("b/DEL", "b del");
    const e = (await rt.setupPod(pod).catch((x: unknown) => x)) as PodSetupError;
    expect(e).toBeInstanceOf(PodSetupError);
    expect(e.rollbackFailures.map((f) => f.network)).toEqual(["b"]);
    expect(await exists(intentFile())).toBe(true);
    expect(await records()).toEqual([]);
    fake.fail.delete("b/DEL");
    fake.calls.length = 0;
    await rt.teardownPod("pod1");
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0", "DEL a:eth0"]);
    expect(await exists(intentFile())).toBe(false);
  });

  it("a clean rollback removes the intent", async () => {
    fake.fail.set("b/ADD", "b add");
    await expect(rt.setupPod(pod)).rejects.toBeInstanceOf(PodSetupError);
    expect(await exists(intentFile())).toBe(false);
  });

  it("an interrupted attachment whose DEL fails keeps the intent for the next try", async () => {
    await writeIntent(d.cacheDir, "pod1", intentOf(planPod(rt.networkSet, pod, undefined)), true);
    fake.fail.set("b/DEL", "still busy");
    await expect(rt.teardownPod("pod1")).rejects.toThrow("still busy");
    expect(await exists(intentFile())).toBe(true);
    fake.fail.delete("b/DEL");
    await rt.teardownPod("pod1");
    expect(await exists(intentFile())).toBe(false);
  });
});
