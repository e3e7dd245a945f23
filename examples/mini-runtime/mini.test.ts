/**
 * mini run as its user runs it: the `mini` executable, runc, a busybox rootfs, Debian's plugins.
 * Two networks, `mini` (bridge + host-local + portmap, with DNS) and `side` (ptp); a web server
 * detached with a published port, a client container and the host reaching it, teardown that
 * leaves nothing, and a run killed before runc that `mini gc` cleans up. Needs root.
 *
 * The networks' host side (the bridge, host veth ends, NAT rules) is made in a namespace of the
 * test's own (`testHost`, given to mini as `--plugin-netns`), and mini's root is in the test's
 * temp dir: nothing reaches the machine, and every packet stays in the test's namespaces.
 */
import { access, constants, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";
import { isNetns } from "libcni/netns";
import { requirePlugins, type TestHost, testHost } from "libcni/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const miniBin = fileURLToPath(new URL("./mini", import.meta.url));

/** Fails (never skips) with what to install. */
async function requireTools() {
  await requirePlugins(["bridge", "host-local", "portmap", "ptp", "loopback"]);
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push("root (network namespaces, runc)");
  if ((await execa("runc", ["--version"], { reject: false })).exitCode !== 0) missing.push("runc");
  const busybox = await access("/bin/busybox", constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!busybox) missing.push("busybox-static");
  if (missing.length > 0) throw new Error(`examples/mini-runtime needs: ${missing.join(", ")}`);
}

let host: TestHost;
let root: string;
let rootfs: string;

/** `"a b c"` as `["a", "b", "c"]`, for command lines without spaces in their arguments. */
const words = (line: string): string[] => line.split(" ");

/** Runs `mini` with the test's root, conf dir, plugin dirs and host namespace. */
function mini(args: string[], options: Options = {}) {
  const globals = ["--root", root, "--conf-dir", host.confDir, "--bin-dir", host.binDirs.join(":")];
  return execa(miniBin, [...globals, "--plugin-netns", host.netns.path, ...args], {
    reject: false,
    ...options,
  });
}

/** `mini run ... ROOTFS -- CMD`, from two command lines. */
function run(options: string, command: string, execaOptions: Options = {}) {
  return mini(["run", ...words(options), rootfs, "--", ...words(command)], execaOptions);
}

/** Runs `mini` and expects it to succeed; its stdout. */
async function ok(args: string): Promise<string> {
  const r = await mini(words(args));
  expect(r.exitCode, `mini ${args}: ${r.stderr}`).toBe(0);
  return String(r.stdout);
}

/** Runs a command in the host namespace (a client on the host, ip, iptables). */
async function onHost(line: string): Promise<string> {
  return (await host.netns.run(words(line), { timeoutMs: 10_000 })).stdout;
}

const veths = async () => (await onHost("ip -o link show type veth")).split("\n").filter(Boolean);
const natRules = async () => (await onHost("iptables -t nat -S")).split("\n");
const reserved = async (network: string) =>
  (await readdir(join(host.dataDir, network))).filter((file) => /^\d/.test(file));

beforeAll(async () => {
  await requireTools();
  host = await testHost();
  root = join(host.root, "mini");
  rootfs = join(host.root, "rootfs");
  const ipam = (subnet: string) => ({
    type: "host-local",
    dataDir: host.dataDir,
    ranges: [[{ subnet }]],
    routes: [{ dst: "0.0.0.0/0" }],
  });
  const networks = {
    "10-mini.conflist": {
      cniVersion: "1.0.0",
      name: "mini",
      plugins: [
        {
          type: "bridge",
          bridge: "mini0",
          isGateway: true,
          ipMasq: true,
          ipam: ipam("10.77.0.0/24"),
          dns: { nameservers: ["10.77.0.1"], search: ["mini.test"] },
        },
        { type: "portmap", capabilities: { portMappings: true }, snat: true },
      ],
    },
    "20-side.conflist": {
      cniVersion: "1.0.0",
      name: "side",
      plugins: [{ type: "ptp", ipMasq: true, ipam: { ...ipam("10.78.0.0/24"), routes: [] } }],
    },
  };
  for (const [file, list] of Object.entries(networks)) {
    await writeFile(join(host.confDir, file), JSON.stringify(list));
  }
  await ok(`rootfs ${rootfs}`);
  await mkdir(join(rootfs, "www"));
  await writeFile(join(rootfs, "www", "index.html"), "hello from web\n");
});

afterAll(async () => {
  if (host === undefined) return;
  // What a failed test left: its containers (their processes), then the namespaces and dirs.
  const left = await mini(["ps", "--json"]);
  for (const c of JSON.parse(String(left.stdout || "[]"))) await mini(["rm", "-f", c.name]);
  await mini(["gc"]);
  await host.remove();
});

describe("mini, a container runtime on libcni", () => {
  it("runs a web server detached; a client container and the host reach it", async () => {
    const web = await run(
      "--name web --network mini --network side --publish 18080:80 --detach",
      "httpd -f -p 80 -h /www",
    );
    expect([web.exitCode, web.stdout, web.stderr]).toEqual([0, "web", ""]);
    const [ps] = JSON.parse(await ok("ps --json"));
    expect(ps).toMatchObject({ name: "web", status: "running", ports: ["18080:80"] });
    expect(ps.ips).toEqual([
      expect.stringMatching(/^10\.77\.0\.\d+\/24$/),
      expect.stringMatching(/^10\.78\.0\.\d+\/24$/),
    ]);

    // A container on the bridge fetches web's page (busybox wget), and exits 0.
    const webIP = ps.ips[0].split("/")[0];
    const cli = await run("--name cli --network mini", `wget -q -O - http://${webIP}/`);
    expect([cli.exitCode, cli.stdout, cli.stderr]).toEqual([0, "hello from web", ""]);
    // The host, through the port mapping (portmap's DNAT of the host's own address).
    expect(await onHost("busybox wget -q -O - http://10.77.0.1:18080/")).toBe("hello from web\n");
  });

  it("gives the container its networks' DNS, its hostname, and NetworkDeviceData", async () => {
    expect(await ok("exec web -- cat /etc/resolv.conf")).toBe(
      "nameserver 10.77.0.1\nsearch mini.test",
    );
    expect(await ok("exec web -- hostname")).toBe("web");
    const info = JSON.parse(await ok("inspect web --json"));
    const attached = info.attachments.map((a: { network: string; ifName: string }) => a.ifName);
    expect(attached).toEqual(["lo", "eth0", "net1"]);
    const mac = expect.stringMatching(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    expect(info.networkData).toEqual([
      {
        network: "mini",
        networkData: {
          interfaceName: "eth0",
          ips: [expect.stringMatching(/^10\.77\.0\.\d+\/24$/)],
          hardwareAddress: mac,
        },
      },
      {
        network: "side",
        networkData: {
          interfaceName: "net1",
          ips: [expect.stringMatching(/^10\.78\.0\.\d+\/24$/)],
          hardwareAddress: mac,
        },
      },
    ]);
  });

  it("refuses a taken name, and a port libcni refuses, leaving nothing of either", async () => {
    const taken = await run("--name web", "true");
    expect([taken.exitCode, taken.stderr]).toEqual([125, "mini: container web already exists"]);
    const badPort = await run("--name bad --publish 70000:80", "true");
    expect(badPort.exitCode).toBe(125);
    expect(badPort.stderr).toMatch(/^mini: .*portMappings\[0\]/);
    expect(await readdir(join(root, "containers"))).toEqual(["web.json"]);
    expect(await readdir(join(root, "netns"))).toEqual(["web"]);
    expect(JSON.parse(await ok("ps --json")).map((c: { status: string }) => c.status)).toEqual([
      "running",
    ]);
  });

  it("rm -f web leaves no veth, namespace, IPAM reservation, NAT rule, record or bundle", async () => {
    const traces = async () => ({
      veths: await veths(),
      // portmap's DNAT of the published port; bridge's ipMasq rules, commented with the ID.
      natRules: (await natRules()).filter(
        (r) => r.includes("18080") || r.includes('id: \\"web\\"'),
      ),
      reserved: [...(await reserved("mini")), ...(await reserved("side"))],
      netns: await isNetns(join(root, "netns", "web")),
      records: await readdir(join(root, "containers")),
      bundles: await readdir(join(root, "bundles")),
      cache: await readdir(join(root, "cache", "results")),
    });
    // All there before, so that the checks after can fail.
    const before = await traces();
    expect(before).toMatchObject({ netns: true, records: ["web.json"], bundles: ["web"] });
    expect([before.veths, before.reserved, before.cache].map((l) => l.length)).toEqual([2, 2, 3]);
    expect(before.natRules.some((rule) => rule.includes("18080"))).toBe(true);
    expect(before.natRules.some((rule) => rule.includes('id: \\"web\\"'))).toBe(true);

    await ok("rm -f web");
    expect(await traces()).toEqual({
      veths: [],
      natRules: [],
      reserved: [],
      netns: false,
      records: [],
      bundles: [],
      cache: [],
    });
    expect(await ok("ps")).toBe("NAME  STATUS  PID  IPS  PORTS  COMMAND");
  });

  it("cleans up, at the next gc, a run killed after its setup and before runc", async () => {
    const victim = run("--name victim --network mini --network side --publish 18081:80", "true", {
      env: { MINI_TEST_PAUSE_BEFORE_RUNC: "1" },
    });
    await new Promise<void>((resolve, reject) => {
      victim.stderr?.on("data", (chunk) => {
        if (String(chunk).includes("paused before runc")) resolve();
      });
      void victim.then((r) => reject(new Error(`mini run ended: ${r.stderr}`)));
    });
    victim.kill("SIGKILL");
    expect((await victim).signal).toBe("SIGKILL");
    const [dead] = JSON.parse(await ok("ps --json"));
    expect(dead).toMatchObject({ name: "victim", status: "dead" });
    expect(await veths()).toHaveLength(2);
    expect((await natRules()).some((rule) => rule.includes("18081"))).toBe(true);
    expect([...(await reserved("mini")), ...(await reserved("side"))]).toHaveLength(2);

    expect(await ok("gc")).toBe("removed victim (dead)");
    expect(await veths()).toEqual([]);
    expect((await natRules()).some((rule) => rule.includes("18081"))).toBe(false);
    expect([...(await reserved("mini")), ...(await reserved("side"))]).toEqual([]);
    expect(await isNetns(join(root, "netns", "victim"))).toBe(false);
    for (const dir of words("containers bundles netns cache/results cache/libcni/setup-intents")) {
      expect(await readdir(join(root, dir)), dir).toEqual([]);
    }
  });

  it("exits with a foreground container's code; its first packet reaches the host", async () => {
    // A listener on the host side; the container's first connection ends it.
    const listener = host.netns.exec(words("busybox nc -l -p 9000"), { timeoutMs: 60_000 });
    await expect
      .poll(() => onHost("ss -Hltn sport = :9000"), { timeout: 10_000 })
      .toContain("9000");
    const start = performance.now();
    const probe = mini([
      "run",
      "--name",
      "probe",
      rootfs,
      "--",
      "sh",
      "-c",
      // The here-document is in nc's stdin before it starts: the listener, its own stdin closed,
      // shuts its side at once, and an `echo hi |` still to come (a loaded machine) would find
      // the connection closed and send nothing.
      "nc 10.77.0.1 9000 <<EOF\nhi\nEOF\nexit 3",
    ]);
    const heard = await listener;
    const firstPacketMs = performance.now() - start;
    expect(heard.stdout).toBe("hi\n");
    const r = await probe;
    expect([r.exitCode, r.stderr]).toEqual([3, ""]);
    console.log(
      `mini run -> its container's first packet on the host: ${firstPacketMs.toFixed(0)} ms`,
    );
    expect(await ok("ps")).toBe("NAME  STATUS  PID  IPS  PORTS  COMMAND");
  });
});
