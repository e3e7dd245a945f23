/**
 * The spawner helper's own failure modes, with the built binary (`npm run build:native`):
 * killed mid-run, 1,000 runs without an fd or zombie left, an abort in flight, a burst over
 * the in-flight bound, never keeping the process alive, dying with its parent, and the arm64
 * binary under qemu-user. Missing binary or qemu: these fail, they never skip.
 */
import { execFile, spawn } from "node:child_process";
import { access, constants, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SpawnerLauncher } from "../../../src/engines/spawner/pool.js";
import { encodeRun, type Frame, FrameReader, Rep } from "../../../src/engines/spawner/protocol.js";
import { spawnerBinaryPath } from "../../../src/engines/start/select.js";
import type { SpawnerExitedError } from "../../../src/errors/index.js";
import { PluginExecError } from "../../../src/errors/index.js";
import { RawExec } from "../../../src/invoke/raw-exec.js";
import {
  envWith,
  fixture,
  killQuietly,
  makeTempDir,
  processGone,
  readPids,
  rejection,
  removeTempDir,
  sleep,
} from "../../invoke/helpers.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0"}');
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

let dir: string;
const launchers: SpawnerLauncher[] = [];
const leftovers: number[] = [];

function launcher(options: Partial<ConstructorParameters<typeof SpawnerLauncher>[0]> = {}) {
  const made = new SpawnerLauncher({ binaryPath: spawnerBinaryPath(), ...options });
  launchers.push(made);
  return made;
}

/** Waits until `check` holds, polling; throws with `what` after 10 s. */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await sleep(20);
  }
  throw new Error(`still not true after 10 s: ${what}`);
}

const fdCount = async (pid: number | "self"): Promise<number> =>
  (await readdir(`/proc/${pid}/fd`)).length;

