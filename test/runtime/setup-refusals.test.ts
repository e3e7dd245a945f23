/**
 * setupPod refuses a pod whose setup intent is on disk (InterruptedSetupError), and the intent
 * says truly whether its setup still runs: in another runtime of this process (the pod lock is
 * a runtime's), in its live owner, or nowhere (an interrupted setup, or a rollback whose DEL
 * failed: its owner is dropped). A setup that ran nothing leaves no intent.
 */
import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, expect, it, vi } from "vitest";
import type { InvalidArgumentError } from "../../src/errors/index.js";
import {
  InterruptedSetupError,
  loadNetworks,
  type PodCheckError,
  PodSetupError,
} from "../../src/runtime/index.js";
import { twoNetworks } from "./helpers.js";

const failFsync = vi.hoisted(() => ({ on: false }));
vi.mock("../../src/internal/fs.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/internal/fs.js")>();
  const fsyncFd = async (fd: number) => {
    if (failFsync.on) throw Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" });
    return real.fsyncFd(fd);
  };
  return { ...real, fsyncFd };
});

const t = twoNetworks();
afterEach(() => {
  failFsync.on = false;
});
const intents = () => readdir(join(t.d.cacheDir, "libcni", "setup-intents")).catch(() => []);

it("a setup in flight in another runtime of this process is in flight, not interrupted", async () => {
  const [a, b] = [await t.load(), await t.load()];
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  let entered!: () => void;
  const inAdd = new Promise<void>((r) => {
    entered = r;
  });
  t.fake.gate = async (c) => {
    if (c.command !== "ADD") return;
    entered();
    await held;
  };
  const first = a.setupPod({ id: "p", netns: "/n/p" });
  await inAdd;
  const e = (await b.setupPod({ id: "p", netns: "/n/p" }).catch((x: unknown) => x)) as Error;
  const check = (await b.checkPod("p").catch((x: unknown) => x)) as PodCheckError;
  const listed = await b.interruptedSetups();
  release();
  await first;
  expect(e).toBeInstanceOf(InterruptedSetupError);
  expect((e as InterruptedSetupError).inFlightElsewhere).toBe(true);
  expect((check.failures[0].error as InterruptedSetupError).inFlightElsewhere).toBe(true);
  expect(listed).toEqual([]);
  expect(t.fake.seq("DEL")).toEqual([]);
  expect(await a.checkPod("p")).toHaveLength(2);
});

it("a rollback whose DEL failed leaves an intent that names no owner", async () => {
  const rt = await t.load();
  t.fake.fail.set("b/ADD", "b add").set("a/DEL", "a del");
  await expect(rt.setupPod({ id: "p", netns: "/n/p" })).rejects.toBeInstanceOf(PodSetupError);
  const intent = JSON.parse(
    await readFile(join(t.d.cacheDir, "libcni", "setup-intents", "p"), "utf8"),
  );
  expect(intent.owner).toBeUndefined();
  expect(intent.attachments.map((a: { networkName: string }) => a.networkName)).toEqual(["a", "b"]);
  expect(await rt.interruptedSetups()).toEqual(["p"]);
});

it("recovering a disowned intent signals nothing: a process of the pod's now is another run's", async () => {
  // Another runtime (its own cache dir) running a plugin for the same pod, netns and interface:
  // the disowned intent has no run ID to tell it apart, and nothing of its own setup runs.
  const rt = await t.load();
  t.fake.fail.set("b/ADD", "b add").set("a/DEL", "a del");
  await expect(rt.setupPod({ id: "p", netns: "/n/p" })).rejects.toBeInstanceOf(PodSetupError);
  const env = { CNI_COMMAND: "ADD", CNI_CONTAINERID: "p", CNI_NETNS: "/n/p", CNI_IFNAME: "eth0" };
  const other = spawn("sleep", ["30"], {
    env: { ...env, CNI_ARGS: "" },
    stdio: "ignore",
    detached: true, // the leader of a group of its own, as a plugin started by a runtime
  });
  try {
    await new Promise((resolve) => other.once("spawn", resolve));
    t.fake.fail.clear();
    await rt.teardownPod("p");
    expect(other.exitCode === null && other.signalCode === null).toBe(true);
    expect(await intents()).toEqual([]);
  } finally {
    other.kill("SIGKILL");
  }
});

it("an intent whose write failed after its rename is removed: nothing ran, the next setup runs", async () => {
  const rt = await t.load();
  await rt.setupPod({ id: "warm", netns: "/n/w" });
  failFsync.on = true;
  const e = await rt.setupPod({ id: "p", netns: "/n/p" }).catch((x: unknown) => x);
  failFsync.on = false;
  expect(e).toBeInstanceOf(PodSetupError);
  expect((e as Error).message).toContain("record the setup intent");
  expect(await intents()).toEqual([]);
  await rt.setupPod({ id: "p", netns: "/n/p" });
});

