/**
 * A setup in flight in another worker thread of this process: its intent names this process,
 * and this thread's registry of setups in flight does not hold it, so it is taken to run as
 * long as the process does. GC and interruptedSetups() leave it (they used to take it for
 * interrupted, and GC DELed what the other thread was adding), and a setup of the same pod here
 * is refused as in flight elsewhere. The worker runs the built package with a real plugin whose ADD is held
 * until the test releases it.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import { afterEach, beforeEach, expect, it } from "vitest";
import { InterruptedSetupError, loadNetworks } from "../../src/runtime/index.js";
import { type Dirs, dirs, writeNetwork } from "./helpers.js";

const pod = { id: "p", netns: "/run/netns/p" };

let d: Dirs;
let bin: string;
let log: string;
let release: string;
let worker: Worker | undefined;
beforeEach(async () => {
  if (!existsSync(new URL("../../dist/runtime/index.js", import.meta.url))) {
    throw new Error("dist/runtime/index.js is missing: run `npm run build` before this test");
  }
  d = await dirs();
  bin = join(d.base, "bin");
  log = join(d.base, "calls.log");
  release = join(d.base, "release");
  await mkdir(bin);
  // Logs each command; an ADD is held until `release` exists or the test's dir is gone (at most
  // 30 s).
  await writeFile(
    join(bin, "held"),
    `#!/bin/sh
echo "$CNI_COMMAND" >> '${log}'
cat > /dev/null
i=0
while [ "$CNI_COMMAND" = ADD ] && [ ! -e '${release}' ] && [ -d '${d.base}' ] && [ $i -lt 1500 ]; do
  sleep 0.02
  i=$((i+1))
done
printf '{"cniVersion":"1.0.0"}'
`,
  );
  await chmod(join(bin, "held"), 0o755);
  await writeNetwork(d.confDir, "10-net.conflist", "net", ["held"]);
});
afterEach(async () => {
  await writeFile(release, "");
  await worker?.terminate();
  worker = undefined;
  await d.cleanup();
});

const calls = (): Promise<string[]> =>
  readFile(log, "utf8").then(
    (text) => text.split("\n").filter((line) => line !== ""),
    () => [],
  );

/** Starts the pod's setup in a worker thread; resolves once its plugin's ADD runs. */
async function setupInWorker(): Promise<{ outcome: Promise<unknown>; thread: number }> {
  const w = new Worker(new URL("./fixtures/setup-in-worker.mjs", import.meta.url), {
    workerData: { confDir: d.confDir, cacheDir: d.cacheDir, binDir: bin, pod },
  });
  worker = w;
  const outcome = new Promise((resolve, reject) => {
    w.once("message", resolve);
    w.once("error", reject);
  });
  outcome.catch(() => {});
  for (let i = 0; i < 3000 && !(await calls()).includes("ADD"); i++) await sleep(10);
  expect(await calls()).toEqual(["ADD"]);
  return { outcome, thread: w.threadId };
}

const load = () =>
  loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, binDirs: [bin], checkNetns: false });

it("is left to its thread by gc and interruptedSetups, and its records are whole once it ends", async () => {
  const rt = await load();
  const { outcome, thread } = await setupInWorker();
  const intent = JSON.parse(await readFile(join(d.cacheDir, "libcni/setup-intents/p"), "utf8"));
  expect(await rt.interruptedSetups()).toEqual([]);
  expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: ["p"] });
  expect(intent.owner.thread).toBe(thread);
  const refused = await rt.setupPod(pod).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(InterruptedSetupError);
  expect((refused as InterruptedSetupError).inFlightElsewhere).toBe(true);
  await writeFile(release, "");
  expect(await outcome).toEqual({ ok: true });
  expect(await readdir(join(d.cacheDir, "results"))).toEqual(["net-p-eth0"]);
  expect(await readdir(join(d.cacheDir, "libcni/setup-intents"))).toEqual([]);
  expect(await calls()).toEqual(["ADD"]);
});

it("of a thread that died mid-setup is left while this process runs; a teardown DELs it", async () => {
  const rt = await load();
  await setupInWorker();
  await worker?.terminate();
  // Node never reuses a threadId: no thread of this process takes it for its own.
  expect(await rt.interruptedSetups()).toEqual([]);
  expect(await rt.gc([])).toEqual({ removed: [], inFlightElsewhere: ["p"] });
  expect(await calls()).toEqual(["ADD"]);
  expect(await rt.teardownPod("p")).toEqual([{ network: "net", ifName: "eth0" }]);
  expect(await calls()).toEqual(["ADD", "DEL"]);
  expect(await readdir(join(d.cacheDir, "libcni/setup-intents"))).toEqual([]);
});
