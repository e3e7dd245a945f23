/**
 * Issue 30, item 7: a damaged setup intent (a directory, a FIFO, a symlink, bad JSON, an
 * oversized file, another kind) is read like a conf file (regular only, never blocking, capped,
 * its content never quoted), reported once as a DamagedIntentError naming the file, and set
 * aside under a name no later call lists: a GC on a timer fails on it once, never again, and
 * collects everything else in the same run. Teardown DELs what the records hold, sets the
 * intent aside and reports it; CHECK and podStatus report it and leave it.
 */
import { execFileSync } from "node:child_process";
import {
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  symlink,
  unlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  intentsDir,
  MAX_INTENT_BYTES,
  podsWithIntents,
  SETUP_INTENT_KIND,
  writeIntent,
} from "../../src/cache/intent.js";
import {
  DamagedIntentError,
  InvalidArgumentError,
  type NetworkFailure,
  PodCheckError,
  PodSetupError,
  PodTeardownError,
  RuntimeGCError,
} from "../../src/errors/index.js";
import { type CNIRuntime, loadNetworks, planPod } from "../../src/runtime/index.js";
import { intentOf } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );

const secret = "root:x:0:0:root:/root:/bin/bash";

/** Each way an intent can be damaged: how to make it, what the report says, what it was. */
const damages: [string, (path: string, base: string) => Promise<void>, string, string][] = [
  ["a directory", (p) => mkdir(p), "is a directory, not a regular file", "dir"],
  [
    "a FIFO",
    async (p) => {
      execFileSync("mkfifo", [p]);
    },
    "is a FIFO, not a regular file",
    "fifo",
  ],
  [
    "a symlink to a valid intent elsewhere",
    async (p, base) => {
      const target = join(base, "elsewhere");
      await writeFile(
        target,
        JSON.stringify({ kind: SETUP_INTENT_KIND, containerId: "pod1", attachments: [] }),
      );
      await symlink(target, p);
    },
    "is a symbolic link",
    "symlink",
  ],
  ["bad JSON", (p) => writeFile(p, `${secret}\n{`), "cannot be read: it is not valid JSON", "file"],
  [
    "another kind",
    (p) => writeFile(p, JSON.stringify({ kind: "other", containerId: "pod1", attachments: [] })),
    "cannot be read: not a libcniSetupIntentV1 record of pod pod1",
    "file",
  ],
  [
    "over the cap (100 MiB, sparse)",
    async (p) => {
      const handle = await open(p, "w");
      await handle.truncate(100 * 1024 * 1024);
      await handle.close();
    },
    `is larger than ${MAX_INTENT_BYTES} bytes`,
    "file",
  ],
];

async function typeOf(path: string): Promise<string> {
  const st = await lstat(path);
  if (st.isDirectory()) return "dir";
  if (st.isFIFO()) return "fifo";
  if (st.isSymbolicLink()) return "symlink";
  return "file";
}

