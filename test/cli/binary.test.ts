/**
 * The built `cnitool` executable (dist/cli/main.js, the package's bin) as a child process:
 * the bytes on its stdout and stderr, its exit status, and what it reads from its process
 * (environment, working directory, signals).
 */
import { access, mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pluginDir } from "../fixtures/plugins/noop-debug.js";
import { cnitoolBin, resultPrinted, runInProcess, Sandbox } from "./helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await Sandbox.create();
});
afterEach(async () => {
  await box.dispose();
});

describe("cnitool binary", () => {
  it("--help: the root help on stdout, exit 0 (the same bytes as in-process)", async () => {
    const r = await box.exec(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toBe((await runInProcess(["--help"], {})).stdout);
    expect(r.stdout.startsWith("CNI Tool is a simple program")).toBe(true);
  });

  it("runs in a deleted working directory (it has none): --help, exit 0, no crash", async () => {
    const gone = join(box.root, "gone");
    const script = `mkdir ${gone} && cd ${gone} && rmdir ${gone} && exec "$0" "$1" --help`;
    const r = await execa("sh", ["-c", script, process.execPath, cnitoolBin], { reject: false });
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout.startsWith("CNI Tool is a simple program")).toBe(true);
  });

  it("a relative netns in a deleted working directory: Go's getwd error, exit 1, no plugin run", async () => {
    const gone = join(box.root, "gone");
    const script = `mkdir ${gone} && cd ${gone} && rmdir ${gone} && exec "$0" "$1" --cache-dir "$2" add net ns1`;
    const argv = ["-c", script, process.execPath, cnitoolBin, box.cache];
    const r = await execa("sh", argv, { reject: false, env: box.env() });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.split("\n").at(-1)).toBe("getwd: no such file or directory");
    expect((await box.lastCall()).command).toBe("");
  });

  it("add: the result on stdout without a trailing newline, exit 0, the record in --cache-dir", async () => {
    const r = await box.exec([
      "add",
      "net",
      "/run/netns/blue",
      "--cache-dir",
      box.cache,
      "-i",
      "net0",
    ]);
    expect(r).toEqual({ code: 0, stdout: resultPrinted, stderr: "" });
    await access(join(box.cache, "results", "net-cnitool-df26705e2e4ffd095eb1-net0"));
    expect((await box.lastCall()).env).toMatchObject({
      CNI_COMMAND: "ADD",
      CNI_CONTAINERID: "cnitool-df26705e2e4ffd095eb1",
      CNI_NETNS: "/run/netns/blue",
      CNI_IFNAME: "net0",
      CNI_PATH: pluginDir,
    });
  });

  it("add with a stdout that takes nothing (/dev/full): exit 0, as upstream ignores the print", async () => {
    const r = await execa(
      process.execPath,
      [cnitoolBin, "add", "net", "/run/netns/blue", "--cache-dir", box.cache],
      {
        env: box.env({}),
        extendEnv: false,
        cwd: box.root,
        reject: false,
        stdout: { file: "/dev/full" },
      },
    );
    expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    await access(join(box.cache, "results", "net-cnitool-df26705e2e4ffd095eb1-eth0"));
  });

  it("a failing plugin: cobra's error block and main's line on stderr, exit 1", async () => {
    await box.script({ reportError: "boom", reportErrorCode: 7 });
    const r = await box.exec(["add", "net", "/run/netns/blue", "--cache-dir", box.cache]);
    const message = 'plugin type="noop.mjs" failed (add): boom';
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `Error: ${message}\n${(await runInProcess(["add", "--help"], {})).stdout.replace(/^[\s\S]*?Usage:/, "Usage:")}\n${message}\n`,
    );
  });

  it("a plugin's stderr passes through to cnitool's stderr, as upstream's RawExec (os.Stderr)", async () => {
    await box.script({ reportResult: '{"cniVersion":"1.0.0"}', reportStderr: "plugin says hi\n" });
    const r = await box.exec(["add", "net", "/run/netns/blue", "--cache-dir", box.cache]);
    expect(r).toEqual({
      code: 0,
      stdout: '{\n    "cniVersion": "1.0.0"\n}',
      stderr: "plugin says hi\n",
    });
  });

  it("an unknown command: exit 1", async () => {
    const r = await box.exec(["bogus"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `Error: unknown command "bogus" for "cnitool"\nRun 'cnitool --help' for usage.\nunknown command "bogus" for "cnitool"\n`,
    );
  });

  it("a relative netns is made absolute against the working directory as Go sees it ($PWD through a symlink)", async () => {
    await mkdir(join(box.root, "real"));
    await symlink(join(box.root, "real"), join(box.root, "link"));
    const cwd = join(box.root, "link");
    const r = await execa(
      process.execPath,
      [cnitoolBin, "add", "net", "ns1", "--cache-dir", box.cache],
      { env: { ...box.env(), PWD: cwd }, cwd, reject: false },
    );
    expect(r.exitCode).toBe(0);
    const call = await box.lastCall();
    expect(call.cmdArgs.netns).toBe(join(cwd, "ns1"));
    const { containerIDForNetns } = await import("../../src/cli/runtime-config.js");
    expect(call.cmdArgs.containerID).toBe(containerIDForNetns(join(cwd, "ns1")));
  });

  it("SIGTERM while a plugin runs: the plugin is stopped, cnitool reports it and exits 1", async () => {
    await box.script({ waitForAbort: true });
    const child = execa(
      process.execPath,
      [cnitoolBin, "add", "net", "/run/netns/b", "--cache-dir", box.cache],
      {
        env: box.env(),
        extendEnv: true,
        reject: false,
      },
    );
    // Wait until the plugin has recorded its call, then interrupt cnitool.
    for (let i = 0; i < 200 && (await box.lastCall()).command !== "ADD"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGTERM");
    const r = await child;
    expect(r.exitCode).toBe(1);
    expect(String(r.stderr)).toMatch(/^Error: plugin type="noop\.mjs" failed \(add\): .+/);
    expect(String(r.stdout)).toBe("");
  });
});
