/**
 * 50 containers added concurrently (after a first alone) on one bridge network, then deleted concurrently: every
 * one gets its own address and works, and afterwards nothing of any of them is left.
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ipamReservations, iptablesRules, linksOfKind, ping } from "./harness/inspect.js";
import { attachment, cniFor, confList, resultJSON } from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";
import type { Container } from "./harness/world.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-scale";
const count = 50;

describe("50 concurrent containers (bridge + host-local + portmap, plugins 1.1.1)", () => {
  it("ADD at once (after a first alone): 50 distinct working addresses; DEL all at once: nothing left behind", async () => {
    const world = await worlds.create("scale");
    const list = confList({
      cniVersion: "1.0.0",
      name: network,
      plugins: [
        {
          type: "bridge",
          bridge: "cni-scale0",
          isGateway: true,
          ipMasq: true,
          ipam: {
            type: "host-local",
            dataDir: world.ipamDir,
            ranges: [[{ subnet: "10.83.0.0/24" }]],
          },
        },
        { type: "portmap", capabilities: { portMappings: true } },
      ],
    });
    const cni = cniFor(world);
    const containers: Container[] = [];
    for (let i = 0; i < count; i++) containers.push(await world.container("s"));
    const rts = containers.map((ctr, i) =>
      attachment(ctr, "eth0", {
        capabilityArgs: {
          portMappings: [{ hostPort: 20_000 + i, containerPort: 80, protocol: "tcp" }],
        },
      }),
    );

    // portmap 1.1.1 creates its shared chains (CNI-HOSTPORT-*) check-then-create, so two first
    // ADDs at once race and one fails with "File exists" (containernetworking/plugins#335, the
    // same TOCTOU nomad#6567 met through go-cni). The first container goes alone, as any runtime
    // on these plugins must arrange; the other 49 then go all at once.
    const first = await cni.addNetworkList(list, rts[0] as (typeof rts)[number]);
    const rest = await Promise.all(rts.slice(1).map((rt) => cni.addNetworkList(list, rt)));
    const results = [first, ...rest];

    const ips = results.map((r) => resultJSON(r).ips?.[0]?.address);
    expect(new Set(ips).size).toBe(count);
    expect(await ipamReservations(world.ipamDir, network)).toHaveLength(count);
    expect(await linksOfKind(world.hostNs, "veth")).toHaveLength(count);
    expect(await readdir(join(world.cacheDir, "results"))).toHaveLength(count);
    const dnat = (await iptablesRules(world.hostNs, "nat")).filter((l) =>
      l.includes("--to-destination"),
    );
    expect(dnat).toHaveLength(count);
    const reachable = await Promise.all(containers.map((ctr) => ping(ctr.ns, "10.83.0.1")));
    expect(reachable.every(Boolean)).toBe(true);

    await Promise.all(rts.map((rt) => cni.delNetworkList(list, rt)));

    expect(
      await tracesOf(
        world,
        network,
        containers.map((c) => c.id),
      ),
    ).toEqual(noTraces);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([]);
    expect(await readdir(join(world.cacheDir, "results"))).toEqual([]);
    expect(
      (await iptablesRules(world.hostNs, "nat")).filter((l) => l.includes("--to-destination")),
    ).toEqual([]);
  });
});
