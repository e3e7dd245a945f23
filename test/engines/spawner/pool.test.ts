/**
 * The pool's second helper for bursts, with a fake helper (a Node script speaking the
 * protocol's HELLO and STARTED; each run a detached `sleep` that never ends on its own), so it
 * needs no built binary: a burst past `burstInFlight` starts a second helper, runs go to the
 * least busy one, never more than `maxInstances`, and a lost helper is replaced.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SpawnerLauncher } from "../../../src/engines/spawner/pool.js";
import { protocolVersion } from "../../../src/engines/spawner/protocol.js";
import type { LaunchedChild } from "../../../src/engines/start/launcher.js";
import {
  killQuietly,
  makeTempDir,
  processGone,
  removeTempDir,
  sleep,
} from "../../invoke/helpers.js";

let dir: string;
let fake: string;
const launchers: SpawnerLauncher[] = [];
const plugins: number[] = [];

// HELLO, then STARTED for every RUN (its plugin a `sleep` leading its own group, as the real
// helper's are); exits at the end of its control pipe.
const fakeHelper = `#!${process.execPath}
const { spawn } = require("node:child_process");
const frame = (type, id, value) => {
  const b = Buffer.alloc(13);
  b.writeUInt32LE(9, 0); b[4] = type; b.writeUInt32LE(id, 5); b.writeUInt32LE(value, 9);
  process.stdout.write(b);
};
frame(0, ${protocolVersion}, process.pid);
let buf = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  while (buf.length >= 9 && buf.length >= 4 + buf.readUInt32LE(0)) {
    const type = buf[4], id = buf.readUInt32LE(5);
    buf = buf.subarray(4 + buf.readUInt32LE(0));
    if (type !== 1) continue;
    const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    child.unref();
    frame(1, id, child.pid);
  }
});
process.stdin.on("end", () => process.exit(0));
`;

function pool(
  options: { maxInstances?: number; burstInFlight?: number; binaryPath?: string } = {},
) {
  const made = new SpawnerLauncher({ binaryPath: fake, ...options });
  launchers.push(made);
  return made;
}

async function runs(launcher: SpawnerLauncher, n: number): Promise<LaunchedChild[]> {
  const started: LaunchedChild[] = [];
  for (let i = 0; i < n; i++) {
    const child = await launcher.launch("/bin/true", { PATH: "/usr/bin:/bin" });
    plugins.push(child.pid as number);
    // Its helper's end (stop(), a kill) is the run's error; RawExec handles it, not this test.
    child.on("error", () => {});
    started.push(child);
  }
  return started;
}

/** A start of `/bin/true` whose signal aborts at once: given up on, its reply still to come. */
function givenUpStart(launcher: SpawnerLauncher): Promise<LaunchedChild> {
  const abort = new AbortController();
  const run = { stdin: new Uint8Array(), maxOutputBytes: 1024, signal: abort.signal };
  const start = Promise.resolve(launcher.launch("/bin/true", { PATH: "/usr/bin:/bin" }, run));
  abort.abort();
  return start;
}

/** A pool whose one helper has answered a run and is then SIGSTOPped. */
async function stoppedHelper() {
  const launcher = pool();
  await runs(launcher, 1);
  const [helper] = launcher.helpers;
  const helperPid = helper.pid as number;
  process.kill(helperPid, "SIGSTOP");
  return { launcher, helper, helperPid };
}

/** Holds this process's event loop for `ms`, from the next turn (as a stop or a stall would). */
function holdLoop(ms: number): Promise<void> {
  return new Promise<void>((resolve) =>
    setImmediate(() => {
      const until = Date.now() + ms;
      while (Date.now() < until) {}
      resolve();
    }),
  );
}

