/**
 * go-cni#124 in checkPod, on a real namespace (root) with Debian's loopback plugin: after
 * setupPod (`loopback: true`) `lo` is up and the loopback attachment says so; brought down
 * behind the runtime's back, checkPod fails with LoopbackDownError naming its flags; with the
 * namespace gone, it fails as `no-netns`. The other network's CHECK runs each time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoopbackDownError, loadNetworks, PodCheckError } from "../../src/runtime/index.js";
import { tempNetns } from "../../src/testing/index.js";
import { type RecordingDirs, recordingNetwork } from "./helpers.js";

let d: RecordingDirs;

// A recording plugin for the pod's other network: it never enters the namespace.
beforeAll(async () => {
  d = await recordingNetwork("CNI_IFNAME");
});
afterAll(() => d.cleanup());

const checks = async (): Promise<number> =>
  (await d.calls()).filter((l) => l.startsWith("CHECK")).length;

const loError = async (p: Promise<unknown>): Promise<LoopbackDownError> => {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PodCheckError);
  const failures = (error as PodCheckError).failures;
  expect(failures.map((f) => [f.network, f.ifName])).toEqual([["cni-loopback", "lo"]]);
  expect(failures[0]?.error).toBeInstanceOf(LoopbackDownError);
  return failures[0]?.error as LoopbackDownError;
};

describe("checkPod looks at lo in the pod's namespace", () => {
  it("up after setup; down behind the runtime's back: a failure; the namespace gone: too", async () => {
    const rt = await loadNetworks({
      confDir: d.confDir,
      binDirs: [d.bin, "/usr/lib/cni"],
      cacheDir: d.cacheDir,
      loopback: true,
    });
    const ns = await tempNetns({ label: "lo-check" });
    try {
      await rt.setupPod({ id: "p1", netns: ns.path });
      expect(await rt.checkPod("p1")).toEqual([
        {
          network: "cni-loopback",
          ifName: "lo",
          skipped: 'configuration version "0.3.1" does not support the CHECK command',
          loopbackUp: true,
        },
        { network: "net", ifName: "eth0" },
      ]);
      expect(await checks()).toBe(1);

      await ns.run(["ip", "link", "set", "dev", "lo", "down"]);
      const down = await loError(rt.checkPod("p1"));
      expect(down.reason).toBe("down");
      expect(down.netns).toBe(ns.path);
      expect(down.flags).toContain("LOOPBACK");
      expect(down.flags).not.toContain("UP");
      expect(down.message).toMatch(/^check pod p1: lo is not up in \S+ \(flags <LOOPBACK[^>]*>\)$/);
      expect(await checks()).toBe(2);
    } finally {
      await ns.remove();
    }
    const gone = await loError(rt.checkPod("p1"));
    expect(gone.reason).toBe("no-netns");
    expect(await checks()).toBe(3);
    await rt.teardownPod("p1");
  });
});
