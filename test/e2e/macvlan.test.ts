/**
 * macvlan + host-local (plugins 1.1.1). The parent is one end of a veth pair whose other end
 * sits in a "LAN" namespace holding the gateway address, so the container has a real peer to
 * ping. (A dummy parent, as first planned, needs CONFIG_DUMMY, which CI kernels may lack; see
 * docs/deviations/e2e.md.)
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addresses, ipamReservations, link, ping, routes } from "./harness/inspect.js";
import {
  attachment,
  cacheRecordPath,
  cniFor,
  confList,
  exists,
  resultJSON,
} from "./harness/library.js";
import { inNetns } from "./harness/sh.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-macvlan";

describe("macvlan + host-local (plugins 1.1.1 in namespaces)", () => {
  it("ADD puts a macvlan of the host's parent in the container, the LAN gateway answers; DEL removes it and frees the IP", async () => {
    const world = await worlds.create("macvlan");
    const lan = await world.netns("lan", { loopbackUp: true });
    // The parent "lan0" in the host namespace; its peer is the LAN's gateway.
    await inNetns(world.hostNs, "ip", [
      "link",
      "add",
      "lan0",
      "type",
      "veth",
      "peer",
      "name",
      "gw0",
      "netns",
      lan,
    ]);
    await inNetns(world.hostNs, "ip", ["link", "set", "lan0", "up"]);
    await inNetns(lan, "ip", ["addr", "add", "10.79.0.1/24", "dev", "gw0"]);
    await inNetns(lan, "ip", ["link", "set", "gw0", "up"]);
    const ctr = await world.container();
    const list = confList({
      cniVersion: "1.0.0",
      name: network,
      plugins: [
        {
          type: "macvlan",
          master: "lan0",
          mode: "bridge",
          ipam: {
            type: "host-local",
            dataDir: world.ipamDir,
            ranges: [[{ subnet: "10.79.0.0/24", rangeStart: "10.79.0.10", gateway: "10.79.0.1" }]],
            routes: [{ dst: "0.0.0.0/0" }],
          },
        },
      ],
    });
    const rt = attachment(ctr);
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(list, rt));

    expect(result.ips).toEqual([{ interface: 0, address: "10.79.0.10/24", gateway: "10.79.0.1" }]);
    expect(result.interfaces).toEqual([
      { name: "eth0", mac: expect.stringMatching(/^[0-9a-f:]{17}$/), sandbox: ctr.netnsPath },
    ]);
    const eth0 = await link(ctr.ns, "eth0");
    expect(eth0?.kind).toBe("macvlan");
    expect(eth0?.address).toBe(result.interfaces?.[0]?.mac);
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.79.0.10/24"]);
    expect(await routes(ctr.ns)).toContainEqual({
      dst: "default",
      gateway: "10.79.0.1",
      dev: "eth0",
    });
    expect(await ping(ctr.ns, "10.79.0.1")).toBe(true);
    // The LAN learnt the container's MAC: the frames went through the parent.
    const { stdout: neigh } = await inNetns(lan, "ip", ["neigh", "show", "10.79.0.10"]);
    expect(neigh).toContain(eth0?.address ?? "<none>");

    await cni.checkNetworkList(list, rt);

    await cni.delNetworkList(list, rt);
    expect(await link(ctr.ns, "eth0")).toBeUndefined();
    expect(await ipamReservations(world.ipamDir, network)).toEqual([]);
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);
    // The parent is the host's: DEL must leave it alone.
    expect((await link(world.hostNs, "lan0"))?.flags).toContain("UP");
  });
});
