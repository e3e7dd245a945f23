/**
 * CNI versions against plugins 1.1.1, which support 0.1.0 to 1.0.0: an older list works end
 * to end (results in its version), CHECK below 0.4.0 is refused by the library itself, and a
 * 1.1.0 list is refused by the plugins.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addresses } from "./harness/inspect.js";
import {
  attachment,
  cacheRecordPath,
  cniErrorOf,
  cniFor,
  confList,
  exists,
  rejectionOf,
  resultJSON,
} from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";
import type { E2EWorld } from "./harness/world.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-versions";

function list(world: E2EWorld, version: Record<string, unknown>) {
  return confList({
    ...version,
    name: network,
    plugins: [
      {
        type: "bridge",
        bridge: "cni-ver0",
        isGateway: true,
        ipam: {
          type: "host-local",
          dataDir: world.ipamDir,
          ranges: [[{ subnet: "10.84.0.0/24" }]],
        },
      },
    ],
  });
}

describe("CNI versions with plugins 1.1.1", () => {
  it("0.4.0: ADD returns a 0.4.0 result, CHECK runs with it as prevResult, DEL cleans up", async () => {
    const world = await worlds.create("v040");
    const ctr = await world.container();
    const conf = list(world, { cniVersion: "0.4.0" });
    const rt = attachment(ctr);
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(conf, rt));

    expect(result.cniVersion).toBe("0.4.0");
    expect(result.ips).toEqual([
      { version: "4", interface: 2, address: "10.84.0.2/24", gateway: "10.84.0.1" },
    ]);
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.84.0.2/24"]);
    await cni.checkNetworkList(conf, rt);
    await cni.delNetworkList(conf, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "ADD bridge",
      "ADD host-local",
      "CHECK bridge",
      "CHECK host-local",
      "DEL bridge",
      "DEL host-local",
    ]);
  });

  it("0.3.1: CHECK is refused by the library before any plugin runs", async () => {
    const world = await worlds.create("v031");
    const ctr = await world.container();
    const conf = list(world, { cniVersion: "0.3.1" });
    const rt = attachment(ctr);
    const cni = cniFor(world);
    await cni.addNetworkList(conf, rt);
    await world.clearCalls();

    const error = await rejectionOf(cni.checkNetworkList(conf, rt));

    expect(error.message).toBe('configuration version "0.3.1" does not support the CHECK command');
    expect(await world.calls()).toEqual([]);
    await cni.delNetworkList(conf, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });

  it("cniVersions picks the highest version the library knows: 1.1.0, which plugins 1.1.1 refuse on ADD", async () => {
    const world = await worlds.create("v110");
    const ctr = await world.container();
    const conf = list(world, { cniVersion: "1.0.0", cniVersions: ["1.0.0", "1.1.0"] });
    expect(conf.cniVersion).toBe("1.1.0");
    const rt = attachment(ctr);
    const cni = cniFor(world);

    const error = await rejectionOf(cni.addNetworkList(conf, rt));

    expect(error.message).toMatch(
      /^plugin type="bridge" failed \(add\): incompatible CNI versions; /,
    );
    expect(cniErrorOf(error)).toMatchObject({
      code: 1,
      msg: "incompatible CNI versions",
      details:
        'config is "1.1.0", plugin supports ["0.1.0" "0.2.0" "0.3.0" "0.3.1" "0.4.0" "1.0.0"]',
    });
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });
});
