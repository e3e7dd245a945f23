/**
 * libcni/netns on this machine (root; iproute2, util-linux and Debian's plugins): namespaces
 * created and removed by the spawner helper and by the commands, seen by `ip netns list` and
 * used by a real plugin; programs run inside; plugins run in a chosen namespace by each
 * launcher; the errors a caller can meet.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { CNIConfig } from "../../src/api/index.js";
import { confListFromBytes } from "../../src/conf/index.js";
import { NetnsError } from "../../src/errors/index.js";
import { DefaultExec } from "../../src/invoke/index.js";
import {
  createNetns,
  execInNetns,
  isNetns,
  type NetnsMechanism,
  removeNetns,
} from "../../src/netns/index.js";

const execFileP = promisify(execFile);
const prefix = `lcnins-${process.pid}`;
let counter = 0;
const uniqueName = (label: string) => `${prefix}-${++counter}-${label}`;
const created: string[] = [];

async function ipNetnsList(): Promise<string[]> {
  const { stdout } = await execFileP("ip", ["netns", "list"]);
  return stdout.split("\n").map((line) => line.split(" ")[0]);
}

/** The inode of the network namespace a pinned path holds. */
async function nsInode(path: string): Promise<number> {
  return (await stat(path)).ino;
}

afterAll(async () => {
  for (const path of created) await removeNetns(path).catch(() => undefined);
});

