/**
 * The durable cache write in one request: the steps' order over an injected fs seam (no
 * strace), and the cache-write thread itself (the built worker from dist/): records written
 * atomically with mode 0600, the same errors as the main-thread writer, the fallback when the
 * thread cannot start, and writes in flight failing with a typed error when it ends.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../../src/engines/files/atomic-write.js";
import {
  isTempName,
  runWriteSteps,
  TempNames,
  type WriteSteps,
} from "../../../src/engines/files/atomic-write-steps.js";
import { CacheWriteThread, defaultWorkerUrl } from "../../../src/engines/files/write-thread.js";
import { CacheWriteThreadExitedError, type LibcniError } from "../../../src/errors/index.js";

const bytes = (s: string) => new TextEncoder().encode(s);
// The built worker: this suite runs the sources, which have none beside write-thread.ts.
const builtWorker = new URL("../../../dist/engines/files/write-worker.js", import.meta.url);

/**
 * A seam that logs every call; `fail` names a step that throws EIO. `async`: every step
 * answers with a promise (as the main thread's callback fs calls), else the cheap ones are
 * synchronous (as the cache-write thread's).
 */
function recorder(fail?: string, async = false) {
  const log: string[] = [];
  let releaseDir: (() => void) | undefined;
  const step = (name: string, detail = "") => {
    log.push(detail === "" ? name : `${name} ${detail}`);
    if (name === fail) throw Object.assign(new Error(`EIO: ${name}`), { code: "EIO" });
  };
  const maybeAsync = <T>(run: () => T): T | Promise<T> =>
    async ? new Promise<void>((resolve) => setImmediate(resolve)).then(run) : run();
  const fs: WriteSteps = {
    open: (path, mode) =>
      maybeAsync(() => {
        step("open", `${path} ${mode.toString(8)}`);
        return 7;
      }),
    write: (fd, data) => maybeAsync(() => step("write", `${fd} ${data.length}`)),
    fdatasync: async (fd) => step("fdatasync", String(fd)),
    close: (fd) => maybeAsync(() => step("close", String(fd))),
    rename: (from, to) => maybeAsync(() => step("rename", `${from} ${to}`)),
    unlink: (path) => maybeAsync(() => step("unlink", path)),
    syncDir: (dir) => {
      step("syncDir", dir);
      return new Promise<void>((resolve) => {
        releaseDir = resolve;
      });
    },
  };
  return { fs, log, releaseDir: () => releaseDir?.() };
}

describe("runWriteSteps", () => {
  const req = { path: "/c/results/n-c-eth0", data: bytes("abc"), mode: 0o600, durable: true };
  const temp = "/c/results/.libcni-x0.tmp";

  it("writes, flushes, closes, renames, then flushes the directory, in that order", async () => {
    const r = recorder();
    let done = false;
    const write = runWriteSteps(req, temp, r.fs).then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(r.log).toEqual([
      `open ${temp} 600`,
      "write 7 3",
      "fdatasync 7",
      "close 7",
      `rename ${temp} /c/results/n-c-eth0`,
      "syncDir /c/results",
    ]);
    // Not done before the directory's fsync is: the rename must be on disk first.
    expect(done).toBe(false);
    r.releaseDir();
    await write;
    expect(done).toBe(true);
  });

  it("runs the same order over asynchronous calls (the main thread's)", async () => {
    const r = recorder(undefined, true);
    const write = runWriteSteps(req, temp, r.fs);
    while (!r.log.some((l) => l.startsWith("syncDir"))) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(r.log).toEqual([
      `open ${temp} 600`,
      "write 7 3",
      "fdatasync 7",
      "close 7",
      `rename ${temp} /c/results/n-c-eth0`,
      "syncDir /c/results",
    ]);
    r.releaseDir();
    await write;
  });

  it("skips both flushes when not durable", async () => {
    const r = recorder();
    await runWriteSteps({ ...req, durable: false }, temp, r.fs);
    expect(r.log).toEqual([
      `open ${temp} 600`,
      "write 7 3",
      "close 7",
      `rename ${temp} ${req.path}`,
    ]);
  });

  for (const [fail, async] of ["write", "fdatasync", "close", "rename"].flatMap((f) => [
    [f, false] as const,
    [f, true] as const,
  ])) {
    it(`removes the temporary file and renames nothing when ${fail} fails (${async ? "async" : "sync"} calls)`, async () => {
      const r = recorder(fail, async);
      await expect(runWriteSteps(req, temp, r.fs)).rejects.toThrow(`EIO: ${fail}`);
      expect(r.log.at(-1)).toBe(`unlink ${temp}`);
      expect(r.log).toContain("close 7");
      expect(r.log.filter((l) => l.startsWith("rename")).length).toBe(fail === "rename" ? 1 : 0);
      expect(r.log.some((l) => l.startsWith("syncDir"))).toBe(false);
    });
  }

  it("removes nothing when the temporary file could not be created", async () => {
    for (const async of [false, true]) {
      const r = recorder("open", async);
      await expect(runWriteSteps(req, temp, r.fs)).rejects.toThrow("EIO: open");
      expect(r.log).toEqual([`open ${temp} 600`]);
    }
  });

  it("reports the step's error, not the unlink's, when the cleanup fails too", async () => {
    const r = recorder("rename");
    r.fs.unlink = async () => {
      throw new Error("EIO: unlink");
    };
    await expect(runWriteSteps(req, temp, r.fs)).rejects.toThrow("EIO: rename");
  });

  it("names temporary files uniquely without a random draw per write", () => {
    const names = new TempNames("ab12-");
    const a = names.for("/d/rec");
    const b = names.for("/d/rec");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^\/d\/\.libcni-ab12-[0-9a-f]+\.tmp$/);
    // The GC sweep knows them for temporary files.
    expect(isTempName(basename(a))).toBe(true);
  });
});

