/**
 * `cnitool validate --dir <dir> [--json]`: every conf file of a dir validated as the runtime
 * loads it (libcni/runtime's validateConfDir), one finding a line on stdout (or the report as
 * JSON), a summary on stderr; exit 0, 1 on an error finding, 2 on a bad command line.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Sandbox } from "./helpers.js";

let box: Sandbox;
let bin: string;
let dir: string;

/** A plugin answering VERSION with `versions`. */
async function plugin(name: string, versions: string[]): Promise<void> {
  const answer = JSON.stringify({ cniVersion: "1.0.0", supportedVersions: versions });
  await writeFile(join(bin, name), `#!/bin/sh\ncat > /dev/null\nprintf '%s' '${answer}'\n`, {
    mode: 0o755,
  });
}

async function conf(file: string, content: unknown): Promise<string> {
  const path = join(dir, file);
  await writeFile(path, JSON.stringify(content));
  return path;
}

const run = (argv: string[], env: Record<string, string | undefined> = {}) =>
  box.run(["validate", ...argv], { CNI_PATH: bin, ...env });

beforeEach(async () => {
  box = await Sandbox.create();
  bin = join(box.root, "bin");
  dir = join(box.root, "conf");
  await mkdir(bin);
  await mkdir(dir);
  await plugin("bridge", ["0.4.0", "1.0.0"]);
  await plugin("portmap", ["0.4.0", "1.0.0"]);
});
afterEach(async () => {
  await box.dispose();
});

/** A dir with one of each: an error in a list, a warning in a list, a clean single conf. */
async function mixed(): Promise<{ a: string; b: string }> {
  const a = await conf("10-a.conflist", {
    cniVersion: "1.0.0",
    name: "a",
    plugins: [{ type: "bridge" }, { type: "tuning" }],
  });
  const b = await conf("20-b.conflist", {
    cniVersion: "1.0.0",
    name: "b",
    plugins: [{ type: "bridge" }, { type: "portmap" }, { type: "portmap" }],
  });
  await conf("30-c.conf", { cniVersion: "1.0.0", name: "c", type: "bridge" });
  return { a, b };
}

describe("validate --dir: text", () => {
  it("a clean dir: nothing on stdout, the summary on stderr, exit 0", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "bridge" }] });
    await conf("20-b.conf", { cniVersion: "0.4.0", name: "b", type: "portmap" });
    expect(await run(["--dir", dir])).toEqual({
      code: 0,
      stdout: "",
      stderr: "2 conf files: 0 errors, 0 warnings\n",
    });
  });

  it("one finding a line, <file>:<pointer>: <severity>: <message>; an error: exit 1, no usage", async () => {
    const { a, b } = await mixed();
    expect(await run(["--dir", dir])).toEqual({
      code: 1,
      stdout: [
        `${a}:/plugins/1/type: error: failed to find plugin "tuning" in path [${bin}]`,
        `${b}:/plugins/2/type: warning: plugin type "portmap" is already in the list (/plugins/1/type): each runs in turn with the previous one's result, so a chain rarely means to run one twice`,
        "",
      ].join("\n"),
      stderr: "3 conf files: 1 error, 1 warning\n",
    });
  });

  it("warnings only: exit 0", async () => {
    await conf("10-a.conflist", {
      cniVersion: "1.0.0",
      name: "a",
      plugins: [{ type: "bridge", capabilities: { portMapping: true } }],
    });
    const r = await run(["--dir", dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      `${join(dir, "10-a.conflist")}:/plugins/0/capabilities/portMapping: warning: unknown capability (not in the CNI conventions) (did you mean "portMappings"?)\n`,
    );
  });

  it("a finding about a whole file has no pointer; a version no plugin speaks is an error", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", type: "bridge" });
    await conf("20-b.conflist", { cniVersion: "1.1.0", name: "b", plugins: [{ type: "bridge" }] });
    const r = await run(["--dir", dir]);
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")).toEqual([
      `${join(dir, "10-a.conflist")}: error: not loaded: no plugin configs found`,
      expect.stringMatching(/^.*10-a\.conflist:\/type: error: a single plugin's config /),
      `${join(dir, "20-b.conflist")}:/plugins/0/type: error: plugin bridge does not support config version "1.1.0" (it supports 0.4.0, 1.0.0)`,
      "",
    ]);
  });

  it("a missing dir: one error, exit 1", async () => {
    const missing = join(box.root, "nope");
    expect(await run(["--dir", missing])).toEqual({
      code: 1,
      stdout: `${missing}: error: conf dir ${missing} does not exist\n`,
      stderr: "0 conf files: 1 error, 0 warnings\n",
    });
  });

  it("CNI_PATH empty: the plugins are not looked for, and a warning says how to fix it", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "nope" }] });
    expect(await run(["--dir", dir], { CNI_PATH: "" })).toEqual({
      code: 0,
      stdout: `${dir}: warning: CNI_PATH is empty: no plugin was looked for (CNI_PATH=/opt/cni/bin checks them)\n`,
      stderr: "1 conf file: 0 errors, 1 warning\n",
    });
  });

  it("a relative --dir (and CNI_PATH entry) is taken from the working directory", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "tuning" }] });
    const r = await run(["--dir", "conf"], { CNI_PATH: "bin" });
    expect(r.stdout).toBe(
      `${join(dir, "10-a.conflist")}:/plugins/0/type: error: failed to find plugin "tuning" in path [${bin}]\n`,
    );
  });
});

describe("validate --dir --json", () => {
  it("an object with the conf dir, the bin dirs, the files and every finding; nothing on stderr", async () => {
    const { a, b } = await mixed();
    const r = await run(["--dir", dir, "--json"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({
      confDir: dir,
      binDirs: [bin],
      files: [a, b, join(dir, "30-c.conf")],
      findings: [
        {
          file: a,
          pointer: "/plugins/1/type",
          severity: "error",
          message: `failed to find plugin "tuning" in path [${bin}]`,
          kind: "plugin-not-found",
        },
        {
          file: b,
          pointer: "/plugins/2/type",
          severity: "warning",
          message: expect.stringContaining('plugin type "portmap" is already in the list'),
          kind: "duplicate-plugin-type",
        },
      ],
    });
  });

  it("a clean dir: exit 0, no findings", async () => {
    await conf("10-a.conflist", { cniVersion: "1.0.0", name: "a", plugins: [{ type: "bridge" }] });
    const r = await run(["--dir", dir, "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).findings).toEqual([]);
  });

  it("the built binary writes the same bytes to the same streams, with the same exit code", async () => {
    await mixed();
    const argv = ["validate", "--dir", dir];
    const inProcess = await box.run(argv, { CNI_PATH: bin });
    expect(inProcess.code).toBe(1);
    expect(await box.exec(argv, { CNI_PATH: bin })).toEqual(inProcess);
    const json = await box.run([...argv, "--json"], { CNI_PATH: bin });
    expect(await box.exec([...argv, "--json"], { CNI_PATH: bin })).toEqual(json);
  });
});
