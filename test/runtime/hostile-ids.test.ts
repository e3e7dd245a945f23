/**
 * Issue 30, item 1: every pod ID that names a file is checked where it enters. A hostile ID
 * (`../../../outside/victim`, `../../../../../../etc/passwd`) never reaches a path: teardownPod,
 * checkPod and podStatus refuse it before any lock, file or plugin, as setupPod does; GC never
 * builds an intent path from a hostile container ID it finds in a record; interruptedSetups
 * lists only names that are pod IDs. (CNIConfig's own verbs: test/api/hostile-names.test.ts.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { intentsDir, readIntent, SETUP_INTENT_KIND } from "../../src/cache/intent.js";
import { encodeCacheRecord } from "../../src/cache/record.js";
import { InvalidArgumentError, LibcniError, RuntimeGCError } from "../../src/errors/index.js";
import { type CNIRuntime, loadNetworks, type PodRef } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

/** Every file under `dir` with its content, to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[relative(dir, path)] = entry.isFile() ? readFileSync(path, "latin1") : "<dir>";
  }
  return out;
}

/**
 * An intent-shaped file for `podID` naming no attachment: what recovery removes at once once it
 * has read it (the file a hostile ID would have deleted).
 */
function intentFor(podID: string): string {
  return JSON.stringify({ kind: SETUP_INTENT_KIND, containerId: podID, attachments: [] });
}

const hostile = [
  "../../../outside/victim",
  "../../../../../../etc/passwd",
  "../setup-intents/../../../outside/victim",
  "a/b",
  "..",
  ".",
  "",
  " pod",
  "pod\n",
];

describe("hostile pod IDs", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  const victimID = "../../../outside/victim";
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    // Where `<cacheDir>/libcni/setup-intents/<victimID>` leads: outside the cache dir.
    await mkdir(join(d.base, "outside"));
    await writeFile(join(d.base, "outside", "victim"), intentFor(victimID));
    await mkdir(intentsDir(d.cacheDir), { recursive: true });
  });
  afterEach(() => d.cleanup());

  const verbs: [string, (ref: PodRef) => Promise<unknown>][] = [
    ["teardownPod", (ref) => rt.teardownPod(ref)],
    // The plan of the current configuration trusts the ID the entry checked.
    [
      "teardownPod (current-config)",
      (ref) => rt.teardownPod(ref, { ifNoRecords: "current-config" }),
    ],
    ["checkPod", (ref) => rt.checkPod(ref)],
    ["podStatus", (ref) => rt.podStatus(ref)],
  ];

  describe.each(verbs)("%s", (_name, verb) => {
    it.each(hostile)("refuses %j (as an ID and as { id }), touching nothing", async (id) => {
      const before = snapshot(d.base);
      for (const [ref, argument] of [
        [id, "pod"],
        [{ id, netns: "/run/netns/x" }, "pod.id"],
      ] as const) {
        const error = await verb(ref).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InvalidArgumentError);
        expect((error as InvalidArgumentError).argument).toBe(argument);
        expect(String(error)).not.toContain("root:");
      }
      expect(snapshot(d.base)).toEqual(before);
      expect(fake.calls).toEqual([]);
    });

    it("refuses a reference that is not a pod", async () => {
      for (const ref of [undefined, null, 7, { id: 7 }, {}]) {
        const error = await verb(ref as unknown as PodRef).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InvalidArgumentError);
      }
    });
  });

  it("a valid ID still works on every verb", async () => {
    await rt.setupPod({ id: "pod-1.a_b", netns: "/run/netns/p" });
    expect(await rt.checkPod({ id: "pod-1.a_b" })).toHaveLength(1);
    expect((await rt.podStatus("pod-1.a_b")).attachments).toHaveLength(1);
    expect(await rt.teardownPod("pod-1.a_b")).toEqual([{ network: "a", ifName: "eth0" }]);
  });

  it("GC never follows a record whose container ID is hostile to an intent outside the cache", async () => {
    // A record planted with the victim's ID: GC finds the ID in it, not from a caller.
    const record = encodeCacheRecord({
      containerId: victimID,
      config: new TextEncoder().encode(
        '{"cniVersion":"1.0.0","name":"a","plugins":[{"type":"bridge"}]}',
      ),
      ifName: "eth0",
      networkName: "a",
      netns: "/run/netns/victim",
    });
    await mkdir(join(d.cacheDir, "results"), { recursive: true });
    await writeFile(join(d.cacheDir, "results", "a-planted-eth0"), record);
    const before = snapshot(join(d.base, "outside"));
    const error = await rt.gc([]).catch((e: unknown) => e);
    // The record is refused for its ID before anything reads or runs for it, and reported.
    expect(error).toBeInstanceOf(RuntimeGCError);
    expect(String(error)).toContain(
      `cached attachment a/eth0 names invalid characters in containerID; ${victimID}`,
    );
    expect(snapshot(join(d.base, "outside"))).toEqual(before);
    expect(fake.seq("DEL")).toEqual([]);
  });

  it("GC's valid list refuses a string no pod can have, before anything: no path, no DEL", async () => {
    await rt.setupPod({ id: "pod1", netns: "/run/netns/p" });
    const before = snapshot(d.base);
    for (const id of hostile) {
      await expect(rt.gc(["pod1", id])).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(snapshot(d.base)).toEqual(before);
    expect(fake.seq("DEL")).toEqual([]);
  });

  it("interruptedSetups lists only names that are pod IDs", async () => {
    for (const name of ["ok-pod", "bad name", ".hidden", "-dash", "x:y"]) {
      await writeFile(join(intentsDir(d.cacheDir), name), intentFor(name));
    }
    await mkdir(join(intentsDir(d.cacheDir), "sub"));
    expect(await rt.interruptedSetups()).toEqual(["ok-pod", "sub"]);
  });

  it("the intent reader itself refuses a hostile ID (typed), whoever calls it", async () => {
    for (const id of hostile) {
      const error = await readIntent(d.cacheDir, id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error).toBeInstanceOf(LibcniError);
    }
    expect(statSync(join(d.base, "outside", "victim")).isFile()).toBe(true);
  });
});