beforeAll(async () => {
  dir = await makeTempDir("libcni-spawner-pool-");
  fake = join(dir, "fake-helper");
  await writeFile(fake, fakeHelper, { mode: 0o755 });
  // The same, but the second run it is sent is never answered.
  const mute = fakeHelper.replace(
    "if (type !== 1) continue;",
    "if (type !== 1 || id === 2) continue;",
  );
  await writeFile(join(dir, "fake-helper-mute-2"), mute, { mode: 0o755 });
});
afterEach(() => {
  for (const launcher of launchers.splice(0)) launcher.stop();
  killQuietly(plugins.splice(0).map((pid) => -pid));
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe("the pool's second helper", () => {
  it("is started once every helper has burstInFlight runs, by Node's spawn; runs go to the least busy", async () => {
    const launcher = pool({ burstInFlight: 2 });
    await runs(launcher, 2);
    expect(launcher.helpers).toHaveLength(1);
    await runs(launcher, 1);
    expect(launcher.helpers).toHaveLength(2);
    await runs(launcher, 3);
    // Never a third; the six runs spread over both.
    expect(launcher.helpers).toHaveLength(2);
    expect(launcher.helpers.map((h) => h.inFlight)).toEqual([3, 3]);
    const [first, second] = launcher.helpers.map((h) => h.pid as number);
    expect(first).not.toBe(second);
    expect(first).toBeGreaterThan(0);
  });

  it("maxInstances 1: one helper takes the whole burst", async () => {
    const launcher = pool({ burstInFlight: 1, maxInstances: 1 });
    await runs(launcher, 5);
    expect(launcher.helpers).toHaveLength(1);
    expect(launcher.helpers[0].inFlight).toBe(5);
  });

  it("a helper that dies is forgotten, its plugins stopped, and the next burst starts another", async () => {
    const launcher = pool({ burstInFlight: 1 });
    const started = await runs(launcher, 2);
    const [first, second] = launcher.helpers;
    second.kill();
    for (let i = 0; i < 250 && launcher.helpers.length > 1; i++) await sleep(20);
    expect(launcher.helpers).toEqual([first]);
    // The second run went to the second helper: its plugin was SIGKILLed with its group.
    for (let i = 0; i < 250 && !(await processGone(started[1].pid as number)); i++) await sleep(20);
    expect(await processGone(started[1].pid as number)).toBe(true);
    expect(await processGone(started[0].pid as number)).toBe(false);
    await runs(launcher, 1);
    expect(launcher.helpers).toHaveLength(2);
    expect(launcher.helpers[1]).not.toBe(second);
  });
});

describe("a helper's handshake", () => {
  it("is read, not given up, when this process was held past the wait as the HELLO came", async () => {
    const launcher = pool();
    const probe = launcher.probe();
    // The helper starts and says HELLO while the loop is held past the wait (5 s) and 1.5 s more.
    await holdLoop(6500);
    await probe;
    expect(launcher.helpers).toHaveLength(1);
    expect(launcher.helpers[0].alive).toBe(true);
    await runs(launcher, 1);
  }, 20_000);
});

describe("a helper that stops answering (SIGSTOP)", () => {
  it("is killed once a start it left unanswered was given up: the run settles unstarted, no other helper takes it", async () => {
    const { launcher, helper, helperPid } = await stoppedHelper();
    try {
      const abort = new AbortController();
      const run = { stdin: new Uint8Array(), maxOutputBytes: 1024, signal: abort.signal };
      const start = launcher.launch("/bin/true", { PATH: "/usr/bin:/bin" }, run);
      const outcome = Promise.resolve(start).then(
        () => "started",
        () => "rejected",
      );
      await sleep(100);
      abort.abort();
      const t0 = Date.now();
      // Within the helper's silence limit (5 s) and its exit, not when it is continued.
      expect(await outcome).toBe("rejected");
      expect(Date.now() - t0).toBeLessThan(9000);
      expect(await processGone(helperPid)).toBe(true);
      // The given-up run went to no new helper; a run started now does, and starts.
      expect(launcher.helpers).toEqual([]);
      await runs(launcher, 1);
      expect(launcher.helpers).toHaveLength(1);
    } finally {
      helper.kill(); // a no-op once it has exited (its pid may be another's by then)
    }
  }, 20_000);

  it("is not taken for silent when this process was too busy to read its reply", async () => {
    const launcher = pool();
    const [other] = await runs(launcher, 1);
    const [helper] = launcher.helpers;
    const otherFailed = new Promise((resolve) => other.on("error", resolve));
    const start = givenUpStart(launcher);
    // The STARTED waits in the pipe while the loop is held past the helper's wait (5 s).
    await holdLoop(5500);
    const child = await start;
    plugins.push(child.pid as number);
    child.on("error", () => {}); // the helper's end at afterEach
    await sleep(200);
    expect(helper.alive).toBe(true);
    expect(await Promise.race([otherFailed, sleep(100).then(() => "no error")])).toBe("no error");
  }, 20_000);

  it("is not killed when this process was stopped with it (Ctrl-Z on their group): the wait starts again", async () => {
    const { launcher, helper, helperPid } = await stoppedHelper();
    try {
      const start = givenUpStart(launcher);
      // This process held for the whole wait and 1.5 s more, as if stopped with the helper.
      await holdLoop(6500);
      await sleep(100); // the late wait's check has run
      expect(helper.alive).toBe(true);
      expect(await processGone(helperPid)).toBe(false);
      process.kill(helperPid, "SIGCONT"); // both continued: the helper answers
      const child = await start;
      plugins.push(child.pid as number);
      child.on("error", () => {}); // the helper's end at afterEach
      await sleep(200);
      expect(helper.alive).toBe(true);
    } finally {
      process.kill(helperPid, "SIGCONT");
    }
  }, 20_000);

  it("is killed all the same once late waits have gone on for 30 s (a loop held at every wait)", async () => {
    const { launcher, helper, helperPid } = await stoppedHelper();
    // Every reading of the clock 10 s on: each wait is seen late, and 30 s pass in one wait.
    let t = process.uptime();
    const uptime = vi.spyOn(process, "uptime").mockImplementation(() => {
      t += 10;
      return t;
    });
    try {
      await expect(givenUpStart(launcher)).rejects.toBeDefined();
      expect(await processGone(helperPid)).toBe(true);
    } finally {
      uptime.mockRestore();
      helper.kill();
    }
  }, 20_000);

  it("takes no start whose signal aborted before it was sent", async () => {
    const launcher = pool();
    await runs(launcher, 1);
    const [helper] = launcher.helpers;
    const run = { stdin: new Uint8Array(), maxOutputBytes: 1024, signal: AbortSignal.abort() };
    const start = Promise.resolve(launcher.launch("/bin/true", { PATH: "/usr/bin:/bin" }, run));
    await expect(start).rejects.toBeInstanceOf(DOMException);
    expect(helper.inFlight).toBe(1);
    expect(helper.alive).toBe(true);
  });

  it("is left while it answers other runs, and killed once silent for a whole wait", async () => {
    const launcher = pool({ binaryPath: join(dir, "fake-helper-mute-2") });
    await runs(launcher, 1);
    const [helper] = launcher.helpers;
    try {
      const abort = new AbortController();
      const run = { stdin: new Uint8Array(), maxOutputBytes: 1024, signal: abort.signal };
      let settled = false;
      const start = Promise.resolve(launcher.launch("/bin/true", { PATH: "/usr/bin:/bin" }, run));
      const outcome = start.then(
        () => "started",
        () => "rejected",
      );
      void outcome.then(() => {
        settled = true;
      });
      abort.abort();
      await sleep(2500);
      await runs(launcher, 1); // it speaks within the first wait (5 s)
      await sleep(3500);
      expect(settled).toBe(false);
      expect(await processGone(helper.pid as number)).toBe(false);
      expect(await outcome).toBe("rejected"); // after a second wait with nothing from it
      expect(helper.alive).toBe(false);
    } finally {
      helper.kill();
    }
  }, 30_000);
});
