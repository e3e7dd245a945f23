/**
 * A setup intent names the process that wrote it: GC and interruptedSetups() leave a setup
 * in flight in another live process to it, and take over one whose owner is gone (a reused
 * pid told apart by its start time).
 */
import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { intentsDir, writeIntent } from "../../src/cache/intent.js";
import {
  type CNIRuntime,
  InterruptedSetupError,
  loadNetworks,
  planPod,
} from "../../src/runtime/index.js";
import { intentOf } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const startOf = async (pid: number): Promise<string> => {
  const stat = await readFile(`/proc/${pid}/stat`, "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] as string;
};

describe("a setup in flight in another process", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  let other: ReturnType<typeof spawn> | undefined;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"], "1.1.0");
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(async () => {
    other?.kill("SIGKILL");
    other = undefined;
    await d.cleanup();
  });

  /** An intent for `pod` as the process `owner` would have written it. */
  async function writeOwnedIntent(
    pod: string,
    owner: { pid: number; start: string; ns?: string; boot?: string },
  ): Promise<void> {
    await writeIntent(
      d.cacheDir,
      pod,
      intentOf(planPod(rt.networkSet, { id: pod, netns: "/n" }, undefined)),
      false,
    );
    const path = join(intentsDir(d.cacheDir), pod);
    const intent = JSON.parse(await readFile(path, "utf8"));
    intent.owner = owner;
    await writeFile(path, JSON.stringify(intent));
  }

  it("is left to its owner by gc and interruptedSetups", async () => {
    other = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = other.pid as number;
    await writeOwnedIntent("busy", { pid, start: await startOf(pid) });
    expect(await rt.interruptedSetups()).toEqual([]);
    expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: ["busy"] });
    expect(fake.seq("DEL")).toEqual([]);
  });

  it("is refused by setupPod, which runs nothing and leaves the intent", async () => {
    other = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = other.pid as number;
    await writeOwnedIntent("busy", { pid, start: await startOf(pid) });
    const e = await rt.setupPod({ id: "busy", netns: "/n" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(InterruptedSetupError);
    expect((e as InterruptedSetupError).inFlightElsewhere).toBe(true);
    expect((e as Error).message).toBe(
      `pod busy is being set up by another runtime or process (setup intent ${join(intentsDir(d.cacheDir), "busy")})`,
    );
    expect(fake.calls).toEqual([]);
    expect(await readdir(intentsDir(d.cacheDir))).toEqual(["busy"]);
  });

  it("keeps the records its owner has written so far, the network's GC told they are valid", async () => {
    // The setup elsewhere got as far as a's record.
    await rt.setupPod({ id: "busy", netns: "/n" });
    other = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = other.pid as number;
    await writeOwnedIntent("busy", { pid, start: await startOf(pid) });
    fake.calls.length = 0;
    expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: ["busy"] });
    expect(fake.seq("DEL")).toEqual([]);
    expect(await readdir(join(d.cacheDir, "results"))).toEqual(["a-busy-eth0"]);
    const gc = fake.calls.find((c) => c.command === "GC");
    expect(gc?.config["cni.dev/valid-attachments"]).toEqual([
      { containerID: "busy", ifname: "eth0" },
    ]);
  });

  it.each([
    [[], ["busy"]],
    [["busy"], []],
  ])("before any record (valid pods %j), its planned attachments are told valid to the networks' GC", async (valid, elsewhere) => {
    // Its plugins may hold what they reserved already: a GC-capable IPAM would free it.
    other = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = other.pid as number;
    await writeOwnedIntent("busy", { pid, start: await startOf(pid) });
    expect(await rt.gc(valid)).toEqual({ removed: [], inFlightElsewhere: elsewhere });
    expect(fake.seq("DEL")).toEqual([]);
    const gc = fake.calls.find((c) => c.command === "GC");
    expect(gc?.config["cni.dev/valid-attachments"]).toEqual([
      { containerID: "busy", ifname: "eth0" },
    ]);
  });

  it("is taken over when its owner ran in an earlier boot, whatever now has its pid", async () => {
    other = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = other.pid as number;
    // A live process's pid and start time, as a deterministic boot can give them again.
    await writeOwnedIntent("rebooted", {
      pid,
      start: await startOf(pid),
      boot: "00000000-0000-4000-8000-000000000000",
    });
    expect(await rt.interruptedSetups()).toEqual(["rebooted"]);
    expect(await rt.gc([])).toMatchObject({ inFlightElsewhere: [] });
    expect(fake.seq("DEL")).toEqual(["DEL a:eth0"]);
  });

  it("is left to an owner of other namespaces, which cannot be looked up from here", async () => {
    // Its pid is free here, and says nothing of the pid namespace it was written in.
    await writeOwnedIntent("elsewhere", { pid: 2 ** 22 + 1, start: "1", ns: "zzzzzzzz" });
    expect(await rt.interruptedSetups()).toEqual([]);
    expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: ["elsewhere"] });
    expect(fake.seq("DEL")).toEqual([]);
  });

  it("is taken over once its owner is a zombie (dead, never reaped)", async () => {
    // `sleep 0.3` exits under a parent that has become `sleep 30`, which never reaps it (one
    // that ended before the exec could be reaped by the shell: its pid gone, not a zombie).
    other = spawn("sh", ["-c", "sleep 0.3 & echo $!; exec sleep 30"], {
      stdio: ["ignore", "pipe", "ignore"],
    });
    const pid = Number(
      await new Promise<string>((resolve) => other?.stdout?.once("data", resolve)),
    );
    let stat = "";
    for (let i = 0; i < 500 && !/\) Z /.test(stat); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      stat = await readFile(`/proc/${pid}/stat`, "latin1");
    }
    expect(stat).toMatch(/\) Z /);
    await writeOwnedIntent("zombie", { pid, start: await startOf(pid) });
    expect(await rt.interruptedSetups()).toEqual(["zombie"]);
    expect(await rt.gc([])).toMatchObject({ inFlightElsewhere: [] });
    expect(fake.seq("DEL")).toEqual(["DEL a:eth0"]);
  });

  it("is taken over once its owner is gone, or its pid belongs to a later process", async () => {
    other = spawn("sleep", ["30"], { stdio: "ignore" });
    const pid = other.pid as number;
    // The same pid, started at another time: not the owner.
    await writeOwnedIntent("reused", { pid, start: String(BigInt(await startOf(pid)) + 1n) });
    await writeOwnedIntent("dead", { pid: 2 ** 22 + 1, start: "1" });
    expect(await rt.interruptedSetups()).toEqual(["dead", "reused"]);
    const report = await rt.gc([]);
    expect(report.inFlightElsewhere).toEqual([]);
    expect(fake.seq("DEL").sort()).toEqual(["DEL a:eth0", "DEL a:eth0"]);
  });
});
