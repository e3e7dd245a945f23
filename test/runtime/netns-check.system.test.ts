/**
 * Issue 42, on a real namespace (root): setupPod's netns check lets a pinned network namespace
 * (`ip netns add`'s nsfs bind mount) through, with the runtime's own exec (the check on by
 * default), and refuses the same path once the namespace is removed, running nothing.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadNetworks, PodNetnsError } from "../../src/runtime/index.js";
import { tempNetns } from "../../src/testing/index.js";

let base = "";
let log = "";
let confDir = "";
let bin = "";

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "libcni-netns-check-"));
  confDir = join(base, "net.d");
  bin = join(base, "bin");
  log = join(base, "calls.log");
  await mkdir(confDir);
  await mkdir(bin);
  // A recording plugin: its command and netns, and an empty 1.0.0 result.
  await writeFile(
    join(bin, "rec"),
    `#!/bin/sh\necho "$CNI_COMMAND $CNI_NETNS" >> '${log}'\ncat > /dev/null\nprintf '{"cniVersion":"1.0.0"}'\n`,
  );
  await chmod(join(bin, "rec"), 0o755);
  await writeFile(
    join(confDir, "10-net.conflist"),
    '{"cniVersion":"1.0.0","name":"net","plugins":[{"type":"rec"}]}',
  );
});
afterAll(() => rm(base, { recursive: true, force: true }));

const calls = (): Promise<string[]> =>
  readFile(log, "utf8").then(
    (t) => t.split("\n").filter((l) => l !== ""),
    () => [],
  );

describe("setupPod's netns check on a real namespace", () => {
  it("a pinned network namespace passes; removed, the same path is refused", async () => {
    const rt = await loadNetworks({ confDir, binDirs: [bin], cacheDir: join(base, "cache") });
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
    const rt = await loadNetworks({ confDir, binDirs: [bin], cacheDir: join(base, "cache") });
    const pin = join(base, "mntns");
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
