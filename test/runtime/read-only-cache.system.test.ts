/**
 * A cache dir remounted read-only (root: a read-only bind mount over a temp dir): the pod
 * layer never reports an attachment removed while its record remains, and the next GC after
 * the disk recovers removes it; a setup refuses to start when its intent cannot be written;
 * CNIConfig keeps upstream's semantics (the removal is ignored) and says so on
 * `libcni:cache-remove-failed`.
 */

import { execFile } from "node:child_process";
import diagnosticsChannel from "node:diagnostics_channel";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CacheRecordRemoveError, type CacheRemoveFailedMessage } from "../../src/index.js";
import {
  type CNIRuntime,
  loadNetworks,
  PodSetupError,
  PodTeardownError,
  RuntimeGCError,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const sh = promisify(execFile);

describe("a read-only cache dir (root)", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  let mounted = false;
  const readOnly = async () => {
    await sh("mount", ["--bind", d.cacheDir, d.cacheDir]);
    mounted = true;
    await sh("mount", ["-o", "remount,ro,bind", d.cacheDir]);
  };
  const writable = async () => {
    if (mounted) await sh("umount", [d.cacheDir]);
    mounted = false;
  };
  beforeEach(async () => {
    if (process.getuid?.() !== 0) throw new Error("this suite needs root (mount)");
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(async () => {
    await writable();
    await d.cleanup();
  });

  const records = async () => (await readdir(join(d.cacheDir, "results"))).sort();
  const pod = { id: "pod1", netns: "/run/netns/pod1" };

  it("teardown and GC report the records they could not remove; the next GC removes them", async () => {
    await rt.setupPod(pod);
    await readOnly();
    const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodTeardownError);
    const failures = (error as PodTeardownError).failures;
    expect(failures.map((f) => f.network).sort()).toEqual(["a", "b"]);
    for (const f of failures) {
      expect(f.error).toBeInstanceOf(CacheRecordRemoveError);
      expect(String(f.error)).toContain("EROFS");
    }
    // The plugins' DELs ran; the records are still there and still listed.
    expect(fake.seq("DEL")).toEqual(["DEL b:net1", "DEL a:eth0"]);
    expect(await records()).toEqual(["a-pod1-eth0", "b-pod1-net1"]);
    expect(await rt.cni.getCachedAttachments("pod1")).toHaveLength(2);
    await expect(rt.gc([])).rejects.toBeInstanceOf(RuntimeGCError);
    await writable();
    expect((await rt.gc([])).removed).toHaveLength(2);
    expect(await records()).toEqual([]);
  });

  it("a setup whose intent cannot be written fails before any plugin runs", async () => {
    await readOnly();
    const error = await rt.setupPod(pod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    expect((error as PodSetupError).message).toMatch(
      /record the setup intent: .*read-only file system \(nothing to undo\)$/,
    );
    expect(fake.calls).toEqual([]);
  });

  it("CNIConfig's DEL keeps upstream's semantics and says the removal failed", async () => {
    await rt.setupPod({ ...pod, networks: ["a"] });
    const a = rt.networkSet.get("a");
    if (a === undefined) throw new Error("no network a");
    await readOnly();
    const seen: CacheRemoveFailedMessage[] = [];
    const onMessage = (m: unknown) => seen.push(m as CacheRemoveFailedMessage);
    diagnosticsChannel.subscribe("libcni:cache-remove-failed", onMessage);
    try {
      await rt.cni.delNetworkList(a.config, {
        containerID: "pod1",
        netNS: pod.netns,
        ifName: "eth0",
      });
    } finally {
      diagnosticsChannel.unsubscribe("libcni:cache-remove-failed", onMessage);
    }
    expect(seen.map((m) => m.path)).toEqual([join(d.cacheDir, "results", "a-pod1-eth0")]);
    expect(String(seen[0]?.error)).toContain("EROFS");
  });
});