describe.each([
  "spawner",
  "direct",
] as const)("libcni/netns through the %s", (mechanism: NetnsMechanism) => {
  it("creates a namespace in /run/netns that ip netns lists and a real plugin uses, then removes it", async () => {
    const name = uniqueName("plugin");
    const path = await createNetns(name, { mechanism });
    created.push(path);
    expect(path).toBe(`/run/netns/${name}`);
    expect(await isNetns(path)).toBe(true);
    expect(await ipNetnsList()).toContain(name);
    // A new namespace, not this process's.
    expect(await nsInode(path)).not.toBe(await nsInode("/proc/self/ns/net"));

    // Debian's loopback plugin brings `lo` up in it.
    const cni = new CNIConfig({
      path: ["/usr/lib/cni"],
      cacheDir: await mkdtemp(join(tmpdir(), `${prefix}-cache-`)),
      exec: new DefaultExec({ stderr: null }),
    });
    const list = confListFromBytes(
      new TextEncoder().encode(
        '{"cniVersion":"1.0.0","name":"lo-net","plugins":[{"type":"loopback"}]}',
      ),
    );
    const rt = { containerID: `c-${name}`, netNS: path, ifName: "lo" };
    await cni.addNetworkList(list, rt);
    const link = await execInNetns(path, ["ip", "-o", "link", "show", "lo"], { mechanism });
    expect(link.exitCode).toBe(0);
    expect(link.stdout).toMatch(/<LOOPBACK,UP,LOWER_UP>/);
    await cni.delNetworkList(list, rt);
    await rm(cni.cacheDir, { recursive: true, force: true });

    await removeNetns(path, { mechanism });
    expect(await isNetns(path)).toBe(false);
    expect(await ipNetnsList()).not.toContain(name);
    // Idempotent: a namespace already gone is removed again without error.
    await removeNetns(path, { mechanism });
    await removeNetns(name, { mechanism });
  });

  it("creates one in another directory, and removes the directory's leftovers", async () => {
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-dir-`));
    try {
      const path = await createNetns("pod", { dir, mechanism });
      created.push(path);
      expect(path).toBe(join(dir, "pod"));
      expect(await isNetns(path)).toBe(true);
      await removeNetns(path, { mechanism });
      expect(await isNetns(path)).toBe(false);
      // An empty mount point a crash left in the namespaces' dir is removed too; an empty
      // file anywhere else is nobody's mount point and is left alone.
      await writeFile(join(dir, "left"), "");
      const elsewhere = await removeNetns(join(dir, "left"), { mechanism }).catch((e) => e);
      expect(elsewhere.reason).toBe("not-a-netns");
      // One that goes within a moment is a concurrent remove's, unmounted and being unlinked.
      await writeFile(join(dir, "going"), "");
      setTimeout(() => void rm(join(dir, "going"), { force: true }), 30);
      await removeNetns(join(dir, "going"), { mechanism });
      await removeNetns(join(dir, "left"), { dir, mechanism });
      await expect(stat(join(dir, "left"))).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("runs a program inside with its arguments, environment and stdin, and reports its exit", async () => {
    const path = await createNetns(uniqueName("exec"), { mechanism });
    created.push(path);
    try {
      const run = await execInNetns(
        path,
        [
          "sh",
          "-c",
          'readlink /proc/self/ns/net; echo "$1 $GREETING"; cat; exit 3',
          "sh",
          "one arg",
        ],
        { env: { PATH: "/usr/bin:/bin", GREETING: "hello" }, stdin: "from stdin", mechanism },
      );
      expect(run.exitCode).toBe(3);
      expect(run.timedOut).toBe(false);
      const [ns, echoed, input] = run.stdout.split("\n");
      expect(ns).toBe(`net:[${await nsInode(path)}]`);
      expect(echoed).toBe("one arg hello");
      expect(input).toBe("from stdin");

      const slow = await execInNetns(path, ["sleep", "30"], { timeoutMs: 200, mechanism });
      expect(slow.timedOut).toBe(true);
      expect(slow.aborted).toBe(true);
      expect(slow.signal).toBe("SIGTERM");

      // The caller's own abort is an abort, not a timeout (as PluginAbortedError says). Aborted
      // once the program runs (it says so in a file): an abort before the start starts nothing.
      const controller = new AbortController();
      const dir = await mkdtemp(join(tmpdir(), "libcni-exec-abort-"));
      const marker = join(dir, "started");
      const running = execInNetns(path, ["sh", "-c", ': > "$1"; exec sleep 30', "sh", marker], {
        signal: controller.signal,
        timeoutMs: 30_000,
        mechanism,
      });
      while (
        !(await stat(marker).then(
          () => true,
          () => false,
        ))
      )
        await delay(20);
      controller.abort(new Error("enough"));
      const stopped = await running.finally(() => rm(dir, { recursive: true, force: true }));
      expect([stopped.aborted, stopped.timedOut, stopped.signal]).toEqual([true, false, "SIGTERM"]);
    } finally {
      await removeNetns(path, { mechanism });
    }
  });

  it("says which path is taken, missing or not a namespace", async () => {
    const path = await createNetns(uniqueName("twice"), { mechanism });
    created.push(path);
    try {
      const again = await createNetns(path.split("/").at(-1) as string, { mechanism }).catch(
        (e) => e,
      );
      expect(again).toBeInstanceOf(NetnsError);
      expect(again.reason).toBe("exists");
      expect(await isNetns(path)).toBe(true);
    } finally {
      await removeNetns(path, { mechanism });
    }
    const notNs = await removeNetns("/etc/hostname").catch((e) => e);
    expect(notNs).toBeInstanceOf(NetnsError);
    expect(notNs.reason).toBe("not-a-netns");
    expect(await stat("/etc/hostname")).toBeDefined();
    const missing = await execInNetns("/run/netns/none-such", ["true"], { mechanism }).catch(
      (e) => e,
    );
    expect(missing.reason).toBe("not-a-netns");
    const badName = await createNetns("../x", { mechanism }).catch((e) => e);
    expect(badName.reason).toBe("invalid-name");
  });
});

describe("paths and failures of a chosen namespace", () => {
  it("does not take a procfs file or a FIFO for a namespace, and says it was the namespace", async () => {
    expect(await isNetns("/proc/self/status")).toBe(false);
    expect(await isNetns("/proc/self/ns/net")).toBe(true);
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-fifo-`));
    try {
      const fifo = join(dir, "fifo");
      await execFileP("mkfifo", [fifo]);
      for (const launcher of ["spawner", "direct"] as const) {
        const exec = new DefaultExec({ stderr: null, launcher, netns: fifo });
        const error = await exec.execPlugin("/bin/true", new Uint8Array(), []).catch((e) => e);
        expect(error.message).toMatch(/enter network namespace|nsenter/);
      }
      // The helper was not stalled by the FIFO: a plain run still answers.
      const after = await new DefaultExec({ stderr: null, launcher: "spawner" }).execPlugin(
        "/bin/echo",
        new Uint8Array(),
        [],
      );
      expect(new TextDecoder().decode(after)).toBe("\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("takes a relative path as of this process's working directory, and refuses NUL bytes", async () => {
    expect(new DefaultExec({ netns: "run/x" }).netns).toBe(join(process.cwd(), "run/x"));
    expect(() => new DefaultExec({ netns: "/run/netns/a\0b" })).toThrow(/NUL/);
    const nul = await execInNetns("/proc/self/ns/net", ["echo", "a\0b"]).catch((e) => e);
    expect(nul).toBeInstanceOf(NetnsError);
  });
});

