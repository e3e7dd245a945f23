/**
 * What the rootless sandbox gives a user who is not root, and what it leaves: root of its own
 * namespaces with a private /run/netns, /var/lib/cni and TMPDIR, `lo` up and nothing else;
 * real plugins and iptables working; the command's status, stdin and stdout passed through;
 * nothing outside touched and nothing left running when it ends; an abort that ends the
 * command, then the sandbox; a kernel that refuses said by its setting.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNetns, NetnsError } from "../../src/netns/index.js";
import { RootlessError, runRootless } from "../../src/testing/index.js";
import { cleanEnv, cnitool, requireNonRoot, rootless, run } from "./helpers.js";

let dir: string;

beforeAll(async () => {
  requireNonRoot();
  dir = await mkdtemp(join(tmpdir(), "lcni-rootless-"));
});
afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/**
 * What the sandboxed plugins below would leave on the host, were it not a sandbox: the pod's
 * namespace name, host-local's network dir, the bridge, its subnet. Only these are compared:
 * other tests and processes on the machine change the rest of /run/netns and the links.
 */
async function outside(): Promise<string> {
  const list = async (path: string) => (await readdir(path).catch(() => ["(none)"])).sort();
  const links = await run("ip", ["-o", "link"], { env: cleanEnv() });
  const addrs = await run("ip", ["-o", "addr"], { env: cleanEnv() });
  const lines = (text: string, token: string) =>
    text.split("\n").filter((line) => line.includes(token));
  return JSON.stringify({
    netns: (await list("/run/netns")).filter((name) => name === "pod"),
    cni: (await list("/var/lib/cni/networks")).filter((name) => name === "rl"),
    links: lines(links.stdout.replace(/ +qlen \d+/g, ""), "lcni-rl0"),
    addrs: lines(addrs.stdout, "10.99.44."),
  });
}

/** Every process here whose command line holds `token`. */
async function processesWith(token: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir("/proc")).filter((n) => /^\d+$/.test(n))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(token)) found.push(`${pid}: ${cmdline.replaceAll("\0", " ")}`);
  }
  return found;
}

describe("inside the sandbox", () => {
  it("the user is root, with empty private dirs, lo up and nothing else, sbin on PATH", async () => {
    const script = [
      "id -u",
      "echo LIBCNI_ROOTLESS=$LIBCNI_ROOTLESS TMPDIR=$TMPDIR",
      "ls -A /run/netns /var/lib/cni $TMPDIR",
      "ip -o link | awk '{ print $2, $3 }'",
      'case ":$PATH:" in *:/usr/sbin:*) echo sbin ;; esac',
      "touch /run/netns/x /var/lib/cni/x $TMPDIR/x && echo writable",
    ].join("; ");
    const { code, stdout, stderr } = await rootless(["sh", "-c", script], {
      env: cleanEnv({ PATH: "/usr/local/bin:/usr/bin:/bin" }),
    });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        "0",
        "LIBCNI_ROOTLESS=1 TMPDIR=/run/lcni-rootless/tmp",
        "/run/lcni-rootless/tmp:",
        "",
        "/run/netns:",
        "",
        "/var/lib/cni:",
        "lo: <LOOPBACK,UP,LOWER_UP>",
        "sbin",
        "writable",
        "",
      ].join("\n"),
    );
  });

  it("the machine's /run and /var/lib entries are still there (the user's own rights)", async () => {
    const { code, stdout } = await rootless([
      "sh",
      "-c",
      "ls -d /run/lock /var/lib/dpkg && readlink /run/lock",
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe("/run/lock\n/var/lib/dpkg\n/run/lcni-rootless/run/lock\n");
  });

  it("real plugins: a bridge with NAT, a pod pinging its gateway, DEL; the host untouched", async () => {
    const before = await outside();
    const conf = JSON.stringify({
      cniVersion: "1.0.0",
      name: "rl",
      type: "bridge",
      bridge: "lcni-rl0",
      isGateway: true,
      ipMasq: true,
      ipam: { type: "host-local", subnet: "10.99.44.0/24" },
    });
    const cni = (verb: string) =>
      `CNI_COMMAND=${verb} CNI_CONTAINERID=c1 CNI_NETNS=/run/netns/pod CNI_IFNAME=eth0 CNI_PATH=/usr/lib/cni /usr/lib/cni/bridge < ${dir}/bridge.json`;
    await writeFile(join(dir, "bridge.json"), conf);
    const script = [
      "set -e",
      "ip netns add pod",
      `${cni("ADD")} > /dev/null`,
      "ip netns exec pod ping -c 1 -W 5 10.99.44.1 > /dev/null && echo pinged",
      "ls /var/lib/cni/networks/rl | grep -c 10.99.44.2",
      "iptables -t nat -S POSTROUTING | grep -c -- '-s 10.99.44.2/32'",
      cni("DEL"),
      "ip netns del pod",
      "echo deleted",
    ].join("\n");
    const { code, stdout, stderr } = await rootless(["sh", "-c", script]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).toBe("pinged\n1\n1\ndeleted\n");
    expect(await outside()).toBe(before);
  });

  it("passes the exit status, stdin and stdout through; a signal's death is 128 + n", async () => {
    expect((await rootless(["sh", "-c", "exit 3"])).code).toBe(3);
    expect((await rootless(["sh", "-c", "kill -TERM $$"])).code).toBe(143);
    expect(await rootless(["cat"], { input: "through\n" })).toEqual({
      code: 0,
      stdout: "through\n",
      stderr: "",
    });
    const missing = await rootless(["lcni-no-such-command"]);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain("lcni-no-such-command");
  });

  it("runRootless with stdio pipe: the command's stdout and stderr, none of the setup's", async () => {
    const result = await runRootless(["sh", "-c", "echo out; echo err >&2; exit 5"], {
      stdio: "pipe",
    });
    expect(result).toEqual({
      exitCode: 5,
      signal: undefined,
      aborted: false,
      stdout: "out\n",
      stderr: "err\n",
    });
  });
});

