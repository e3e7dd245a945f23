/**
 * An integration test as a runtime's own test suite would write it with libcni/testing: real
 * plugins (bridge + host-local), two pods on one bridge, a ping between them, teardown, and a
 * failure injected into a plugin to see the pod's setup rolled back. Needs root.
 *
 * Everything lives in namespaces the test creates (`testHost`): the bridge, the host veth ends
 * and the NAT rules never reach the machine, and `await using` removes all of it when the test
 * ends, also when an assertion throws.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { loadNetworks, PodSetupError } from "libcni/runtime";
import { eventually, ping, requirePlugins, type TestHost, testHost } from "libcni/testing";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(async () => {
  // Fails (never skips) with what to install when the plugins are missing.
  await requirePlugins(["bridge", "host-local", "loopback", "tuning"]);
});

/** Writes the pods' network into the host's conf dir and loads it, as a runtime would. */
async function podNetwork(host: TestHost, chained: object[] = []) {
  const network = {
    cniVersion: "1.0.0",
    name: "pods",
    plugins: [
      {
        type: "bridge",
        bridge: "cni0",
        isGateway: true,
        ipMasq: true,
        ipam: {
          type: "host-local",
          dataDir: host.dataDir,
          ranges: [[{ subnet: "10.88.0.0/24" }]],
          routes: [{ dst: "0.0.0.0/0" }],
        },
      },
      ...chained,
    ],
  };
  await writeFile(join(host.confDir, "10-pods.conflist"), JSON.stringify(network));
  return loadNetworks({ confDir: host.confDir, loopback: true, ...host.runtimeOptions });
}

describe("two pods on a bridge", () => {
  it("reach each other, and teardown leaves nothing", async () => {
    await using host = await testHost();
    const runtime = await podNetwork(host);
    const a = await host.pod("a");
    const b = await host.pod("b");

    const setupA = await runtime.setupPod({ id: "pod-a", netns: a.path });
    const setupB = await runtime.setupPod({ id: "pod-b", netns: b.path });
    const ipOf = (setup: typeof setupA) =>
      setup.interfaces.find((i) => i.name === "eth0")?.ips[0]?.address.split("/")[0] ?? "";
    const [ipA, ipB] = [ipOf(setupA), ipOf(setupB)];
    expect([ipA, ipB]).toEqual(["10.88.0.2", "10.88.0.3"]);

    // The first packets may wait for the bridge's ports to forward; retry for a while.
    await eventually(async () => {
      const reply = await ping(a.path, ipB);
      expect(reply.ok, reply.output).toBe(true);
    });
    const back = await ping(b.path, ipA);
    expect(back.ok, back.output).toBe(true);

    await runtime.teardownPod("pod-a");
    await runtime.teardownPod("pod-b");
    const veths = await host.netns.run(["ip", "-o", "link", "show", "type", "veth"]);
    expect(veths.stdout).toBe("");
    expect((await ping(a.path, ipB, { timeoutMs: 1000 })).ok).toBe(false);
  });

  it("rolls a pod's setup back when a plugin of its network fails", async () => {
    await using host = await testHost();
    // tuning, chained after the bridge, fails its ADD: the bridge's veth and address are undone.
    const tuning = await host.failpoint({ plugin: "tuning", verb: "ADD", action: "fail" });
    const runtime = await podNetwork(host, [{ type: "tuning", sysctl: {} }]);
    const pod = await host.pod();

    const error = await runtime.setupPod({ id: "pod-x", netns: pod.path }).catch((e) => e);
    expect(error).toBeInstanceOf(PodSetupError);
    expect(error.rolledBack.map((r: { network: string }) => r.network)).toEqual([
      "pods",
      "cni-loopback",
    ]);
    expect(await tuning.calls("DEL")).toBe(1);
    const veths = await host.netns.run(["ip", "-o", "link", "show", "type", "veth"]);
    expect(veths.stdout).toBe("");
  });
});
