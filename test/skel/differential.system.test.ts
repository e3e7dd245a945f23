// Differential test: this port's noop (on this port's skel) against upstream's noop built from
// Debian's Go libcni 1.1.2 (golang-github-appc-cni-dev, GOPATH mode), on the behaviour the two
// versions share. Where 1.1.2 predates the target v1.3.0 (GC, STATUS, env validation, the
// netns check, error codes from noop, 1.1.0) the cases are left out; the other tests cover them.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noopPath, readDebug, writeDebug } from "../fixtures/plugins/noop-debug.js";
import { requireBuild, runPlugin } from "./spawn.js";

const gopath = "/usr/share/gocode";
let dir: string;
let goNoop: string;

beforeAll(async () => {
  await requireBuild();
  dir = await mkdtemp(join(tmpdir(), "cni-skel-diff-"));
  goNoop = join(dir, "go-noop");
  // CI installs golang-go and golang-github-appc-cni-dev: a missing toolchain fails here, loudly.
  await promisify(execFile)(
    "go",
    ["build", "-o", goNoop, "github.com/containernetworking/cni/plugins/test/noop"],
    {
      env: { ...process.env, GO111MODULE: "off", GOPATH: gopath, GOFLAGS: "" },
      timeout: 180_000,
    },
  );
}, 200_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const base = {
  CNI_COMMAND: "ADD",
  CNI_CONTAINERID: "ctr-1",
  CNI_NETNS: "/some/netns/path",
  CNI_IFNAME: "eth0",
  CNI_PATH: "/opt/cni/bin",
};

interface Case {
  name: string;
  env: Record<string, string>;
  stdin: string;
  debug?: Parameters<typeof writeDebug>[1];
}

// {DEBUG} in env values and stdin is replaced by the case's debug file path.
const cases: Case[] = [
  { name: "no command, about text", env: {}, stdin: "" },
  {
    name: "no command, about text with the debug file's versions",
    env: { CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: "{}",
    debug: { reportVersionSupport: ["0.3.1", "0.4.0"] },
  },
  { name: "ADD with nothing set", env: { CNI_COMMAND: "ADD" }, stdin: "" },
  { name: "DEL with nothing set", env: { CNI_COMMAND: "DEL" }, stdin: "" },
  { name: "CHECK with nothing set", env: { CNI_COMMAND: "CHECK" }, stdin: "" },
  { name: "empty stdin", env: base, stdin: "" },
  { name: "truncated JSON", env: base, stdin: `{"name":` },
  { name: "trailing garbage", env: base, stdin: `{"name":"x"} x` },
  { name: "bad first character", env: base, stdin: "nope" },
  { name: "array config", env: base, stdin: "[]" },
  { name: "numeric name", env: base, stdin: `{"name":5}` },
  { name: "missing name", env: base, stdin: `{"cniVersion":"0.3.1"}` },
  { name: "null config", env: base, stdin: "null" },
  {
    name: "version not in the debug file's list, Go %q details",
    env: { ...base, CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.4.0"}`,
    debug: { reportVersionSupport: ["0.3.1", "é\u0001"] },
  },
  {
    name: "CHECK below 0.4.0",
    env: { ...base, CNI_COMMAND: "CHECK" },
    stdin: `{"name":"n","cniVersion":"0.3.1"}`,
  },
  {
    name: "CHECK with a plugin that stops at 0.3.1",
    env: { ...base, CNI_COMMAND: "CHECK", CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.4.0"}`,
    debug: { reportVersionSupport: ["0.3.0", "0.3.1"] },
  },
  {
    name: "CHECK with an unparsable config version",
    env: { ...base, CNI_COMMAND: "CHECK" },
    stdin: `{"name":"n","cniVersion":"x.y"}`,
  },
  {
    name: "ReportError (HTML characters escaped)",
    env: { ...base, CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.4.0"}`,
    debug: { reportError: "ba<n>a&na" },
  },
  {
    name: "ReportResult as is",
    env: { ...base, CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.4.0"}`,
    debug: { reportResult: ` { "ips": [] } ` },
  },
  {
    name: "PASSTHROUGH 0.3.1",
    env: { ...base, CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.3.1","prevResult":{"cniVersion":"0.3.1","ips":[{"version":"4","address":"10.1.2.15/24","gateway":"10.1.2.1"}],"routes":[{"dst":"0.0.0.0/0"}]}}`,
    debug: { reportResult: "PASSTHROUGH" },
  },
  {
    name: "INJECT-DNS 0.4.0",
    env: { ...base, CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.4.0","prevResult":{"cniVersion":"0.4.0","interfaces":[{"name":"eth0","mac":"00:11:22:33:44:55"}],"ips":[{"version":"6","address":"fd00::5/64","interface":0}],"dns":{"domain":"x"}}}`,
    debug: { reportResult: "INJECT-DNS" },
  },
  {
    name: "PASSTHROUGH of a prevResult from another version family",
    env: { ...base, CNI_ARGS: "" },
    stdin: `{"name":"n","cniVersion":"0.3.1","debugFile":"{DEBUG}","prevResult":{"cniVersion":"1.0.0"}}`,
    debug: { reportResult: "PASSTHROUGH" },
  },
  {
    name: "no debug file named",
    env: base,
    stdin: `{"name":"n","cniVersion":"0.3.1"}`,
  },
  {
    name: "ExitWithCode",
    env: { ...base, CNI_COMMAND: "DEL", CNI_ARGS: "DEBUG={DEBUG}" },
    stdin: `{"name":"n","cniVersion":"0.3.1"}`,
    debug: { reportResult: "{}", exitWithCode: 7, reportStderr: "warn\n" },
  },
];

/** What one run showed: the wire output and what noop recorded. */
interface Observed {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  command: string | undefined;
  stdin: string | undefined;
}

/** Stderr, up to a panic's message: Go adds a goroutine trace after it. */
const panicTrimmed = (s: string): string => (s.startsWith("panic: ") ? s.split("\n")[0] : s);

describe("noop on this port's skel vs upstream's noop on Go skel (libcni 1.1.2)", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const outputs: Observed[] = [];
      for (const [label, plugin] of [
        ["go", goNoop],
        ["port", noopPath],
      ] as const) {
        const debugFile = join(dir, `debug-${label}`);
        const fill = (s: string): string => s.replaceAll("{DEBUG}", debugFile);
        if (c.debug) await writeDebug(debugFile, c.debug);
        const env = Object.fromEntries(Object.entries(c.env).map(([k, v]) => [k, fill(v)]));
        const run = await runPlugin(plugin, env, fill(c.stdin));
        const recorded = c.debug ? await readDebug(debugFile) : undefined;
        outputs.push({
          exitCode: run.exitCode,
          stdout: run.stdout,
          stderr: panicTrimmed(run.stderr),
          command: recorded?.command,
          // 1.1.2 has no NetnsOverride; the debug file paths differ by design.
          stdin: recorded ? Buffer.from(recorded.cmdArgs.stdinData).toString() : undefined,
        });
        if (c.debug) await rm(debugFile, { force: true });
      }
      const [go, port] = outputs;
      const normalize = (o: Observed): Observed => ({
        ...o,
        stdin: o.stdin?.replaceAll(/debug-(go|port)/g, "debug-X"),
        stderr: o.stderr
          .replaceAll(/debug-(go|port)/g, "debug-X")
          // The only version difference here: 1.1.0 is new since 1.1.2.
          .replace(", 1.1.0", ""),
      });
      expect(normalize(port)).toEqual(normalize(go));
    });
  }

  it("agrees on VERSION's supported versions (cniVersion differs: 1.0.0 in 1.1.2)", async () => {
    const debugFile = join(dir, "debug-version");
    await writeDebug(debugFile, { reportVersionSupport: ["0.123.0", "0.2.0"] });
    const env = { CNI_COMMAND: "VERSION", CNI_ARGS: `DEBUG=${debugFile}` };
    const stdin = `{"cniVersion":"1.0.0"}`;
    const go = await runPlugin(goNoop, env, stdin);
    const port = await runPlugin(noopPath, env, stdin);
    expect(go.stdout).toBe('{"cniVersion":"1.0.0","supportedVersions":["0.123.0","0.2.0"]}\n');
    expect(port.stdout).toBe('{"cniVersion":"1.1.0","supportedVersions":["0.123.0","0.2.0"]}\n');
  });
});