describe("CacheWriteThread", () => {
  let dir: string;
  let thread: CacheWriteThread;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "libcni-cwt-"));
    thread = new CacheWriteThread(builtWorker);
  });
  afterEach(async () => {
    await thread.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("replaces a record atomically with mode 0600 and leaves no temporary file", async () => {
    const path = join(dir, "n-c-eth0");
    await thread.write(path, bytes("one"), 0o600, true);
    await thread.write(path, bytes("two"), 0o600, true);
    expect(thread.fallback).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("two");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["n-c-eth0"]);
  });

  it("writes 50 records at once, each whole", async () => {
    const names = Array.from({ length: 50 }, (_, i) => `n-c-eth${i}`);
    await Promise.all(
      names.map((n) => thread.write(join(dir, n), bytes(n.repeat(100)), 0o600, true)),
    );
    expect(readdirSync(dir).sort()).toEqual([...names].sort());
    for (const n of names) expect(readFileSync(join(dir, n), "utf8")).toBe(n.repeat(100));
  });

  it("writes alone (flushed on the thread) and together (thread pool) in any mix, each whole", async () => {
    const burst = (round: number) =>
      Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          thread.write(join(dir, `n-c-eth${i}`), bytes(`burst${round}-${i}`), 0o600, true),
        ),
      );
    await burst(1);
    for (let i = 0; i < 5; i++)
      await thread.write(join(dir, "n-c-eth0"), bytes(`alone${i}`), 0o600, true);
    expect(readFileSync(join(dir, "n-c-eth0"), "utf8")).toBe("alone4");
    // A write alone, then a burst started while it is in flight.
    const alone = thread.write(join(dir, "n-c-eth0"), bytes("alone-last"), 0o600, true);
    await Promise.all([alone, burst(2)]);
    for (let i = 1; i < 20; i++)
      expect(readFileSync(join(dir, `n-c-eth${i}`), "utf8")).toBe(`burst2-${i}`);
    expect(readdirSync(dir)).toHaveLength(20);
    // Failures on either path leave the next writes working.
    await expect(thread.write(join(dir, "gone", "x"), bytes("x"), 0o600, true)).rejects.toThrow(
      /ENOENT/,
    );
    await thread.write(join(dir, "n-c-eth1"), bytes("after"), 0o600, true);
    expect(readFileSync(join(dir, "n-c-eth1"), "utf8")).toBe("after");
  });

  it("fails as the main-thread writer does (code, errno, syscall, message)", async () => {
    const missing = join(dir, "gone", "n-c-eth0");
    const viaThread = (await thread
      .write(missing, bytes("x"), 0o600, true)
      .catch((e) => e)) as NodeJS.ErrnoException;
    const inline = (await writeFileAtomic(missing, bytes("x")).catch(
      (e) => e,
    )) as NodeJS.ErrnoException;
    expect(viaThread).toBeInstanceOf(Error);
    for (const key of ["code", "errno", "syscall"] as const)
      expect(viaThread[key]).toBe(inline[key]);
    const shape = (m: string) => m.replace(/\.libcni-[^/']+\.tmp/, ".libcni-X.tmp");
    expect(shape(viaThread.message)).toBe(shape(inline.message));
    expect(viaThread.code).toBe("ENOENT");
  });

  it("takes by default the worker built next to its own module, wherever the package is", () => {
    // From src/ here, so src/api/; from the package, dist/api/.
    expect(defaultWorkerUrl.href).toBe(
      new URL("../../../src/engines/files/write-worker.js", import.meta.url).href,
    );
  });

  it("writes on the main thread when the thread cannot start", async () => {
    const broken = new CacheWriteThread(new URL("../../api/no-such-worker.js", builtWorker));
    const path = join(dir, "n-c-eth0");
    await broken.write(path, bytes("fallback"), 0o600, true);
    expect(broken.fallback).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("fallback");
  });

  it("a thread that says it is ready but dies on its first write counts as one that could not start", async () => {
    const broken = new CacheWriteThread(
      new URL("../../api/fixtures/ready-then-broken-worker.mjs", import.meta.url),
    );
    const paths = [join(dir, "n-c-eth0"), join(dir, "n-c-eth1")];
    await Promise.all(paths.map((p, i) => broken.write(p, bytes(`w${i}`), 0o600, true)));
    expect(paths.map((p) => readFileSync(p, "utf8"))).toEqual(["w0", "w1"]);
    expect(broken.fallback).toBe(true);
    await broken.write(paths[0], bytes("later"), 0o600, true);
    expect(readFileSync(paths[0], "utf8")).toBe("later");
  });

  it("fails the writes in flight with a typed error when the thread ends, then starts anew", async () => {
    await thread.write(join(dir, "warm"), bytes("w"), 0o600, false);
    const inFlight = thread.write(join(dir, "n-c-eth0"), bytes("x"), 0o600, true);
    const settled = inFlight.catch((e: unknown) => e);
    await thread.close();
    const error = await settled;
    expect(error).toBeInstanceOf(CacheWriteThreadExitedError);
    expect((error as LibcniError).id).toBe("LIBCNI_ERR_CACHE_WRITE_THREAD_EXITED");
    await thread.write(join(dir, "n-c-eth1"), bytes("again"), 0o600, true);
    expect(readFileSync(join(dir, "n-c-eth1"), "utf8")).toBe("again");
    expect(thread.fallback).toBe(false);
  });
});
