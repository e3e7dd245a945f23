/**
 * The harness checks itself: the recorder records and replays, the JSON tree is faithful, and
 * the comparator reports a difference as unexplained unless a documented rule explains
 * exactly that difference.
 */
import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConformanceCase, Observation } from "./harness/case.js";
import { compareCase } from "./harness/compare.js";
import { as100, goSideCase } from "./harness/go-runner.js";
import { knownDifferences, modernEscapes } from "./harness/known-differences.js";
import { parseTree, serializeTree, sortKeysDeep } from "./harness/ordered-json.js";
import {
  buildRecorder,
  makeTempRoot,
  recorderPath,
  recorderScript,
  removeDir,
  repoRoot,
} from "./harness/sandbox.js";

const execFileP = promisify(execFile);
const b64 = (s: string): string => Buffer.from(s).toString("base64");

describe.each([
  ["the script", recorderScript],
  ["compiled", recorderPath],
])("recorder plugin, %s", (_, recorder) => {
  let dir = "";
  beforeAll(async () => {
    await buildRecorder();
    dir = await makeTempRoot();
  });
  afterAll(async () => {
    await removeDir(dir);
  });

  /** Runs the recorder installed as bin/<name> with `env` and `stdin`: how it ended. */
  async function call(name: string, env: Record<string, string>, stdin: string) {
    await symlink(recorder, join(dir, "bin", name)).catch(() => undefined);
    const run = execFileP(join(dir, "bin", name), [], { env: { PATH: process.env.PATH, ...env } });
    run.child.stdin?.end(stdin);
    return run.then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  }

  it("logs stdin and sorted CNI_* env, and replays the scripted stdout, stderr and exit code", async () => {
    await mkdir(join(dir, "bin"), { recursive: true });
    await mkdir(join(dir, "rec/script"), { recursive: true });
    await writeFile(join(dir, "rec/script/my-plugin.ADD.out"), '{"cniVersion":"1.0.0"}');
    await writeFile(join(dir, "rec/script/my-plugin.ADD.err"), "warn");
    await writeFile(join(dir, "rec/script/my-plugin.ADD.code"), "3");
    const env = { CNI_COMMAND: "ADD", CNI_ARGS: "a=b;c", CNI_PATH: "/x", OTHER: "1" };
    const err = await call("my-plugin", env, "stdin \u0000 bytes");
    expect(err).toMatchObject({ code: 3, stdout: '{"cniVersion":"1.0.0"}', stderr: "warn" });
    // Numbered by the calls so far; no script: nothing printed, exit 0; no command: NONE. A
    // name the shell does not import (a dash) is not passed on by the script: left out alike.
    const env2 = { CNI_COMMAND: "DEL", "CNI_A-B": "1", CNI_E: "", CNI_D: "x\ny" };
    expect(await call("other", env2, "")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await call("other", {}, "x")).toEqual({ code: 0, stdout: "", stderr: "" });
    const log = join(dir, "rec/log");
    expect((await readdir(log)).sort()).toEqual([
      "0000-my-plugin-ADD.env",
      "0000-my-plugin-ADD.stdin",
      "0001-other-DEL.env",
      "0001-other-DEL.stdin",
      "0002-other-NONE.env",
      "0002-other-NONE.stdin",
    ]);
    expect(await readFile(join(log, "0000-my-plugin-ADD.stdin"), "utf8")).toBe(
      "stdin \u0000 bytes",
    );
    expect(await readFile(join(log, "0000-my-plugin-ADD.env"), "utf8")).toBe(
      "CNI_ARGS=a=b;c\u0000CNI_COMMAND=ADD\u0000CNI_PATH=/x\u0000",
    );
    expect(await readFile(join(log, "0001-other-DEL.env"), "utf8")).toBe(
      "CNI_COMMAND=DEL\u0000CNI_D=x\ny\u0000CNI_E=\u0000",
    );
    expect(await readFile(join(log, "0002-other-NONE.stdin"), "utf8")).toBe("x");
  });
});

describe("ordered JSON tree", () => {
  it("round-trips compact and Go-indented text byte for byte, escapes and key order kept", () => {
    const compact = '{"b":"\\u0008\\u003c","10":1,"9":[1,{},[]],"a":{"z":null,"y":-1.5e+300}}';
    expect(serializeTree(parseTree(compact))).toBe(compact);
    const indented = '{\n    "b": [\n        1\n    ],\n    "e": {},\n    "a": []\n}';
    expect(serializeTree(parseTree(indented), "    ")).toBe(indented);
  });

  it("sorts keys by UTF-8 bytes (integer-like keys not first)", () => {
    const sorted = serializeTree(
      sortKeysDeep(parseTree('{"b":1,"10":2,"é":3,"B":4,"9":{"y":1,"x":2}}')),
    );
    expect(sorted).toBe('{"10":2,"9":{"x":2,"y":1},"B":4,"b":1,"é":3}');
  });

  it("rewrites Go 1.19's \\u0008 and \\u000c only where they are escapes", () => {
    expect(modernEscapes('"a\\u0008b\\u000cc"')).toBe('"a\\bb\\fc"');
    expect(modernEscapes('"a\\\\u0008"')).toBe('"a\\\\u0008"');
  });

  it("relabels 1.1.0 tokens only (not addresses), whitespace kept", () => {
    expect(as100('{ "cniVersion": "1.1.0", "a": "10.1.1.0/24" }')).toBe(
      '{ "cniVersion": "1.0.0", "a": "10.1.1.0/24" }',
    );
  });
});

