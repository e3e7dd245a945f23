/**
 * What the runtime passes besides the config reaches real plugins: CNI_ARGS (host-local's
 * `IP=`) and a capability (`ips`), and both are kept in the cache record for a later DEL or GC.
 */
import { readFile } from "node:fs/promises";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addresses, ipamReservations } from "./harness/inspect.js";
import { attachment, cacheRecordPath, cniFor, confList, resultJSON } from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";
import type { E2EWorld } from "./harness/world.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-args";

function list(world: E2EWorld) {
  return confList({
    cniVersion: "1.0.0",
    name: network,
    plugins: [
      {
        type: "bridge",
        bridge: "cni-args0",
        isGateway: true,
        // bridge hands its own stdin to host-local, so the capability is declared here.
        capabilities: { ips: true },
        ipam: {
          type: "host-local",
          dataDir: world.ipamDir,
          ranges: [[{ subnet: "10.85.0.0/24" }]],
        },
      },
    ],
  });
}

describe("CNI_ARGS and capability args with plugins 1.1.1", () => {
  it("host-local takes the IP asked in CNI_ARGS; the args are cached and GC's DEL frees that IP", async () => {
    const world = await worlds.create("args");
    const ctr = await world.container();
    const conf = list(world);
    const rt = attachment(ctr, "eth0", {
      args: [
        ["IgnoreUnknown", "1"],
        ["IP", "10.85.0.42"],
      ],
    });
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(conf, rt));

    expect(result.ips?.[0]?.address).toBe("10.85.0.42/24");
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.85.0.42/24"]);
    const record = JSON.parse(await readFile(cacheRecordPath(world, network, rt), "utf8")) as {
      cniArgs?: unknown;
    };
    expect(record.cniArgs).toEqual([
      ["IgnoreUnknown", "1"],
      ["IP", "10.85.0.42"],
    ]);

    // GC deletes the attachment with its cached CNI_ARGS (host-local releases by container ID).
    await cni.gcNetworkList(conf, { validAttachments: [] });
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });

  it("the ips capability reaches host-local through bridge's runtimeConfig", async () => {
    const world = await worlds.create("caps");
    const ctr = await world.container();
    const conf = list(world);
    const rt = attachment(ctr, "eth0", {
      capabilityArgs: { ips: ["10.85.0.77/24"], unrelated: true },
    });
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(conf, rt));

    expect(result.ips?.[0]?.address).toBe("10.85.0.77/24");
    expect(await ipamReservations(world.ipamDir, network)).toEqual([
      { ip: "10.85.0.77", containerID: ctr.id, ifName: "eth0" },
    ]);
    await cni.delNetworkList(conf, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });
});