/** The pids whose parent is `ppid`, with their state (Z for a zombie). */
async function childrenOf(ppid: number): Promise<{ pid: number; state: string }[]> {
  const out: { pid: number; state: string }[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === ppid) out.push({ pid: Number(name), state: fields[0] });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

beforeAll(async () => {
  // Loud, not skipped: the system tier is where the built helper is tested.
  await access(spawnerBinaryPath(), constants.X_OK);
  dir = await makeTempDir("libcni-spawner-sys-");
});
afterEach(() => {
  for (const made of launchers.splice(0)) made.stop();
  killQuietly(leftovers.splice(0));
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe("spawner helper", () => {
  it("killed mid-run: the run fails with SpawnerExitedError, its plugin is stopped, the next run restarts it", async () => {
    const spawner = launcher();
    const exec = new RawExec({ stderr: null, launcher: spawner });
    const pidfile = join(dir, "killed.pid");
    const call = exec.execPlugin(fixture("sleep"), stdin, envWith({ FIXTURE_PIDFILE: pidfile }));
    const [pluginPid] = await readPids(pidfile, 1);
    leftovers.push(pluginPid);
    const [helper] = spawner.helpers;
    const helperPid = helper.pid as number;
    helper.kill();

    const error = await rejection(call);
    expect(error).toBeInstanceOf(PluginExecError);
    const cause = (error as PluginExecError).cause as SpawnerExitedError;
    expect(cause.id).toBe("LIBCNI_ERR_SPAWNER_EXITED");
    expect(cause.message).toContain("exited (SIGKILL)");
    expect(cause.pluginStarted).toBe(true);
    expect(error.message).toContain(cause.message);
    await until("the orphaned plugin is gone", () => processGone(pluginPid));
    // The helper itself was reaped (Node's child): no zombie of it left under this process.
    await until("the helper is reaped", async () =>
      (await childrenOf(process.pid)).every((c) => c.pid !== helperPid),
    );

    const out = await exec.execPlugin("/bin/cat", stdin, []);
    expect(text(out)).toBe(text(stdin));
    expect(spawner.helpers).toHaveLength(1);
    expect(spawner.helpers[0].pid).not.toBe(helperPid);
  });

  it("killed after its plugin was reaped: the plugin's pid, now another process's, is left alone", async () => {
    // The plugin exits, but a grandchild in a session of its own holds its pipes, so the run is
    // still open when the helper dies; meanwhile the pid went to an unrelated session leader.
    const spawner = launcher();
    const exec = new RawExec({ stderr: null, launcher: spawner });
    const leaver = join(dir, "leaver");
    await writeFile(leaver, `#!/bin/sh\nsetsid sleep 30 &\necho $$ $! > "$FIXTURE_PIDFILE"\n`, {
      mode: 0o755,
    });
    const pidfile = join(dir, "leaver.pid");
    const call = exec.execPlugin(leaver, stdin, envWith({ FIXTURE_PIDFILE: pidfile }));
    const [plugin, grandchild] = await readPids(pidfile, 2);
    leftovers.push(grandchild);
    await until("the plugin is reaped", () => processGone(plugin));
    let other: ReturnType<typeof spawn> | undefined;
    for (let i = 0; i < 200 && other?.pid !== plugin; i++) {
      if (other !== undefined) killQuietly([other.pid as number]);
      await writeFile("/proc/sys/kernel/ns_last_pid", String(plugin - 1));
      other = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
    }
    leftovers.push(other?.pid as number);
    expect(other?.pid).toBe(plugin);
    spawner.helpers[0].kill();
    expect(await rejection(call)).toBeInstanceOf(PluginExecError);
    await sleep(100);
    expect(await processGone(plugin)).toBe(false);
  });

  it("killed while idle: runs sent before its exit is seen start on a new helper, none fails", async () => {
    const spawner = launcher({ maxInstances: 1 });
    const exec = new RawExec({ stderr: null, launcher: spawner });
    await exec.execPlugin("/bin/cat", stdin, []);
    const [helper] = spawner.helpers;
    const helperPid = helper.pid as number;
    // Killed behind the library's back: its exit comes on a later turn than these runs.
    process.kill(helperPid, "SIGKILL");
    const outs = await Promise.all(
      Array.from({ length: 20 }, () => exec.execPlugin("/bin/cat", stdin, [])),
    );
    expect(outs.map(text)).toEqual(Array.from({ length: 20 }, () => text(stdin)));
    expect(spawner.helpers.map((h) => h.pid)).not.toContain(helperPid);
  });

  it("1,000 runs leave no fd (here or in the helper) and no zombie behind", async () => {
    const spawner = launcher({ maxInstances: 1 });
    const exec = new RawExec({ stderr: null, launcher: spawner });
    await exec.execPlugin("/bin/cat", stdin, []);
    const helperPid = spawner.helpers[0].pid as number;
    const ownFds = await fdCount("self");
    const helperFds = await fdCount(helperPid);
    expect(helperFds).toBe(5); // control in, control out, stderr, the file channel, signalfd

    let ok = 0;
    for (let batch = 0; batch < 20; batch++) {
      const runs = Array.from({ length: 50 }, (_, i) =>
        exec.execPlugin(i % 2 === 0 ? "/bin/cat" : "/bin/true", stdin, [`N=${i}`]),
      );
      for (const out of await Promise.all(runs))
        if (out.length === 0 || text(out) === text(stdin)) ok++;
    }
    expect(ok).toBe(1000);
    expect(spawner.helpers.map((h) => h.pid)).toEqual([helperPid]);
    expect(await fdCount(helperPid)).toBe(helperFds);
    expect(await fdCount("self")).toBeLessThanOrEqual(ownFds);
    expect(await childrenOf(helperPid)).toEqual([]);
  });

  it("an abort in flight stops the plugin's process group through the helper", async () => {
    const spawner = launcher();
    const exec = new RawExec({ stderr: null, graceMs: 10_000, launcher: spawner });
    const pidfile = join(dir, "abort.pid");
    const controller = new AbortController();
    const call = exec.execPlugin(fixture("sleep"), stdin, envWith({ FIXTURE_PIDFILE: pidfile }), {
      signal: controller.signal,
    });
    const [pluginPid] = await readPids(pidfile, 1);
    leftovers.push(pluginPid);
    controller.abort();
    const error = (await rejection(call)) as PluginExecError;
    expect(error).toBeInstanceOf(PluginExecError);
    expect(error.aborted).toBe(true);
    expect(error.signal).toBe("SIGTERM");
    expect(await processGone(pluginPid)).toBe(true);
    const helperPid = spawner.helpers[0].pid as number;
    expect(await childrenOf(helperPid)).toEqual([]);
    expect(await fdCount(helperPid)).toBe(5); // as above: 0-2, the file channel, signalfd
  });

  it("a stdin over 256 MiB (the most one frame may carry) reaches the plugin whole, beside another run", async () => {
    const exec = new RawExec({ stderr: null, launcher: launcher({ maxInstances: 1 }) });
    const count = join(dir, "count");
    await writeFile(count, "#!/bin/sh\nwc -c\n", { mode: 0o755 });
    const pidfile = join(dir, "beside.pid");
    const env = envWith({ FIXTURE_PIDFILE: pidfile, SLEEP_SECONDS: "8" });
    const beside = exec.execPlugin(fixture("sleep"), stdin, env);
    leftovers.push(...(await readPids(pidfile, 1)));
    const big = new Uint8Array(257 * 2 ** 20).fill(0x20);
    expect(text(await exec.execPlugin(count, big, envWith({}))).trim()).toBe(String(big.length));
    await beside;
  });

  it("a burst of 100 runs: each its own output, two helpers (both this process's children), never more in flight than the bound", async () => {
    const spawner = launcher({ maxInFlight: 8, burstInFlight: 2 });
    const exec = new RawExec({ stderr: null, launcher: spawner });
    let most = 0;
    let sampling = true;
    const sample = (): void => {
      most = Math.max(
        most,
        spawner.helpers.reduce((n, h) => n + h.inFlight, 0),
      );
      if (sampling) setImmediate(sample);
    };
    sample();
    const outs = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        exec.execPlugin("/bin/cat", new TextEncoder().encode(`run ${i}`), []),
      ),
    );
    sampling = false;
    expect(outs.map(text)).toEqual(Array.from({ length: 100 }, (_, i) => `run ${i}`));
    expect(spawner.helpers.length).toBe(2);
    const children = (await childrenOf(process.pid)).map((c) => c.pid);
    for (const helper of spawner.helpers) expect(children).toContain(helper.pid);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(8);
  });
});

describe("a run waiting for a free slot", () => {
  it("is rejected as soon as its signal aborts, and its plugin never starts", async () => {
    // Every slot taken by a plugin that holds it until told; the next run waits its turn.
    const spawner = launcher({ maxInFlight: 1 });
    const exec = new RawExec({ stderr: null, launcher: spawner });
    const log = join(dir, "started.log");
    const plugin = join(dir, "logs-its-start");
    await writeFile(plugin, `#!/bin/sh\nread l\necho "$l" >> ${log}\nexec sleep 30\n`, {
      mode: 0o755,
    });
    const held = new AbortController();
    const holder = exec
      .execPlugin(plugin, new TextEncoder().encode("holder\n"), [], { signal: held.signal })
      .catch((e: unknown) => e);
    const started = Date.now();
    const waiting = exec.execPlugin(plugin, new TextEncoder().encode("waiting\n"), [], {
      signal: AbortSignal.timeout(200),
    });
    const error = (await waiting.catch((e: unknown) => e)) as PluginExecError;
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error.aborted).toBe(true);
    held.abort();
    await holder;
    expect((await readFile(log, "utf8")).split("\n").filter(Boolean)).toEqual(["holder"]);
  });
});

