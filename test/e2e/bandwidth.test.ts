/**
 * bridge + host-local + bandwidth (plugins 1.1.1): the `bandwidth` capability becomes a tbf on
 * the host veth (ingress) and an ifb with its own tbf (egress); DEL removes the ifb.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { linksOfKind, ping, qdiscs } from "./harness/inspect.js";
import { attachment, cniFor, confList, resultJSON } from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-bandwidth";

describe("bridge + host-local + bandwidth (plugins 1.1.1 in namespaces)", () => {
  it("ADD shapes both directions from capabilityArgs; CHECK passes; DEL removes the ifb and the veth", async () => {
    const world = await worlds.create("bandwidth");
    const ctr = await world.container();
    const list = confList({
      cniVersion: "1.0.0",
      name: network,
      plugins: [
        {
          type: "bridge",
          bridge: "cni-bw0",
          isGateway: true,
          ipam: {
            type: "host-local",
            dataDir: world.ipamDir,
            ranges: [[{ subnet: "10.81.0.0/24" }]],
          },
        },
        { type: "bandwidth", capabilities: { bandwidth: true } },
      ],
    });
    // Rates in bit/s, bursts in bits (CONVENTIONS.md).
    const bandwidth = {
      ingressRate: 1_000_000,
      ingressBurst: 100_000,
      egressRate: 2_000_000,
      egressBurst: 200_000,
    };
    const rt = attachment(ctr, "eth0", { capabilityArgs: { bandwidth } });
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(list, rt));

    const [hostVeth] = await linksOfKind(world.hostNs, "veth");
    const [ifb] = await linksOfKind(world.hostNs, "ifb");
    expect(ifb?.ifname).toMatch(/^bwp/);
    // bandwidth appends its ifb to the result's interfaces.
    expect(result.interfaces?.map((i) => i.name)).toEqual([
      "cni-bw0",
      hostVeth?.ifname,
      "eth0",
      ifb?.ifname,
    ]);
    // Ingress (to the container): tbf on the host veth, bytes per second.
    const vethQdiscs = await qdiscs(world.hostNs, hostVeth?.ifname ?? "");
    expect(vethQdiscs.find((q) => q.root)).toMatchObject({
      kind: "tbf",
      options: { rate: 125_000 },
    });
    expect(vethQdiscs.some((q) => q.kind === "ingress")).toBe(true);
    // Egress (from the container): redirected to the ifb, shaped there.
    expect((await qdiscs(world.hostNs, ifb?.ifname ?? "")).find((q) => q.root)).toMatchObject({
      kind: "tbf",
      options: { rate: 250_000 },
    });
    expect(await ping(ctr.ns, "10.81.0.1")).toBe(true);

    await cni.checkNetworkList(list, rt);

    await cni.delNetworkList(list, rt);
    expect(await linksOfKind(world.hostNs, "ifb")).toEqual([]);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });
});
