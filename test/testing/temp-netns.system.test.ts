// tempNetns, runInNetns and ping against real namespaces (root, as CI runs the system tier):
// created, entered, removed, and removed too when the test body throws.
import { access, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execInNetns, isNetns } from "../../src/netns/index.js";
import { CommandFailedError, ping, type TempNetns, tempNetns } from "../../src/testing/index.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

let before: string[];
beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error("the system tier runs as root (network namespaces)");
  before = await readdir("/run/netns").catch(() => []);
});
afterAll(async () => {
  // Nothing of this file is left under /run/netns.
  const left = (await readdir("/run/netns").catch(() => [])).filter((n) => !before.includes(n));
  expect(left.filter((n) => n.startsWith(`lcnitest-${process.pid}-`))).toEqual([]);
});

async function links(ns: TempNetns): Promise<string[]> {
  const { stdout } = await ns.run(["ip", "-o", "link", "show"]);
  return stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split(": ")[1]?.split("@")[0] ?? "");
}

describe("tempNetns", () => {
  it("creates a uniquely named namespace under /run/netns, with only a lo that is down", async () => {
    await using a = await tempNetns();
    await using b = await tempNetns({ label: "second" });
    // Named for this process (its pid, start time and namespaces) and a counter: names.ts.
    const owner = `${process.pid}-[0-9a-z]+\\.[0-9a-z]{8}`;
    expect(a.name).toMatch(new RegExp(`^lcnitest-${owner}-\\d+$`));
    expect(b.name).toMatch(new RegExp(`^lcnitest-${owner}-\\d+-second$`));
    expect(a.path).toBe(`/run/netns/${a.name}`);
    expect(await isNetns(a.path)).toBe(true);
    expect(await links(a)).toEqual(["lo"]);
    const { stdout } = await a.run(["ip", "-o", "link", "show", "lo"]);
    expect(stdout).not.toMatch(/[<,]UP[,>]/);
  });

  it("brings lo up on request, and runs programs inside (a veth made there stays there)", async () => {
    await using ns = await tempNetns({ loopbackUp: true });
    const { stdout } = await ns.run(["ip", "-o", "link", "show", "lo"]);
    expect(stdout).toMatch(/[<,]UP[,>]/);
    await ns.run(["ip", "link", "add", "lcnit0", "type", "veth", "peer", "name", "lcnit1"]);
    expect((await links(ns)).sort()).toEqual(["lcnit0", "lcnit1", "lo"]);
    const mine = await ns.exec(["ip", "link", "show", "lcnit0"]);
    expect(mine.exitCode).toBe(0);
    // The test process's namespace has no such link.
    const outside = await execInNetns(`/proc/${process.pid}/ns/net`, [
      "ip",
      "link",
      "show",
      "lcnit0",
    ]);
    expect(outside.exitCode).not.toBe(0);
  });

  it("exec returns a failure as a result; run throws it with the output", async () => {
    await using ns = await tempNetns();
    const result = await ns.exec(["sh", "-c", "echo out; echo err >&2; exit 3"]);
    expect(result).toMatchObject({
      exitCode: 3,
      stdout: "out\n",
      stderr: "err\n",
      timedOut: false,
    });
    const error = await ns.run(["sh", "-c", "echo out; echo err >&2; exit 3"]).catch((e) => e);
    expect(error).toBeInstanceOf(CommandFailedError);
    expect(error.id).toBe("LIBCNI_ERR_COMMAND_FAILED");
    expect(error.netns).toBe(ns.path);
    expect(error.message).toBe(
      `sh -c echo out; echo err >&2; exit 3 (in ${ns.path}): exit status 3\nstdout: out\nstderr: err`,
    );
    const slow = await ns.run(["sleep", "30"], { timeoutMs: 200 }).catch((e) => e);
    expect(slow).toBeInstanceOf(CommandFailedError);
    expect(slow.message).toContain("timed out");
    // The caller's own abort is said as an abort.
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("enough")), 200);
    const stopped = await ns.run(["sleep", "30"], { signal: controller.signal }).catch((e) => e);
    expect(stopped).toBeInstanceOf(CommandFailedError);
    expect(stopped.message).toContain("(in ");
    expect(stopped.message).toContain("): aborted (SIGTERM)\n");
  });

  it("is removed when the test body throws (await using), its interfaces with it", async () => {
    let path = "";
    const thrown = await (async () => {
      await using ns = await tempNetns({ loopbackUp: true });
      path = ns.path;
      await ns.run(["ip", "link", "add", "lcnit0", "type", "veth", "peer", "name", "lcnit1"]);
      expect(await isNetns(path)).toBe(true);
      throw new Error("the test failed");
    })().catch((e: Error) => e);
    expect(thrown?.message).toBe("the test failed");
    expect(path).not.toBe("");
    expect(await isNetns(path)).toBe(false);
    expect(await exists(path)).toBe(false);
  });

  it("remove is idempotent, and dispose after it a no-op", async () => {
    const ns = await tempNetns();
    await ns.remove();
    await ns.remove();
    await ns[Symbol.asyncDispose]();
    expect(await exists(ns.path)).toBe(false);
  });

  it("pins in another dir when asked", async () => {
    const dir = await mkdtemp(join(tmpdir(), "lcnitest-dir-"));
    try {
      await using ns = await tempNetns({ dir });
      expect(ns.path).toBe(join(dir, ns.name));
      expect(await isNetns(ns.path)).toBe(true);
      expect(await links(ns)).toEqual(["lo"]);
    } finally {
      expect(await readdir(dir)).toEqual([]);
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("works with the direct mechanism too (ip netns / nsenter)", async () => {
    await using ns = await tempNetns({ mechanism: "direct", loopbackUp: true });
    expect(await isNetns(ns.path)).toBe(true);
    expect((await ns.run(["ip", "-o", "link", "show", "lo"])).stdout).toMatch(/UP/);
  });
});

describe("ping", () => {
  it("is ok for an answered echo, and not ok with ping's output for an unreachable one", async () => {
    await using ns = await tempNetns({ loopbackUp: true });
    const ok = await ping(ns.path, "127.0.0.1", { count: 2 });
    expect(ok.ok, ok.output).toBe(true);
    expect(ok.output).toContain("2 received");
    const six = await ping(ns.path, "::1");
    expect(six.ok, six.output).toBe(true);
    const down = await ping(ns.path, "192.0.2.1", { timeoutMs: 1000 });
    expect(down.ok).toBe(false);
    expect(down.output).toMatch(/unreachable|0 received/i);
  });
});
