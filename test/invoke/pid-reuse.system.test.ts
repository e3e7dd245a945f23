/**
 * The kill after a plugin's grace never reaches a process that has its pid again: a plugin
 * that exits while a `setsid` daemon holds its stdout leaves the call waiting out the grace,
 * and the group it led is empty, so its pid may be another process's when the SIGKILL is due.
 * The call does not wait on the group that process leads either. Run in a pid namespace of its own (`unshare -p -f --mount-proc`), where writing
 * `ns_last_pid` hands the plugin's pid to a new process. Needs root and the built helper.
 */
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
let dir = "";

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error("the system tier runs as root (pid namespaces)");
  dir = await mkdtemp(join(tmpdir(), "libcni-pid-reuse-"));
  // Its pid in a file, a daemon of a session of its own holding stdout, then exit at once.
  await writeFile(
    join(dir, "plugin"),
    `#!/bin/sh\necho $$ > ${dir}/pid\nsetsid sleep 30 &\necho '{}'\n`,
  );
  await chmod(join(dir, "plugin"), 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the kill after a plugin's grace", () => {
  it.each([
    "spawner",
    "direct",
  ])("spares a process that has the plugin's pid again (%s)", async (launcher) => {
    const script = `
      import { spawn } from "node:child_process";
      import { readFileSync, writeFileSync } from "node:fs";
      const { RawExec } = await import(${JSON.stringify(join(root, "build/invoke/raw-exec.js"))});
      const exec = new RawExec({ stderr: null, graceMs: 1000, launcher: ${JSON.stringify(launcher)} });
      const t0 = Date.now();
      const call = exec.execPlugin(${JSON.stringify(join(dir, "plugin"))}, new Uint8Array(), ["PATH=${process.env.PATH}"]);
      await new Promise((r) => setTimeout(r, 300));
      const pid = Number(readFileSync(${JSON.stringify(join(dir, "pid"))}, "utf8"));
      writeFileSync("/proc/sys/kernel/ns_last_pid", String(pid - 1));
      const other = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
      let killed = false;
      other.once("exit", (_, signal) => { killed = signal !== null; });
      await call;
      const took = Date.now() - t0;
      await new Promise((r) => setTimeout(r, 300));
      console.log(JSON.stringify({ reused: other.pid === pid, killed, took }));
      process.exit(0);
    `;
    const { stdout } = await run(
      "unshare",
      ["-p", "-f", "--mount-proc", process.execPath, "--input-type=module", "-e", script],
      { timeout: 20_000 },
    );
    const { took, ...outcome } = JSON.parse(stdout);
    expect(outcome).toEqual({ reused: true, killed: false });
    // The grace (1 s) and the pipes' close: not 2 s more of polling the group that process
    // leads now, as the run's (its group was empty, or the pid could not have been reused).
    expect(took).toBeLessThan(2600);
  });
});
