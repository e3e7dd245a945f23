// The warning a corrupt record gives on DEL and CHECK goes to Node's debug log
// (NODE_DEBUG=libcni), which is read when the process starts: hence a child process.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), "libcni-api-debuglog-"));
  mkdirSync(join(cacheDir, "results"));
});
afterEach(() => rmSync(cacheDir, { recursive: true, force: true }));

// Runs CHECK then DEL over a zero-byte record with a FakeExec, from the built library.
const script = `
import { CNIConfig } from ${JSON.stringify(join(root, "dist/api/index.js"))};
import { networkConfFromBytes } from ${JSON.stringify(join(root, "dist/conf/index.js"))};
import { FakeExec } from ${JSON.stringify(join(root, "dist/invoke/index.js"))};
const exec = new FakeExec();
exec.findInPathCall.returns.path = "/fake/p";
const cni = new CNIConfig({ cacheDir: process.argv[1], exec });
const list = networkConfFromBytes(new TextEncoder().encode('{"name":"n","cniVersion":"1.1.0","plugins":[{"type":"p"}]}'));
const rt = { containerID: "c", netNS: "/ns", ifName: "eth0" };
await cni.checkNetworkList(list, rt);
await cni.delNetworkList(list, rt);
console.log(exec.calls.length);
`;

function run(env: Record<string, string>): { stdout: string; stderr: string } {
  writeFileSync(join(cacheDir, "results", "n-c-eth0"), "");
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", script, cacheDir], {
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  expect(child.status).toBe(0);
  return { stdout: child.stdout, stderr: child.stderr };
}

describe("debug log", () => {
  it("warns about a corrupt record on CHECK and DEL with NODE_DEBUG=libcni", () => {
    const { stdout, stderr } = run({ NODE_DEBUG: "libcni" });
    expect(stdout.trim()).toBe("2");
    const warnings = stderr.split("\n").filter((l) => l.includes("ignoring corrupt cache record"));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^LIBCNI \d+: ignoring corrupt cache record .*n-c-eth0 \(0 bytes\)/,
    );
    // DEL removed the record.
    expect(readdirSync(join(cacheDir, "results"))).toEqual([]);
  });

  it("is silent without it", () => {
    const { stdout, stderr } = run({ NODE_DEBUG: "" });
    expect(stdout.trim()).toBe("2");
    expect(stderr).not.toContain("LIBCNI");
  });
});