describe("damaged setup intents", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  const intent = () => join(intentsDir(d.cacheDir), "pod1");
  const records = async () => (await readdir(join(d.cacheDir, "results")).catch(() => [])).sort();
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    await mkdir(intentsDir(d.cacheDir), { recursive: true });
  });
  afterEach(() => d.cleanup());

  /** The one DamagedIntentError among the failures, checked for its fields. */
  function damagedOf(failures: readonly NetworkFailure[], reason: string): DamagedIntentError {
    const found = failures.filter((f) => f.error instanceof DamagedIntentError);
    expect(found).toHaveLength(1);
    const error = found[0]?.error as DamagedIntentError;
    expect(error.podID).toBe("pod1");
    expect(error.path).toBe(intent());
    expect(error.reason).toBe(reason);
    expect(error.id).toBe("LIBCNI_ERR_SETUP_INTENT_DAMAGED");
    return error;
  }

  describe.each(damages)("%s", (_name, damage, reason, kind) => {
    it("fails one GC, which still collects everything else; the next GCs succeed", async () => {
      // Another stale pod, with a record, collected in the same GC.
      await rt.setupPod({ id: "other", netns: "/run/netns/other" });
      await damage(intent(), d.base);
      fake.calls.length = 0;
      const error = await rt.gc([]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RuntimeGCError);
      const { failures } = error as RuntimeGCError;
      const damaged = damagedOf(failures, reason);
      expect(failures).toHaveLength(1);
      expect(failures[0]?.podID).toBe("pod1");
      const message = (error as Error).message;
      expect(message).toBe(`gc: pod pod1: ${damaged.message}`);
      expect(message).not.toMatch(/\(\)|: {2}|^gc: {2}/);
      expect(message).not.toContain("root:");
      // Set aside, as it was (kind kept), where no listing finds it.
      expect(damaged.setAsideAs).toBeDefined();
      expect(damaged.message).toContain(`; set aside as ${damaged.setAsideAs}`);
      expect(await typeOf(damaged.setAsideAs ?? "")).toBe(kind);
      expect(await exists(intent())).toBe(false);
      expect(await podsWithIntents(d.cacheDir)).toEqual([]);
      expect(await rt.interruptedSetups()).toEqual([]);
      // Everything else was done.
      expect(fake.seq("DEL")).toEqual(["DEL a:eth0"]);
      expect(await records()).toEqual([]);
      // Reported once: the GCs after succeed.
      expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: [] });
      expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: [] });
    });

    it("teardown DELs what the records hold, sets the intent aside and reports it once", async () => {
      await rt.setupPod({ id: "pod1", netns: "/run/netns/pod1" });
      await damage(intent(), d.base);
      fake.calls.length = 0;
      const error = await rt.teardownPod("pod1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PodTeardownError);
      const damaged = damagedOf((error as PodTeardownError).failures, reason);
      expect((error as Error).message).toBe(`tear down pod pod1: ${damaged.message}`);
      expect((error as Error).message).not.toContain("root:");
      expect(fake.seq("DEL")).toEqual(["DEL a:eth0"]);
      expect(await records()).toEqual([]);
      expect(await exists(intent())).toBe(false);
      expect(await rt.teardownPod("pod1")).toEqual([]);
    });

    it("CHECK and podStatus report it and leave it where it is", async () => {
      await rt.setupPod({ id: "pod1", netns: "/run/netns/pod1" });
      await damage(intent(), d.base);
      const error = await rt.checkPod("pod1").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PodCheckError);
      damagedOf((error as PodCheckError).failures, reason);
      const status = await rt.podStatus("pod1");
      damagedOf(status.problems, reason);
      expect(status.attachments.map((a) => a.network)).toEqual(["a"]);
      expect(await exists(intent())).toBe(true);
    });
  });

  it("the target of a symlinked intent is neither followed nor touched", async () => {
    const target = join(d.base, "elsewhere");
    const plan = planPod(rt.networkSet, { id: "pod1", netns: "/run/netns/pod1" }, undefined);
    await writeIntent(d.cacheDir, "pod1", intentOf(plan), true);
    const text = await readFile(intent(), "utf8");
    await writeFile(target, text);
    await unlink(intent());
    await symlink(target, intent());
    await expect(rt.gc([])).rejects.toBeInstanceOf(RuntimeGCError);
    expect(fake.seq("DEL")).toEqual([]);
    expect(await readFile(target, "utf8")).toBe(text);
  });

  it("failure lines leave out empty fields", () => {
    const e = new Error("boom");
    expect(new RuntimeGCError([{ network: "", ifName: "", error: e }]).message).toBe("gc: boom");
    expect(new RuntimeGCError([{ network: "n", ifName: "", error: e }]).message).toBe(
      "gc: n: boom",
    );
    expect(
      new RuntimeGCError([{ podID: "p", network: "n", ifName: "eth0", error: e }]).message,
    ).toBe("gc: pod p: n (eth0): boom");
    expect(new PodTeardownError("p", [{ network: "", ifName: "", error: e }]).message).toBe(
      "tear down pod p: boom",
    );
  });

  it("setupPod refuses to write an intent over the cap, before any plugin runs", async () => {
    // A 13 MiB list (under the conf files' cap) is more than 16 MiB in base64.
    await writeNetwork(d.confDir, "20-big.conflist", "big", [
      { type: "bridge", pad: "x".repeat(13 * 1024 * 1024) },
    ]);
    await rt.reload();
    const error = await rt
      .setupPod({ id: "pod1", netns: "/run/netns/pod1", networks: ["big"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    expect((error as PodSetupError).failure.error).toHaveProperty(
      "cause",
      expect.any(InvalidArgumentError),
    );
    expect(String(error)).toContain(`more than ${MAX_INTENT_BYTES}`);
    expect(fake.calls).toEqual([]);
    expect(await exists(intent())).toBe(false);
  });
});