describe("plugins run in a chosen namespace", () => {
  it.each(["spawner", "direct"] as const)("with the %s launcher", async (launcher) => {
    const host = await createNetns(uniqueName(`host-${launcher}`));
    created.push(host);
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-plug-`));
    try {
      // A "plugin" that answers with the namespace it runs in.
      const plugin = join(dir, "whereami");
      await writeFile(plugin, "#!/bin/sh\nreadlink /proc/self/ns/net\n", { mode: 0o755 });
      const exec = new DefaultExec({ stderr: null, launcher, netns: host });
      const out = await exec.execPlugin(plugin, new Uint8Array(), ["PATH=/usr/bin:/bin"]);
      expect(new TextDecoder().decode(out).trim()).toBe(`net:[${await nsInode(host)}]`);
      // And without the option, this process's.
      const here = await new DefaultExec({ stderr: null, launcher }).execPlugin(
        plugin,
        new Uint8Array(),
        [],
      );
      expect(new TextDecoder().decode(here).trim()).toBe(
        `net:[${await nsInode("/proc/self/ns/net")}]`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
      await removeNetns(host);
    }
  });
});

describe("CNIConfig and the runtime with pluginNetns", () => {
  it("run every plugin of a chain in that namespace", async () => {
    const host = await createNetns(uniqueName("cni-host"));
    created.push(host);
    const dir = await mkdtemp(join(tmpdir(), `${prefix}-cni-`));
    try {
      const seen = join(dir, "seen");
      await writeFile(
        join(dir, "where"),
        `#!/bin/sh\nreadlink /proc/self/ns/net >> ${seen}\ncat >/dev/null\necho '{"cniVersion":"1.0.0"}'\n`,
        { mode: 0o755 },
      );
      const cni = new CNIConfig({ path: [dir], cacheDir: join(dir, "cache"), pluginNetns: host });
      const list = confListFromBytes(
        new TextEncoder().encode(
          '{"cniVersion":"1.0.0","name":"where-net","plugins":[{"type":"where"},{"type":"where"}]}',
        ),
      );
      await cni.addNetworkList(list, { containerID: "c1", netNS: host, ifName: "eth0" });
      const lines = (await readFile(seen, "utf8")).trim().split("\n");
      expect(lines).toEqual(Array(2).fill(`net:[${await nsInode(host)}]`));
    } finally {
      await rm(dir, { recursive: true, force: true });
      await removeNetns(host);
    }
  });
});

describe("without CAP_SYS_ADMIN", () => {
  it.each(["spawner", "direct"] as const)("creating through the %s says so", async (mechanism) => {
    // A child process with every capability dropped, running the built package.
    const script = `import { createNetns } from ${JSON.stringify(join(process.cwd(), "dist/netns/index.js"))};
try { await createNetns(${JSON.stringify(uniqueName("noperm"))}, { dir: "/tmp", mechanism: ${JSON.stringify(mechanism)} }); console.log("created"); }
catch (e) { console.log(JSON.stringify({ reason: e.reason, message: e.message })); }`;
    const { stdout } = await execFileP("setpriv", [
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--",
      process.execPath,
      "--input-type=module",
      "-e",
      script,
    ]);
    const answer = JSON.parse(stdout.trim());
    expect(answer.reason).toBe("permission");
    expect(answer.message).toMatch(/CAP_SYS_ADMIN/);
  });
});
