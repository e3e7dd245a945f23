/** ptp + host-local (plugins 1.1.1): a point-to-point veth with a /32 host side and a masqueraded container. */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addresses, ipamReservations, linksOfKind, ping, routes } from "./harness/inspect.js";
import {
  attachment,
  cacheRecordPath,
  cniFor,
  confList,
  exists,
  resultJSON,
} from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-ptp";

describe("ptp + host-local (plugins 1.1.1 in namespaces)", () => {
  it("ADD: container address and routes via the host end, gateway reachable; CHECK passes; DEL leaves nothing", async () => {
    const world = await worlds.create("ptp");
    const ctr = await world.container();
    const list = confList({
      cniVersion: "1.0.0",
      name: network,
      plugins: [
        {
          type: "ptp",
          ipMasq: true,
          mtu: 1450,
          ipam: {
            type: "host-local",
            dataDir: world.ipamDir,
            ranges: [[{ subnet: "10.78.0.0/24" }]],
            routes: [{ dst: "0.0.0.0/0" }],
          },
        },
      ],
    });
    const rt = attachment(ctr);
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(list, rt));

    expect(result.ips).toEqual([{ interface: 1, address: "10.78.0.2/24", gateway: "10.78.0.1" }]);
    expect(result.interfaces?.[1]).toMatchObject({ name: "eth0", sandbox: ctr.netnsPath });
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.78.0.2/24"]);
    const ctrRoutes = await routes(ctr.ns);
    expect(ctrRoutes).toContainEqual({ dst: "default", gateway: "10.78.0.1", dev: "eth0" });
    expect(ctrRoutes).toContainEqual({ dst: "10.78.0.1", gateway: undefined, dev: "eth0" });
    // The host end holds the gateway address as a /32 and routes the container's /32 to it.
    const [hostVeth] = await linksOfKind(world.hostNs, "veth");
    expect(hostVeth?.mtu).toBe(1450);
    expect(await addresses(world.hostNs, hostVeth?.ifname ?? "")).toEqual(["10.78.0.1/32"]);
    expect(await routes(world.hostNs)).toContainEqual({
      dst: "10.78.0.2",
      gateway: undefined,
      dev: hostVeth?.ifname,
    });
    expect(await ping(ctr.ns, "10.78.0.1")).toBe(true);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([
      { ip: "10.78.0.2", containerID: ctr.id, ifName: "eth0" },
    ]);

    await cni.checkNetworkList(list, rt);

    await cni.delNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "ADD ptp",
      "ADD host-local",
      "CHECK ptp",
      "CHECK host-local",
      "DEL ptp",
      "DEL host-local",
    ]);
  });
});
