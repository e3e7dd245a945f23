/**
 * What recovery may end (cache/intent.ts, the intents' owners): a process provably of the dead
 * owner's setup, told by its environment; and the run ID the runtime's own Exec adds to every
 * plugin's environment.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  endOrphanedRuns,
  environOfRun,
  type IntentRun,
  isRunID,
  newRunID,
  RUN_ID_VARIABLE,
  RunMarkedExec,
} from "../../src/cache/intent.js";
import { Args } from "../../src/invoke/index.js";

const runID = "0123456789abcdef0123456789abcdef";
const run: IntentRun = {
  podID: "p",
  owner: undefined,
  runID,
  attachments: [
    { netNS: "/run/netns/p", ifName: "eth0", cniArgs: [["K8S_POD_NAME", "a"]] },
    { netNS: "/run/netns/p", ifName: "net1" },
  ],
};

const environ = (vars: Record<string, string>): Buffer =>
  Buffer.from(
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}\0`)
      .join(""),
    "utf8",
  );

const plugin = {
  PATH: "/usr/bin",
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "p",
  CNI_NETNS: "/run/netns/p",
  CNI_ARGS: "K8S_POD_NAME=a",
  CNI_IFNAME: "eth0",
  CNI_PATH: "/opt/cni/bin",
  [RUN_ID_VARIABLE]: runID,
};

describe("environOfRun: a process provably of the intent's setup", () => {
  it("matches a plugin of one of the intent's attachments, and its children", () => {
    expect(environOfRun(environ(plugin), run)).toBe(true);
    expect(
      environOfRun(
        environ({ ...plugin, CNI_IFNAME: "net1", CNI_ARGS: "", CNI_COMMAND: "DEL" }),
        run,
      ),
    ).toBe(true);
  });

  it.each([
    ["another pod", { CNI_CONTAINERID: "p2" }],
    ["a pod ID that only starts like it", { CNI_CONTAINERID: "p-x" }],
    ["another runtime's run ID", { [RUN_ID_VARIABLE]: "f".repeat(32) }],
    ["another netns", { CNI_NETNS: "/run/netns/q" }],
    ["another interface", { CNI_IFNAME: "eth1" }],
    ["other CNI_ARGS", { CNI_ARGS: "K8S_POD_NAME=b" }],
  ])("leaves %s alone", (_, change) => {
    expect(environOfRun(environ({ ...plugin, ...change }), run)).toBe(false);
  });

  it("leaves alone a process without a verb, or without the run ID the intent records", () => {
    const { CNI_COMMAND: _c, ...noVerb } = plugin;
    const { [RUN_ID_VARIABLE]: _r, ...noRun } = plugin;
    expect(environOfRun(environ(noVerb), run)).toBe(false);
    expect(environOfRun(environ(noRun), run)).toBe(false);
  });

  it("matches on the attachment alone for an intent without a run ID", () => {
    const { [RUN_ID_VARIABLE]: _r, ...noRun } = plugin;
    expect(environOfRun(environ(noRun), { ...run, runID: undefined })).toBe(true);
    expect(
      environOfRun(environ({ ...noRun, CNI_NETNS: "/run/netns/q" }), { ...run, runID: undefined }),
    ).toBe(false);
  });
});

describe("RunMarkedExec: the runtime's plugins carry its run ID", () => {
  it("makes 128-bit hex IDs", () => {
    const id = newRunID();
    expect(isRunID(id)).toBe(true);
    expect(newRunID()).not.toBe(id);
    expect(isRunID("0123")).toBe(false);
  });

  it("adds LIBCNI_RUN_ID last, replaces an inherited one, and keeps the CNI_* variables", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lcni-owner-"));
    try {
      const out = join(dir, "env");
      const printer = join(dir, "printer");
      await writeFile(printer, `#!/bin/sh\nenv > ${out}\nprintf '{}'\n`);
      await chmod(printer, 0o755);
      const exec = new RunMarkedExec(runID, { launcher: "direct" });
      const args = new Args({ command: "ADD", containerID: "p", netNS: "/n", ifName: "eth0" });
      const env = [...(args.asEnv() ?? []), `${RUN_ID_VARIABLE}=inherited`];
      await exec.execPlugin(printer, new Uint8Array(), env);
      const lines = (await readFile(out, "utf8")).trim().split("\n");
      expect(lines.filter((l) => l.startsWith(`${RUN_ID_VARIABLE}=`))).toEqual([
        `${RUN_ID_VARIABLE}=${runID}`,
      ]);
      for (const kv of (args.asEnv() ?? []).filter((l) => l.startsWith("CNI_"))) {
        expect(lines).toContain(kv);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("endOrphanedRuns: what it signals", () => {
  // Every process on the machine is looked at: a pod ID and netns of this test's own.
  const podID = `orphan-${process.pid}-${Date.now()}`;
  const orphanRun: IntentRun = {
    podID,
    owner: undefined,
    runID: undefined,
    attachments: [{ netNS: `/run/netns/${podID}`, ifName: "eth0" }],
  };
  const pluginEnv = `env -i CNI_COMMAND=ADD CNI_CONTAINERID=${podID} CNI_NETNS=/run/netns/${podID} CNI_IFNAME=eth0 CNI_ARGS=`;

  /** The running processes (zombies aside) whose environment names the pod. */
  async function ofPod(): Promise<number[]> {
    const out: number[] = [];
    for (const name of await readdir("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      const environ = await readFile(`/proc/${name}/environ`, "latin1").catch(() => "");
      const stat = await readFile(`/proc/${name}/stat`, "latin1").catch(() => "");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (environ.includes(`CNI_CONTAINERID=${podID}\0`) && state !== "Z") out.push(Number(name));
    }
    return out;
  }
  const runs = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "latin1"));
  };
  const lines = (child: ChildProcess, n: number): Promise<number[]> =>
    new Promise((resolve) => {
      let text = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        text += chunk.toString();
        const got = text.split("\n").filter(Boolean);
        if (got.length >= n) resolve(got.slice(0, n).map(Number));
      });
    });

  let group: ChildProcess | undefined;
  afterEach(async () => {
    if (group?.pid !== undefined) {
      try {
        process.kill(-group.pid, "SIGKILL");
      } catch {}
    }
    group = undefined;
    for (const pid of await ofPod()) process.kill(pid, "SIGKILL");
  });

  it("signals a plugin alone when it does not lead its group, and leaves the group's others", async () => {
    // The dead runtime's group: a script leading it, a plugin its caller's Exec started in it,
    // and a sibling that is not the run's.
    group = spawn("sh", ["-c", `${pluginEnv} sleep 30 & echo $!; sleep 31 & echo $!; wait`], {
      detached: true,
      stdio: ["ignore", "pipe", "ignore"],
    });
    const [plugin, sibling] = await lines(group, 2);
    // Its environment is the pod's once `env` has exec'd `sleep`.
    while ((await ofPod()).length === 0) await new Promise((r) => setTimeout(r, 5));
    expect(await ofPod()).toEqual([plugin]);
    await endOrphanedRuns(orphanRun);
    expect(runs(plugin)).toBe(false);
    expect(runs(group.pid as number)).toBe(true);
    expect(runs(sibling)).toBe(true);
  });

  it("looks again after a kill: what a plugin forked into a group of its own meanwhile", async () => {
    // A plugin that keeps forking children into sessions of their own, as a daemonising helper.
    const loop = `i=0; while [ $i -lt 400 ]; do setsid sleep 30 & i=$((i+1)); sleep 0.001; done; wait`;
    group = spawn("sh", ["-c", `${pluginEnv} sh -c '${loop}'`], {
      detached: true,
      stdio: "ignore",
    });
    while ((await ofPod()).length < 10) await new Promise((r) => setTimeout(r, 5));
    await endOrphanedRuns(orphanRun);
    expect(await ofPod()).toEqual([]);
  });
});