describe("a slot freed", () => {
  it("goes to the run that waited for it, before a run started later", async () => {
    // A run started in the freeing run's close listener came in between: two in flight with a
    // bound of one, and it started before the run that had waited.
    const spawner = launcher({ maxInFlight: 1 });
    const started: string[] = [];
    let active = 0;
    let most = 0;
    const start = async (name: string) => {
      const child = await spawner.launch(
        "/bin/sh",
        { PATH: "/usr/bin:/bin" },
        {
          args: ["-c", "cat >/dev/null"],
          stdin: new Uint8Array(),
          maxOutputBytes: 1 << 20,
        },
      );
      started.push(name);
      most = Math.max(most, ++active);
      return new Promise<void>((resolve) => child.once("close", () => resolve(void active--)));
    };
    const first = spawner.launch(
      "/bin/sh",
      { PATH: "/usr/bin:/bin" },
      {
        args: ["-c", "sleep 0.2"],
        stdin: new Uint8Array(),
        maxOutputBytes: 1 << 20,
      },
    );
    const waited = start("waited");
    let later: Promise<void> | undefined;
    (await first).once("close", () => {
      later = start("later");
    });
    await waited;
    await until("the later run was started", () => later !== undefined);
    await later;
    expect(started).toEqual(["waited", "later"]);
    expect(most).toBe(1);
  });
});