describe("comparator", () => {
  const cacheDir = "/sb/cache";
  const logDir = "/sb/rec/log";
  const baseCase: ConformanceCase = {
    id: "self/one",
    confList: '{"cniVersion":"1.0.0","name":"n","plugins":[{"type":"rec-a"}]}',
    plugins: { "rec-a": {} },
    runtimeConf: { containerID: "c", netNS: "/ns", ifName: "eth0" },
    ops: ["add"],
  };
  const record = (extra: string): string =>
    `{"kind":"cniCacheV1","containerId":"c","config":"e30=","ifName":"eth0","networkName":"n"${extra},"result":{"cniVersion":"1.0.0"}}`;
  const obs = (stdin: string, result: string, cache: string): Observation => ({
    ops: [
      {
        op: "add",
        result,
        dirs: {
          [cacheDir]: {
            results: { mode: "40700", b64: null },
            "results/n-c-eth0": { mode: "600", b64: b64(cache) },
          },
          [logDir]: {
            "0000-rec-a-ADD.stdin": { mode: "644", b64: b64(stdin) },
            "0000-rec-a-ADD.env": { mode: "644", b64: b64("CNI_COMMAND=ADD\u0000") },
          },
        },
      },
    ],
  });
  const goResult =
    '{"cniVersion":"1.0.0","ips":[{"interface":0,"address":"10.0.0.2/24"}],"dns":{}}';
  const tsResult = '{"cniVersion":"1.0.0","ips":[{"address":"10.0.0.2/24","interface":0}]}';
  const go = obs('{"type":"rec-a"}', goResult, record(""));

  it("calls equal observations identical", () => {
    const v = compareCase(baseCase, go, go, cacheDir, logDir);
    expect(v.status).toBe("identical");
    expect(v.artifacts).toBeGreaterThan(5);
  });

  it("explains 1.x key order and the cache's netns by their rules, and nothing else", () => {
    const ts = obs('{"type":"rec-a"}', tsResult, record(',"netns":"/ns"'));
    const v = compareCase(baseCase, go, ts, cacheDir, logDir);
    expect(v).toMatchObject({ status: "documented", rules: ["cache-netns", "result-1x-sorted"] });
  });

  it("reports a one-byte stdin difference as unexplained", () => {
    const ts = obs('{"type":"rec-b"}', goResult, record(""));
    const v = compareCase(baseCase, go, ts, cacheDir, logDir);
    expect(v.status).toBe("unexplained");
    expect(v.unexplained[0]).toMatchObject({ key: "op0:add.call:0000-rec-a-ADD.stdin" });
  });

  it("reports a wrong netns value, a reordered 0.x result and a missing dns as unexplained", () => {
    const wrongNetns = obs('{"type":"rec-a"}', goResult, record(',"netns":"/other"'));
    expect(compareCase(baseCase, go, wrongNetns, cacheDir, logDir).status).toBe("unexplained");
    const go04 = obs("{}", '{"cniVersion":"0.4.0","ips":[],"dns":{}}', record(""));
    const ts04 = obs("{}", '{"cniVersion":"0.4.0","dns":{},"ips":[]}', record(""));
    expect(compareCase(baseCase, go04, ts04, cacheDir, logDir).status).toBe("unexplained");
    const tsNoDns = obs("{}", '{"cniVersion":"0.4.0","ips":[]}', record(""));
    expect(compareCase(baseCase, go04, tsNoDns, cacheDir, logDir).status).toBe("unexplained");
  });

  it("reports a whitespace-only difference as unexplained", () => {
    const ts = obs('{"type": "rec-a"}', goResult, record(""));
    expect(compareCase(baseCase, go, ts, cacheDir, logDir).status).toBe("unexplained");
  });

  it("explains an attachment's missing netns only where the port's record has the rt's netNS", () => {
    const att = (netNS: string) => ({
      containerID: "c",
      network: "n",
      ifName: "eth0",
      configB64: null,
      netNS,
      cniArgs: null,
      capabilityArgs: null,
    });
    const withAtts = (netNS: string): Observation => ({
      ops: [{ op: "getCachedAttachments", attachments: [att(netNS)], dirs: {} }],
    });
    const c: ConformanceCase = { ...baseCase, ops: ["getCachedAttachments"] };
    expect(compareCase(c, withAtts(""), withAtts("/ns"), cacheDir, logDir)).toMatchObject({
      status: "documented",
      rules: ["cache-netns"],
    });
    expect(compareCase(c, withAtts(""), withAtts("/elsewhere"), cacheDir, logDir).status).toBe(
      "unexplained",
    );
  });

  it("gives Go the equivalent list and 1.0.0 for 1.1.0", () => {
    const c: ConformanceCase = {
      ...baseCase,
      confList: '{"cniVersion":"1.1.0","name":"n","disableCheck":"true","plugins":[]}',
      goConfList: '{"cniVersion":"1.1.0","name":"n","disableCheck":true,"plugins":[]}',
      plugins: { "rec-a": { ADD: { out: '{"cniVersion":"1.1.0"}' } } },
    };
    const g = goSideCase(c);
    expect(g.confList).toBe('{"cniVersion":"1.0.0","name":"n","disableCheck":true,"plugins":[]}');
    expect(g.plugins["rec-a"].ADD.out).toBe('{"cniVersion":"1.0.0"}');
  });
});

describe("documentation", () => {
  it("docs/deviations/conformance.md gives every documented difference with its reason", async () => {
    const doc = await readFile(join(repoRoot, "docs/deviations/conformance.md"), "utf8");
    for (const k of knownDifferences) {
      expect(doc, k.id).toContain(`\`${k.id}\``);
    }
  });
});
