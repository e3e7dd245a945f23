/**
 * What recovery may end (cache/intent.ts, the intents' owners): a process provably of the dead
 * owner's setup, told by its environment; and the run ID the runtime's own Exec adds to every
 * plugin's environment.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
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
