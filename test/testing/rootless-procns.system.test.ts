/**
 * runRootless' abort where /proc is not of this process's pid namespace (`unshare -p` without
 * `--mount-proc`: the host's /proc): it signals no pid read from there, which would name another
 * process here. Staged so that the pids line up: a host process A whose pid is the inner
 * sandbox's pid (set through the inner namespace's ns_last_pid) with a grandchild C, and a
 * victim in the inner namespace with C's pid. Read through the host's /proc, C is the command
 * of the sandbox; signalled by that pid, the victim would die. The grace's SIGKILL of the
 * sandbox still ends the run. On the built package (a child Node), as root.
 */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const execFileP = promisify(execFile);

// The child Node, pid 1 of a new pid namespace that still sees the host's /proc.
const inner = `import { existsSync, writeFileSync } from "node:fs";
import { readFile, readlink } from "node:fs/promises";
import { spawn } from "node:child_process";
import { setTimeout as delay } from "node:timers/promises";
const [dist, a, c, marker] = process.argv.slice(2);
const { runRootless } = await import(dist + "/testing/index.js");
const ours = (await readlink("/proc/self")) === String(process.pid);
await readFile("/proc/self/stat"); // the thread pool is up: no thread takes a pid below
const nextPid = (pid) => writeFileSync("/proc/sys/kernel/ns_last_pid", String(pid - 1));
nextPid(Number(c));
const victim = spawn("sleep", ["300"], { stdio: "ignore" });
let victimEnd = null;
victim.on("exit", (code, signal) => { victimEnd = signal ?? "exit " + code; });
nextPid(Number(a));
const controller = new AbortController();
const run = runRootless(["sh", "-c", 'touch "$0" && exec sleep 300', marker], {
  stdio: "pipe", signal: controller.signal, graceMs: 1000,
});
let sandboxAtA = true;
try { process.kill(Number(a), 0); } catch { sandboxAtA = false; }
for (let i = 0; i < 300 && !existsSync(marker); i++) await delay(100);
const started = existsSync(marker);
controller.abort();
const result = await run;
await delay(300);
console.log(JSON.stringify({ ours, victimPid: victim.pid, sandboxAtA, started, victimEnd, result }));
victim.kill("SIGKILL");
process.exit(0);
`;

describe("runRootless' abort where /proc is another pid namespace's", () => {
  it("signals no pid read from /proc; the grace's SIGKILL ends the sandbox", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lcnitest-procns-"));
    // A (the host pid the inner sandbox will have) -> B (sh) -> C (sleep), C's pid printed.
    const a = spawn("sh", ["-c", 'sh -c "$1" & wait', "sh", "sleep 300 & echo $!; wait"], {
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    try {
      const lines = createInterface({ input: a.stdout! })[Symbol.asyncIterator]();
      const c = Number((await lines.next()).value);
      expect(c).toBeGreaterThan(1);
      const script = join(dir, "inner.mjs");
      await writeFile(script, inner);
      const dist = join(process.cwd(), "dist");
      const marker = join(dir, "started");
      const { stdout } = await execFileP(
        "unshare",
        ["--pid", "--fork", process.execPath, script, dist, String(a.pid), String(c), marker],
        { timeout: 60_000 },
      );
      const seen = JSON.parse(stdout);
      // The stage is as meant: /proc is not ours, the pids line up, the command ran.
      expect(seen.ours).toBe(false);
      expect(seen.victimPid).toBe(c);
      expect(seen.sandboxAtA).toBe(true);
      expect(seen.started).toBe(true);
      // The victim lived through the abort; the sandbox was killed after its grace.
      expect(seen.victimEnd).toBeNull();
      expect(seen.result).toMatchObject({ aborted: true, signal: "SIGKILL" });
    } finally {
      process.kill(-a.pid!, "SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
