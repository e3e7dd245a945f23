// testHost with Debian's real plugins (root, containernetworking-plugins): two pods on a
// bridge ping each other; the bridge, veths and NAT land in the host namespace and never in
// the machine's; teardown and the host's removal leave nothing, also after a thrown test.
import { access, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { networkConfFromBytes } from "../../src/conf/index.js";
import { execInNetns, isNetns } from "../../src/netns/index.js";
import { loadNetworks } from "../../src/runtime/index.js";
import {
  eventually,
  ping,
  requirePlugins,
  type TestHost,
  testHost,
} from "../../src/testing/index.js";

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  if (process.getuid?.() !== 0)
    throw new Error("the system tier runs as root (network namespaces)");
  await requirePlugins(["bridge", "host-local", "loopback"]);
});

function bridgeList(host: TestHost, name = "podnet", subnet = "10.77.0.0/24") {
  return {
    cniVersion: "1.0.0",
    name,
    plugins: [
      {
        type: "bridge",
        bridge: "cni-test0",
        isGateway: true,
        ipMasq: true,
        ipam: {
          type: "host-local",
          dataDir: host.dataDir,
          ranges: [[{ subnet }]],
          routes: [{ dst: "0.0.0.0/0" }],
        },
      },
    ],
  };
}

/** The machine's own links (the test process's namespace), names only. */
async function machineLinks(): Promise<string> {
  const { stdout } = await execInNetns(`/proc/${process.pid}/ns/net`, ["ip", "-o", "link"]);
  return stdout
    .split("\n")
    .map((l) => l.split(": ")[1] ?? "")
    .join(" ");
}

async function linksOf(path: string, kind: string): Promise<string[]> {
  const { stdout } = await execInNetns(path, ["ip", "-o", "link", "show", "type", kind]);
  return stdout.split("\n").filter((l) => l !== "");
}

/** The pod's first IPv4 address on eth0. */
async function podAddress(path: string): Promise<string> {
  const { stdout } = await execInNetns(path, ["ip", "-4", "-o", "addr", "show", "dev", "eth0"]);
  const match = /inet (\S+)\//.exec(stdout);
  if (match === null) throw new Error(`no IPv4 address on eth0: ${stdout}`);
  return match[1] as string;
}

describe("testHost", () => {
  it("runs two pods on a real bridge that ping each other; teardown and removal leave nothing", async () => {
    const machine = await machineLinks();
    let paths: string[] = [];
    let root = "";
    {
      await using host = await testHost();
      root = host.root;
      const list = networkConfFromBytes(JSON.stringify(bridgeList(host)));
      const a = await host.pod("a");
      const b = await host.pod("b");
      paths = [host.netns.path, a.path, b.path];
      const rtA = { containerID: "pod-a", netNS: a.path, ifName: "eth0" };
      const rtB = { containerID: "pod-b", netNS: b.path, ifName: "eth0" };
      await host.cni.addNetworkList(list, rtA);
      await host.cni.addNetworkList(list, rtB);

      // The host side is in the host namespace, never the machine's.
      expect(await linksOf(host.netns.path, "bridge")).toHaveLength(1);
      expect(await linksOf(host.netns.path, "veth")).toHaveLength(2);
      expect(await machineLinks()).toBe(machine);
      const forward = await host.netns.run(["cat", "/proc/sys/net/ipv4/ip_forward"]);
      expect(forward.stdout.trim()).toBe("1");

      const addrB = await podAddress(b.path);
      const addrA = await podAddress(a.path);
      const aToB = await eventually(async () => {
        const r = await ping(a.path, addrB);
        if (!r.ok) throw new Error(r.output);
        return r;
      });
      expect(aToB.ok).toBe(true);
      expect((await ping(b.path, addrA)).ok).toBe(true);
      expect((await ping(a.path, "10.77.0.1")).ok).toBe(true);

      await host.cni.delNetworkList(list, rtA);
      await host.cni.delNetworkList(list, rtB);
      expect(await linksOf(host.netns.path, "veth")).toEqual([]);
      expect(await readdir(join(host.dataDir, "podnet"))).not.toContain("10.77.0.2");
      expect(await readdir(join(host.cacheDir, "results"))).toEqual([]);
    }
    for (const path of paths) expect(await isNetns(path)).toBe(false);
    for (const path of paths) expect(await exists(path)).toBe(false);
    expect(await exists(root)).toBe(false);
    expect(await machineLinks()).toBe(machine);
  });

  it("drives libcni/runtime: loadNetworks on the host's conf dir, setupPod and teardownPod", async () => {
    await using host = await testHost();
    await writeFile(join(host.confDir, "10-podnet.conflist"), JSON.stringify(bridgeList(host)));
    const runtime = await loadNetworks({
      confDir: host.confDir,
      loopback: true,
      ...host.runtimeOptions,
    });
    const pod = await host.pod();
    const result = await runtime.setupPod({ id: "p1", netns: pod.path });
    const eth0 = result.interfaces.find((i) => i.name === "eth0" && i.sandbox === pod.path);
    expect(eth0?.ips.map((ip) => ip.address)).toEqual(["10.77.0.2/24"]);
    expect((await ping(pod.path, "10.77.0.1")).ok).toBe(true);
    // The runtime's loopback network brought lo up.
    expect((await ping(pod.path, "127.0.0.1")).ok).toBe(true);
    await runtime.teardownPod("p1");
    expect(await linksOf(host.netns.path, "veth")).toEqual([]);
  });

  it("removes the pods, the host namespace and its dirs when the test body throws", async () => {
    let paths: string[] = [];
    let root = "";
    const thrown = await (async () => {
      await using host = await testHost();
      root = host.root;
      const pod = await host.pod();
      paths = [host.netns.path, pod.path];
      const list = networkConfFromBytes(JSON.stringify(bridgeList(host)));
      await host.cni.addNetworkList(list, { containerID: "c", netNS: pod.path, ifName: "eth0" });
      throw new Error("the test failed before its teardown");
    })().catch((e: Error) => e);
    expect(thrown?.message).toBe("the test failed before its teardown");
    expect(paths).toHaveLength(2);
    for (const path of paths) expect(await exists(path)).toBe(false);
    expect(await exists(root)).toBe(false);
  });

  it("a pod asked for while, or after, the host is removed is refused, and no namespace is left", async () => {
    const host = await testHost();
    const dir = join(host.netns.path, "..");
    // One made while the removal runs (its cleanup would go in a list already taken), one after.
    const during = host.pod("late");
    const removed = host.remove();
    const refusals = await Promise.all([during, host.pod("after")].map((p) => p.catch((e) => e)));
    await removed;
    for (const e of refusals)
      expect((e as Error).message).toContain("host.pod() after host.remove()");
    const mine = (n: string) => n === host.netns.name || /-\d+t?\d*-(late|after)$/.test(n);
    const left = (await readdir(dir)).filter((n) => n.includes(`-${process.pid}-`) && mine(n));
    expect(left).toEqual([]);
  });

  it("leaves IP forwarding off when asked", async () => {
    await using host = await testHost({ ipForward: false });
    const { stdout } = await host.netns.run(["cat", "/proc/sys/net/ipv4/ip_forward"]);
    expect(stdout.trim()).toBe("0");
  });
});