describe("the helper's replies", () => {
  it("holds the EOFs of pipes closed before the exit and sends them with the EXIT, in one write", async () => {
    // The plugin writes, closes its stdout and stderr, then runs on for a while: the EOFs are
    // seen long before the exit, yet reach the library with it (one wakeup, not two).
    const plugin = join(dir, "closes-early");
    await writeFile(plugin, "#!/bin/sh\ncat >/dev/null\nprintf out\nexec >&- 2>&-\nsleep 0.3\n", {
      mode: 0o755,
    });
    const helper = spawn(spawnerBinaryPath(), [String(process.pid)], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    leftovers.push(helper.pid as number);
    const reads: Frame[][] = [];
    const reader = new FrameReader();
    helper.stdout.on("data", (chunk: Buffer) => {
      const read: Frame[] = [];
      reader.push(chunk, (f) => read.push({ ...f, payload: Buffer.from(f.payload) }));
      reads.push(read);
    });
    helper.stdin.write(encodeRun(1, plugin, ["PATH=/usr/bin:/bin"], { outputCap: 1 << 20, stdin }));
    await until("the plugin exited", () => reads.flat().some((f) => f.type === Rep.exit));
    helper.stdin.end();
    const types = reads.map((read) => read.map((f) => f.type));
    expect(types.flat()).toEqual([Rep.hello, Rep.started, Rep.stdout, Rep.eof, Rep.eof, Rep.exit]);
    // STDOUT, both EOFs and the EXIT came in one read.
    expect(types.at(-1)).toEqual([Rep.stdout, Rep.eof, Rep.eof, Rep.exit]);
    const payloads = reads.at(-1)?.map((f) => text(f.payload));
    expect(payloads?.[0]).toBe("out");
  });
});

describe("the helper's STARTED", () => {
  it("goes out as soon as its plugin is spawned, before the next run of the same read (strace)", async () => {
    // A helper killed between a spawn and its STARTED leaves a plugin the library never knew
    // of: so the write comes right after each spawn, not once for a burst's starts.
    const log = join(dir, "strace.log");
    const traced = spawn(
      "strace",
      ["-f", "-qq", "-e", "trace=clone,clone3,vfork,writev", "-o", log, spawnerBinaryPath()],
      { stdio: ["pipe", "pipe", "ignore"] },
    );
    let started = 0;
    const reader = new FrameReader();
    traced.stdout.on("data", (chunk: Buffer) =>
      reader.push(chunk, (f) => {
        if (f.type === Rep.started) started++;
      }),
    );
    const env = ["PATH=/usr/bin:/bin"];
    const runs = [1, 2, 3].map((id) => encodeRun(id, "/bin/true", env, { outputCap: 1, stdin }));
    traced.stdin.write(Buffer.concat(runs));
    await until("three runs started", () => started === 3);
    traced.stdin.end();
    await new Promise((resolve) => traced.once("close", resolve));
    const lines = (await readFile(log, "utf8")).split("\n");
    const helperPid = lines[0]?.split(" ")[0];
    // The helper's own spawns and its writes to the library (fd 1), in order.
    const events = lines
      .filter((l) => l.startsWith(`${helperPid} `) && !l.includes("CLONE_THREAD"))
      .map((l) => (/ (clone3?|vfork)\(/.test(l) ? "spawn" : / writev\(1,/.test(l) ? "write" : ""))
      .filter((e) => e !== "");
    expect(events.slice(events.indexOf("spawn"), events.indexOf("spawn") + 6)).toEqual([
      "spawn",
      "write",
      "spawn",
      "write",
      "spawn",
      "write",
    ]);
  });
});

describe("spawner helper lifetime (the built package, npm run build)", () => {
  const distPool = join(root, "build/engines/spawner/pool.js");
  const distInvoke = join(root, "dist/invoke/index.js");

  it("never keeps the process alive: a script that ran a plugin through it exits by itself", async () => {
    // Through the shipped bundle, with no LIBCNI_SPAWNER_BINARY: the bundle finds the helper
    // in dist/native/ from its chunk (scripts/build.mjs rewrites the path written for src/).
    const script = join(dir, "unref.mjs");
    await writeFile(
      script,
      `import { RawExec } from ${JSON.stringify(distInvoke)};
const out = await new RawExec({ launcher: "spawner" }).execPlugin("/bin/cat", new TextEncoder().encode("ran"), []);
console.log(new TextDecoder().decode(out));
`,
    );
    const env = { ...process.env };
    delete env.LIBCNI_SPAWNER_BINARY;
    const { stdout } = await run(process.execPath, [script], { timeout: 30_000, env });
    expect(stdout.trim()).toBe("ran");
  });

  it("dies with its parent (PR_SET_PDEATHSIG and EOF on its control pipe)", async () => {
    const script = join(dir, "parent.mjs");
    await writeFile(
      script,
      `import { SpawnerLauncher } from ${JSON.stringify(distPool)};
const launcher = new SpawnerLauncher({ binaryPath: ${JSON.stringify(spawnerBinaryPath())} });
await launcher.probe();
console.log(launcher.helpers[0].pid);
setInterval(() => {}, 1000);
`,
    );
    const parent = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    const helperPid = await new Promise<number>((resolve, reject) => {
      parent.stdout.once("data", (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
      parent.once("exit", () => reject(new Error("the parent exited early")));
    });
    leftovers.push(helperPid);
    expect(await processGone(helperPid)).toBe(false);
    parent.kill("SIGKILL");
    await until("the helper died with its parent", () => processGone(helperPid));
  });

  it("its plugins die with it: the parent killed, or its control pipe closed, mid-run", async () => {
    const script = join(dir, "owner.mjs");
    // The plugin, `sh`, and a child of its group write their pids (the helper holds a running
    // plugin's output), then wait.
    await writeFile(
      script,
      `import { SpawnerLauncher } from ${JSON.stringify(distPool)};
const [how, pidFile] = process.argv.slice(2);
const launcher = new SpawnerLauncher({ binaryPath: ${JSON.stringify(spawnerBinaryPath())} });
const child = await launcher.launch("/bin/sh", { PATH: "/usr/bin:/bin" }, {
  args: ["-c", 'sleep 60 & echo $$ $! > "$0.tmp"; mv "$0.tmp" "$0"; wait', pidFile],
  stdin: new Uint8Array(),
  maxOutputBytes: 1 << 20,
});
child.on("error", () => {});
if (how === "stop") setTimeout(() => launcher.stop(), 300);
setInterval(() => {}, 1000);
`,
    );
    for (const how of ["parent killed", "stop"]) {
      const pidFile = join(dir, `pids-${how.replace(" ", "-")}`);
      const parent = spawn(process.execPath, [script, how, pidFile], { stdio: "inherit" });
      let pids: number[] = [];
      await until(`${how}: the plugin runs`, async () => {
        pids = (await readFile(pidFile, "utf8").catch(() => "")).trim().split(" ").map(Number);
        return pids.length === 2 && pids.every((pid) => pid > 0);
      });
      leftovers.push(...pids);
      if (how === "parent killed") parent.kill("SIGKILL");
      for (const pid of pids) await until(`${how}: ${pid} ended`, () => processGone(pid));
      parent.kill("SIGKILL");
    }
  });
});

describe("linux-arm64 binary under qemu-user", () => {
  it("answers the handshake and runs plugins with their stdin, env and exit status", async () => {
    const qemu = "/usr/bin/qemu-aarch64-static"; // Debian: qemu-user-static
    await access(qemu, constants.X_OK);
    const binary = spawnerBinaryPath("linux", "arm64");
    await access(binary, constants.R_OK);
    const wrapper = join(dir, "arm64-spawner");
    await writeFile(wrapper, `#!/bin/sh\nexec ${qemu} ${binary} "$@"\n`, { mode: 0o755 });
    const spawner = launcher({ binaryPath: wrapper });
    const exec = new RawExec({ stderr: null, launcher: spawner });
    expect(text(await exec.execPlugin("/bin/cat", stdin, []))).toBe(text(stdin));
    const env = text(await exec.execPlugin("/usr/bin/env", stdin, ["CNI_COMMAND=ADD", "X=1"]));
    expect(env.split("\n").filter(Boolean).sort()).toEqual(["CNI_COMMAND=ADD", "X=1"]);
    const error = (await rejection(exec.execPlugin("/bin/false", stdin, []))) as PluginExecError;
    expect(error.exitCode).toBe(1);
    // qemu-user turns glibc's clone(CLONE_VM|CLONE_VFORK) into a fork, so the exec error the
    // child writes into shared memory never reaches the helper: it sees exit status 127
    // instead. On arm64 hardware the start error is ENOENT, as on x64.
    const missing = (await rejection(
      exec.execPlugin(join(dir, "nope"), stdin, []),
    )) as PluginExecError;
    expect(missing).toBeInstanceOf(PluginExecError);
    expect(missing.message).toMatch(/no such file or directory|exit status 127/);
  });
});
