/**
 * Issue 42, on a real namespace (root): setupPod's netns check lets a pinned network namespace
 * (`ip netns add`'s nsfs bind mount) through, with the runtime's own exec (the check on by
 * default), and refuses the same path once the namespace is removed, running nothing.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadNetworks, PodNetnsError } from "../../src/runtime/index.js";
import { tempNetns } from "../../src/testing/index.js";
import { type RecordingDirs, recordingNetwork } from "./helpers.js";

let d: RecordingDirs;

// A recording plugin: its command and netns.
beforeAll(async () => {
  d = await recordingNetwork("CNI_NETNS");
});
afterAll(() => d.cleanup());

const calls = () => d.calls();

describe("setupPod's netns check on a real namespace", () => {
  it("a pinned network namespace passes; removed, the same path is refused", async () => {
    const rt = await loadNetworks({ confDir: d.confDir, binDirs: [d.bin], cacheDir: d.cacheDir });
    const ns = await tempNetns({ label: "netns-check" });
    try {
      await rt.setupPod({ id: "p1", netns: ns.path });
      expect(await calls()).toEqual([`ADD ${ns.path}`]);
      await rt.teardownPod("p1");
    } finally {
      await ns.remove();
    }
    const error = await rt.setupPod({ id: "p2", netns: ns.path }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PodNetnsError);
    expect((error as PodNetnsError).reason).toBe("missing");
    // The ADD and DEL of p1 only: nothing ran for p2.
    expect(await calls()).toEqual([`ADD ${ns.path}`, `DEL ${ns.path}`]);
  });

  it("a pinned namespace of another kind (a mount namespace) is no network namespace", async () => {
    const rt = await loadNetworks({ confDir: d.confDir, binDirs: [d.bin], cacheDir: d.cacheDir });
    const pin = join(d.base, "mntns");
    await writeFile(pin, "");
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const sh = promisify(execFile);
    // `unshare --mount=<file>` pins the new mount namespace on the file (an nsfs bind mount).
    await sh("unshare", [`--mount=${pin}`, "true"]);
    try {
      const before = (await calls()).length;
      const error = await rt.setupPod({ id: "p3", netns: pin }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(PodNetnsError);
      expect((error as PodNetnsError).reason).toBe("not-a-netns");
      expect(await calls()).toHaveLength(before);
    } finally {
      await sh("umount", [pin]).catch(() => undefined);
    }
  });
});
