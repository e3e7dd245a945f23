// NODE_DEBUG=libcni is read when the process starts: hence a child process running the built
// library. It covers the corrupt-record warning of DEL, and the line per verb and per plugin
// exec (verb, network, container, interface, plugin, duration, outcome).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const plugins = join(root, "test/fixtures/plugins");
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-api-debuglog-"));
  mkdirSync(join(cacheDir, "results"));
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

// CHECK then DEL over a zero-byte record (FakeExec), then an ADD through the noop fixture and
// one through a plugin that dies by SIGSEGV (real RawExec), from the built library.
const script = `
import { CNIConfig, networkConfFromBytes } from ${JSON.stringify(join(root, "dist/index.js"))};
import { FakeExec } from ${JSON.stringify(join(root, "dist/invoke/index.js"))};
const exec = new FakeExec();
exec.findInPathCall.returns.path = "/fake/p";
const cacheDir = process.argv[1];
const fake = new CNIConfig({ cacheDir, exec });
const conf = (type) => networkConfFromBytes(new TextEncoder().encode(
  JSON.stringify({ name: "n", cniVersion: "1.1.0", plugins: [{ type }] })));
const rt = { containerID: "c", netNS: "/ns", ifName: "eth0" };
await fake.checkNetworkList(conf("p"), rt).then(() => console.log("CHECK ok"), (e) => console.log("CHECK failed"));
await fake.delNetworkList(conf("p"), rt);
console.log(exec.calls.length);
const real = new CNIConfig({ cacheDir, path: [process.argv[2]], durableCache: false });
await real.addNetworkList(conf("noop.mjs"), rt);
await real.addNetworkList(conf("die-by-signal"), { ...rt, containerID: "c2" }).catch(() => {});
`;

function run(env: Record<string, string>): { stdout: string; stderr: string } {
  writeFileSync(join(cacheDir, "results", "n-c-eth0"), "");
  const child = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", script, cacheDir, plugins],
    { env: { ...process.env, ...env }, encoding: "utf8" },
  );
  expect(child.status, child.stderr).toBe(0);
  return { stdout: child.stdout, stderr: child.stderr };
}

const lines = (stderr: string, re: RegExp): string[] =>
  stderr.split("\n").filter((l) => re.test(l));

describe("debug log", () => {
  it("warns about a corrupt record on DEL; CHECK fails on it", () => {
    const { stdout, stderr } = run({ NODE_DEBUG: "libcni" });
    expect(stdout.trim().split("\n").slice(0, 2)).toEqual(["CHECK failed", "1"]);
    const warnings = lines(stderr, /ignoring corrupt cache record/);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^LIBCNI \d+: ignoring corrupt cache record .*n-c-eth0 \(0 bytes\)/,
    );
    // DEL removed the corrupt record; the ADD through noop wrote its own.
    expect(readdirSync(join(cacheDir, "results"))).toEqual(["n-c-eth0"]);
  });

  it("writes one line per verb, with its outcome", () => {
    const { stderr } = run({ NODE_DEBUG: "libcni" });
    const verbs = lines(stderr, /^LIBCNI \d+: verb /);
    expect(verbs).toHaveLength(4);
    const d = "duration=\\d+(\\.\\d+)?ms";
    expect(verbs[0]).toMatch(
      new RegExp(
        `: verb CHECK network="n" container=c ifname=eth0 cniVersion=1.1.0 ${d} outcome=error error="failed to get network \\\\"n\\\\" cached result: decoding version from network config: unexpected end of JSON input"$`,
      ),
    );
    expect(verbs[1]).toMatch(
      new RegExp(
        `: verb DEL network="n" container=c ifname=eth0 cniVersion=1.1.0 ${d} outcome=ok$`,
      ),
    );
    expect(verbs[2]).toMatch(
      new RegExp(
        `: verb ADD network="n" container=c ifname=eth0 cniVersion=1.1.0 ${d} outcome=ok$`,
      ),
    );
    expect(verbs[3]).toMatch(
      new RegExp(
        `: verb ADD network="n" container=c2 ifname=eth0 cniVersion=1.1.0 ${d} outcome=error error="plugin type=\\\\"die-by-signal\\\\" failed \\(add\\): netplugin failed with no error message: signal: segmentation fault"`,
      ),
    );
  });

  it("writes one line per plugin exec: command, plugin, network, container, interface, exit, duration, outcome", () => {
    const { stderr } = run({ NODE_DEBUG: "libcni" });
    const execs = lines(stderr, /^LIBCNI \d+: exec /);
    // FakeExec runs no process: only the two real ADDs have a line.
    expect(execs).toHaveLength(2);
    const d = "duration=\\d+(\\.\\d+)?ms";
    expect(execs[0]).toMatch(
      new RegExp(
        `: exec ADD plugin=${plugins}/noop.mjs network="n" container=c ifname=eth0 exit=0 signal=- aborted=false attempts=1 ${d} outcome=ok$`,
      ),
    );
    expect(execs[1]).toMatch(
      new RegExp(
        `: exec ADD plugin=${plugins}/die-by-signal network="n" container=c2 ifname=eth0 exit=- signal=SIGSEGV aborted=false attempts=1 ${d} outcome=error error="netplugin failed with no error message: signal: segmentation fault"$`,
      ),
    );
    // Each exec line comes before the line of its verb.
    const all = lines(stderr, /^LIBCNI \d+: (exec|verb) ADD/).map((l) => l.split(" ")[2]);
    expect(all).toEqual(["exec", "verb", "exec", "verb"]);
  });

  it("is silent without it", () => {
    const { stdout, stderr } = run({ NODE_DEBUG: "" });
    expect(stdout.trim().split("\n").slice(0, 2)).toEqual(["CHECK failed", "1"]);
    expect(stderr).not.toContain("LIBCNI");
  });
});