describe("when it ends", () => {
  it("nothing it started runs on: a daemon left behind is killed with the sandbox", async () => {
    const token = `lcni-rootless-daemon-${process.pid}-${Date.now()}`;
    const { code } = await rootless([
      "sh",
      "-c",
      `setsid sh -c 'sleep 300; : ${token}' > /dev/null 2>&1 & ip netns add left; echo started`,
    ]);
    expect(code).toBe(0);
    // The kernel ends the pid namespace with its first process: give it a moment to reap.
    for (let i = 0; i < 50 && (await processesWith(token)).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await processesWith(token)).toEqual([]);
  });

  it("an abort sends SIGTERM to the command, which ends as it chooses", async () => {
    const ready = join(dir, "term-ready");
    const controller = new AbortController();
    const running = runRootless(
      [
        "sh",
        "-c",
        `trap 'echo got-term; exit 7' TERM; touch ${ready}; while :; do sleep 0.1; done`,
      ],
      { stdio: "pipe", signal: controller.signal },
    );
    await waitFor(ready);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ exitCode: 7, aborted: true, stdout: "got-term\n" });
  });

  it("a command that ignores SIGTERM is killed with the sandbox after the grace", async () => {
    const ready = join(dir, "ignore-ready");
    const token = `lcni-rootless-stubborn-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const running = runRootless(
      ["sh", "-c", `trap '' TERM; touch ${ready}; while :; do sleep 0.1; done; : ${token}`],
      { stdio: "pipe", signal: controller.signal, graceMs: 300 },
    );
    await waitFor(ready);
    const t = Date.now();
    controller.abort();
    const result = await running;
    expect(Date.now() - t).toBeGreaterThanOrEqual(250);
    expect(result).toMatchObject({ exitCode: undefined, signal: "SIGKILL", aborted: true });
    for (let i = 0; i < 50 && (await processesWith(token)).length > 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await processesWith(token)).toEqual([]);
  });
});

describe("a kernel that refuses", () => {
  it("says the setting and its fix, exits 125 and runs nothing (user.max_user_namespaces=0)", async () => {
    // A user namespace of the test's own, where no further one may be made: the limit is per
    // user namespace, and its root may lower it.
    const marker = join(dir, "ran");
    const { code, stdout, stderr } = await run("unshare", [
      "--user",
      "--map-root-user",
      "sh",
      "-c",
      `echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" "$1" rootless -- touch ${marker}`,
      process.execPath,
      cnitool,
    ]);
    expect(code).toBe(125);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^Error: cannot make a rootless sandbox \(unshare: unshare failed: No space left on device\): no user namespace may be made \(user\.max_user_namespaces=0\); allow them with sysctl -w /,
    );
    expect(stderr).toContain("sysctl -w user.max_user_namespaces=");
    expect(stderr.trim().split("\n")).toHaveLength(1);
    await expect(readFile(marker)).rejects.toThrow();
  });

  it("runRootless throws RootlessError with reason userns-limit", async () => {
    const probe = `
      const { runRootless } = await import(${JSON.stringify(new URL("../../dist/testing/index.js", import.meta.url).href)});
      try { await runRootless(["true"], { stdio: "pipe" }); console.log("ran"); }
      catch (e) { console.log(JSON.stringify({ id: e.id, reason: e.reason, setting: e.setting })); }`;
    const { stdout } = await run("unshare", [
      "--user",
      "--map-root-user",
      "sh",
      "-c",
      'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" --input-type=module -e "$1"',
      process.execPath,
      probe,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      id: "LIBCNI_ERR_ROOTLESS",
      reason: "userns-limit",
      setting: "user.max_user_namespaces=0",
    });
    expect(RootlessError.id).toBe("LIBCNI_ERR_ROOTLESS");
  });
});

async function waitFor(path: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (
      await readFile(path).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${path} never appeared`);
}

describe("outside a sandbox", () => {
  it("a namespace the user may not make says how to make one without root", async () => {
    const error = await createNetns("lcni-rootless-refused", { dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetnsError);
    expect((error as NetnsError).reason).toBe("permission");
    expect((error as NetnsError).message).toContain("cnitool rootless -- <command>");
  });
});