it("values of the wrong type at the runtime's entries are the caller's typed errors, and nothing runs", async () => {
  const rt = await t.load();
  const argumentOf = async (call: () => Promise<unknown>) =>
    ((await call().catch((e: unknown) => e)) as InvalidArgumentError).argument;
  const no = null as never;
  expect(await argumentOf(() => rt.setupPod(no))).toBe("pod");
  expect(
    await argumentOf(() => rt.setupPod({ id: "p", netns: "/n/p", args: { UID: 1 as never } })),
  ).toBe("pod.args.UID");
  // A ";" in a value would hand the plugins a second pair: here a namespace of the caller's choosing.
  const injected = { K8S_POD_NAME: "web;K8S_POD_NAMESPACE=kube-system" };
  expect(await argumentOf(() => rt.setupPod({ id: "p", netns: "/n/p", args: injected }))).toBe(
    "pod.args",
  );
  const keyed = [{ name: "a", args: [["IP=10.0.0.9", "x"]] as [string, string][] }];
  expect(await argumentOf(() => rt.setupPod({ id: "p", netns: "/n/p", networks: keyed }))).toBe(
    "pod.networks[0].args",
  );
  // { network: [...] } ignored would attach the pod to every network.
  const one = { id: "p", netns: "/n/p", network: ["a"] } as never;
  expect(await argumentOf(() => rt.setupPod(one))).toBe("pod.networks");
  const request = { id: "p", netns: "/n/p", networks: [{ name: "a", ifname: "e1" }] } as never;
  expect(await argumentOf(() => rt.setupPod(request))).toBe("pod.networks[0].ifName");
  expect(await argumentOf(() => rt.gc(no))).toBe("validPods");
  expect(await argumentOf(() => rt.gc([no]))).toBe("validPods");
  expect(await argumentOf(() => rt.gc(42 as never))).toBe("validPods");
  expect(await argumentOf(() => rt.status({ minReady: "x" as never }))).toBe("minReady");
  // null options (not undefined: no default) were a TypeError in each (loadNetworks' too).
  const pod = { id: "p", netns: "/n/p" };
  for (const call of [
    () => loadNetworks(no),
    () => rt.setupPod(pod, no),
    () => rt.teardownPod("p", no),
    () => rt.checkPod("p", no),
    () => rt.podStatus("p", no),
    () => rt.status(no),
    async () => rt.watch(no),
  ]) {
    await expect(call()).rejects.toThrow("options must be an options object, got null");
  }
  expect(t.fake.seq("ADD")).toEqual([]);
  expect(await intents()).toEqual([]);
});

it("GC given one pod ID (a string, an Iterable<string> to TypeScript) refuses it and DELs nothing", async () => {
  const rt = await t.load();
  await rt.setupPod({ id: "pod1", netns: "/n/p" });
  // Read as its characters, "pod1" would keep pods "p", "o", "d" and "1" and tear pod1 down.
  const e = await rt.gc("pod1").catch((x: unknown) => x);
  expect(t.fake.seq("DEL")).toEqual([]);
  expect(await rt.checkPod("pod1")).toHaveLength(2);
  expect((e as InvalidArgumentError).message).toBe(
    "validPods must be an iterable of pods, not one pod ID, got a string",
  );
});

it("GC refuses what would make it collect a pod meant to be kept, or collect for real", async () => {
  const rt = await t.load();
  await rt.setupPod({ id: "pod1", netns: "/n/p" });
  const refused = async (call: () => Promise<unknown>) =>
    ((await call().catch((e: unknown) => e)) as InvalidArgumentError).message;
  // A pod list read from a CRLF file, or with a trailing newline: IDs no record can have.
  expect(await refused(() => rt.gc(["pod1\r"]))).toMatch(/^validPods\[0\] "pod1\\r": /);
  expect(await refused(() => rt.gc(["pod1", ""]))).toMatch(/^validPods\[1\] "": /);
  // A misspelled dryRun, or a true in the options' place: a real GC.
  expect(await refused(() => rt.gc([], { dryrun: true } as never))).toBe(
    'options must be GCOptions { signal, traceContext, timeout, dryRun }, got an object (it has "dryrun")',
  );
  expect(await refused(() => rt.gc([], true as never))).toMatch(
    /^options must be GCOptions .*, got a boolean$/,
  );
  expect(t.fake.seq("DEL")).toEqual([]);
  expect((await rt.gc([], { dryRun: true })).removed).toHaveLength(2);
  expect(t.fake.seq("DEL")).toEqual([]);
});
