/**
 * A setup in another process that begins after a GC's first listing (so the GC knows nothing
 * of the pod) and ends while a network's GC lists the records: its record is written after
 * that listing, and its intent is gone before the GC reads the intents. The network's plugins
 * are still told the pod's attachment is valid (by the record's name), else their GC frees
 * what a running pod holds. The other process runs the built library (dist/).
 */
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it, vi } from "vitest";
import { oneNetwork } from "./helpers.js";

const root = join(import.meta.dirname, "../..");
const run = promisify(execFile);
const otherProcess = `
import { FakeExec } from ${JSON.stringify(join(root, "dist/invoke/index.js"))};
import { loadNetworks } from ${JSON.stringify(join(root, "dist/runtime/index.js"))};
const [confDir, cacheDir] = process.argv.slice(1);
const exec = new FakeExec();
exec.findInPathCall.returns.path = "/fake/p";
exec.execPluginCall.handler = (call) =>
  call.environ?.includes("CNI_COMMAND=ADD") ? '{"cniVersion":"1.1.0"}' : "";
await (await loadNetworks({ confDir, cacheDir, exec })).setupPod({ id: "late", netns: "/n/late" });
`;

// Run once, after the next listing a network's GC makes (it sweeps; the first listing does not).
const afterListing = vi.hoisted(() => ({ hook: undefined as (() => Promise<void>) | undefined }));
vi.mock("../../src/cache/results.js", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/cache/results.js")>();
  return {
    ...real,
    listCachedAttachments: async (
      ...args: Parameters<typeof real.listCachedAttachments>
    ): ReturnType<typeof real.listCachedAttachments> => {
      const listed = await real.listCachedAttachments(...args);
      const hook = afterListing.hook;
      if (args[2]?.sweep && hook !== undefined) {
        afterListing.hook = undefined;
        await hook();
      }
      return listed;
    },
  };
});

const t = oneNetwork();

it("a setup that ends during a network's listing keeps its attachment: the plugins' GC is told", async () => {
  const { d, fake } = t;
  const rt = await t.load();
  await rt.setupPod({ id: "keep", netns: "/n/keep" });
  afterListing.hook = async () => {
    await run(process.execPath, ["--input-type=module", "-e", otherProcess, d.confDir, d.cacheDir]);
  };
  fake.calls.length = 0;
  expect(await rt.gc(["keep"])).toEqual({ removed: [], inFlightElsewhere: [] });
  expect(afterListing.hook).toBeUndefined();
  expect(fake.seq()).toEqual(["GC a:"]);
  expect(fake.calls[0]?.config["cni.dev/valid-attachments"]).toEqual([
    { containerID: "keep", ifname: "eth0" },
    { containerID: "late", ifname: "eth0" },
  ]);
  expect((await readdir(join(d.cacheDir, "results"))).sort()).toEqual([
    "a-keep-eth0",
    "a-late-eth0",
  ]);
});
