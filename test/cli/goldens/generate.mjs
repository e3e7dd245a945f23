#!/usr/bin/env node
/**
 * Regenerates upstream-cnitool.json: what upstream's cnitool prints (stdout, stderr, exit
 * status) for each case in cases.json, run in a sandbox laid out as upstream-cnitool.test.ts
 * lays it out, with the noop fixture plugin.
 *
 * The reference is a cnitool binary given as the argument: the goldens in this directory were
 * recorded from upstream's cnitool (v1.3.0+main, cobra 1.9.1, pflag 1.0.6) over Debian's Go
 * libcni 1.1.2. How that binary is built is not part of this repository, which carries none of
 * upstream's code.
 *
 *   node test/cli/goldens/generate.mjs /path/to/reference/cnitool
 *
 * It writes results to /var/lib/cni (upstream's fixed cache directory) and removes it after
 * each case: run it on a scratch machine.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const pluginDir = fileURLToPath(new URL("../../fixtures/plugins/", import.meta.url));
const ref = process.argv[2];
if (!ref) throw new Error("usage: generate.mjs <reference cnitool binary>");

/** The sandbox: networks test (1.0.0, a result), errnet (an error), old (0.3.1 .conf). */
export function layOut(dir) {
  mkdirSync(join(dir, "net.d"));
  const result = '{"cniVersion":"1.0.0","ips":[{"address":"10.1.2.3/24"}]}';
  writeFileSync(join(dir, "debug.json"), JSON.stringify({ ReportResult: result }));
  writeFileSync(
    join(dir, "debugerr.json"),
    JSON.stringify({ ReportError: "boom", ReportErrorCode: 7 }),
  );
  const plugin = (debug) => ({ type: "noop.mjs", debugFile: join(dir, debug) });
  writeFileSync(
    join(dir, "net.d", "10-test.conflist"),
    JSON.stringify({ cniVersion: "1.0.0", name: "test", plugins: [plugin("debug.json")] }),
  );
  writeFileSync(
    join(dir, "net.d", "20-err.conflist"),
    JSON.stringify({ cniVersion: "1.0.0", name: "errnet", plugins: [plugin("debugerr.json")] }),
  );
  writeFileSync(
    join(dir, "net.d", "30-old.conf"),
    JSON.stringify({ cniVersion: "0.3.1", name: "old", ...plugin("debug.json") }),
  );
}

const cases = JSON.parse(readFileSync(join(here, "cases.json"), "utf8"));
const out = [];
for (const { argv, env = {} } of cases) {
  const dir = mkdtempSync(join(tmpdir(), "cnitool-golden-"));
  layOut(dir);
  rmSync("/var/lib/cni", { recursive: true, force: true });
  const p = spawnSync(ref, argv, {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: process.env.PATH, NETCONFPATH: join(dir, "net.d"), CNI_PATH: pluginDir, ...env },
  });
  const hide = (s) =>
    s.replaceAll(dir, "$DIR").replaceAll(pluginDir.replace(/\/$/, ""), "$PLUGINS");
  out.push({ argv, env, code: p.status, stdout: hide(p.stdout), stderr: hide(p.stderr) });
  rmSync(dir, { recursive: true, force: true });
}
rmSync("/var/lib/cni", { recursive: true, force: true });
writeFileSync(join(here, "upstream-cnitool.json"), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${out.length} cases`);
