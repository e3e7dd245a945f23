// failpointPlugin's wrapper, run by the library's RawExec as a plugin would be (no root): a
// tiny fake plugin stands for the real one and records that it ran.
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InvalidArgumentError,
  PluginAbortedError,
  PluginExecError,
} from "../../src/errors/index.js";
import { RawExec } from "../../src/invoke/index.js";
import { type FailpointOptions, failpointPlugin } from "../../src/testing/index.js";

let root: string;
let plugin: string;
let ranLog: string;
const exec = new RawExec({ stderr: null, graceMs: 200 });

// Prints a result and logs "<verb> <args>" and its stdin, so a test sees the wrapper exec'd it
// with the same stdin, env and arguments.
const fakePlugin = (log: string) => `#!/bin/sh
stdin=$(cat)
printf '%s %s %s\\n' "$CNI_COMMAND" "$*" "$stdin" >> '${log}'
printf '{"cniVersion":"1.0.0","ips":[]}\\n'
`;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "lcnitest-fp-"));
  plugin = join(root, "realplug");
  ranLog = join(root, "ran.log");
  await writeFile(plugin, fakePlugin(ranLog), { mode: 0o755 });
  await writeFile(ranLog, "");
  await mkdir(join(root, "fp"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function call(path: string, verb: string, options: { signal?: AbortSignal } = {}) {
  return exec.execPlugin(
    path,
    new TextEncoder().encode('{"cniVersion":"1.0.0","name":"n","type":"realplug"}'),
    [`CNI_COMMAND=${verb}`, "CNI_CONTAINERID=c1", `PATH=${process.env.PATH}`],
    options,
  );
}

function failpoint(options: Omit<FailpointOptions, "plugin" | "dir"> & { plugin?: string }) {
  return failpointPlugin({ plugin, dir: join(root, "fp"), ...options });
}

async function ran(): Promise<string[]> {
  return (await readFile(ranLog, "utf8")).split("\n").filter((l) => l !== "");
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe("failpointPlugin", () => {
  it("refuses a name that would leave dir or break the script, a verb that is not a command, an unknown action", async () => {
    for (const [options, argument] of [
      [{ action: "fail", name: "../../escaped" }, "name"],
      [{ action: "fail", name: "a\ntouch PWNED" }, "name"],
      [{ action: "fail", verb: "x ] || touch PWNED; [ x" }, "verb"],
      [{ action: "explode" }, "action"],
    ] as const) {
      const error = await failpoint(options as never).catch((e: unknown) => e);
      expect((error as InvalidArgumentError).argument).toBe(argument);
    }
    expect(await readdir(root)).toEqual(["fp", "ran.log", "realplug"]);
    expect(await readdir(join(root, "fp"))).toEqual([]);
  });

  it("is named as the plugin, and runs it with the same stdin, env and args when not triggered", async () => {
    const fp = await failpoint({ verb: "DEL", action: "fail" });
    expect(fp.name).toBe("realplug");
    expect(fp.path).toBe(join(root, "fp", "realplug"));
    expect(text(await call(fp.path, "ADD"))).toBe('{"cniVersion":"1.0.0","ips":[]}\n');
    expect(await ran()).toEqual(['ADD  {"cniVersion":"1.0.0","name":"n","type":"realplug"}']);
  });

  it("fail: the spec's error object, code 999 by default, exit 1; the real plugin never runs", async () => {
    const fp = await failpoint({ verb: "ADD", action: "fail" });
    const error = await call(fp.path, "ADD").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginExecError);
    const e = error as PluginExecError;
    expect(e.code).toBe(999);
    expect(e.msg).toBe("failpoint: ADD of realplug failed on purpose");
    expect(e.exitCode).toBe(1);
    expect(JSON.parse(text(e.stdout))).toEqual({
      cniVersion: "1.0.0",
      code: 999,
      msg: "failpoint: ADD of realplug failed on purpose",
    });
    expect(await ran()).toEqual([]);
  });

  it("fail with a chosen code, message and name", async () => {
    const fp = await failpoint({
      verb: "CHECK",
      action: "fail",
      code: 11,
      message: "it's 'quoted' $HOME `x`",
      name: "other",
    });
    expect(fp.path).toBe(join(root, "fp", "other"));
    const e = (await call(fp.path, "CHECK").catch((x: unknown) => x)) as PluginExecError;
    expect([e.code, e.msg]).toEqual([11, "it's 'quoted' $HOME `x`"]);
  });

  it("call N: only the Nth call of the verb triggers; calls() counts every call", async () => {
    const fp = await failpoint({ verb: "ADD", call: 2, action: "fail" });
    await call(fp.path, "ADD");
    await call(fp.path, "DEL");
    await expect(call(fp.path, "ADD")).rejects.toMatchObject({ code: 999 });
    await call(fp.path, "ADD");
    expect(await fp.calls()).toBe(4);
    expect(await fp.calls("ADD")).toBe(3);
    expect(await fp.calls("DEL")).toBe(1);
    expect(await fp.calls("GC")).toBe(0);
    expect((await ran()).map((l) => l.split(" ")[0])).toEqual(["ADD", "DEL", "ADD"]);
  });

  it("without a verb, every verb triggers (or the Nth call of any verb)", async () => {
    const every = await failpoint({ action: "fail", name: "every" });
    for (const verb of ["ADD", "DEL", "VERSION", "STATUS", "GC", "CHECK"]) {
      await expect(call(every.path, verb)).rejects.toMatchObject({ code: 999 });
    }
    const third = await failpoint({ action: "fail", call: 3, name: "third" });
    await call(third.path, "ADD");
    await call(third.path, "CHECK");
    await expect(call(third.path, "DEL")).rejects.toMatchObject({ code: 999 });
    await call(third.path, "DEL");
  });

  it("hang: the run is stopped by an abort, the sleep with it", async () => {
    const fp = await failpoint({ verb: "DEL", action: "hang" });
    const start = Date.now();
    const error = await call(fp.path, "DEL", { signal: AbortSignal.timeout(300) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PluginAbortedError);
    expect((error as PluginAbortedError).timedOut).toBe(true);
    expect(Date.now() - start).toBeLessThan(5_000);
    expect(await fp.calls("DEL")).toBe(1);
  });

  it("crash: the plugin dies by SIGKILL with no output", async () => {
    const fp = await failpoint({ verb: "ADD", action: "crash" });
    const e = (await call(fp.path, "ADD").catch((x: unknown) => x)) as PluginExecError;
    expect(e).toBeInstanceOf(PluginExecError);
    expect(e.signal).toBe("SIGKILL");
    expect(e.message).toContain("signal: killed");
    expect(text(e.stdout)).toBe("");
  });

  it("garbage: exits 0 with output that is not JSON", async () => {
    const fp = await failpoint({ verb: "ADD", action: "garbage" });
    expect(text(await call(fp.path, "ADD"))).toBe("failpoint: this is not JSON\n");
    expect(await ran()).toEqual([]);
  });

  it("counts concurrent calls exactly (the log is written under flock)", async () => {
    const fp = await failpoint({ verb: "ADD", call: 1000, action: "fail" });
    await Promise.all(Array.from({ length: 20 }, () => call(fp.path, "ADD")));
    expect(await fp.calls("ADD")).toBe(20);
  });

  it("finds a plugin given by name in the plugin dirs, never the wrapper's own dir", async () => {
    const saved = process.env.CNI_PATH;
    // The wrapper dir comes first in CNI_PATH, as a runtime's plugin path would have it.
    process.env.CNI_PATH = `${join(root, "fp")}:${root}`;
    try {
      const fp = await failpoint({ plugin: "realplug", verb: "DEL", action: "fail" });
      expect(fp.path).toBe(join(root, "fp", "realplug"));
      expect(text(await call(fp.path, "ADD"))).toBe('{"cniVersion":"1.0.0","ips":[]}\n');
      expect(await ran()).toHaveLength(1);
      await expect(
        failpointPlugin({ plugin: "nosuch", dir: join(root, "fp"), action: "fail" }),
      ).rejects.toThrow(/failed to find plugin "nosuch"/);
    } finally {
      if (saved === undefined) delete process.env.CNI_PATH;
      else process.env.CNI_PATH = saved;
    }
  });

  it("rejects a call number that is not a positive integer", async () => {
    for (const n of [0, -1, 1.5]) {
      await expect(failpoint({ action: "fail", call: n })).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
    }
  });
});
