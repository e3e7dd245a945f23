/** loopback (plugins 1.1.1) driven by the library: `lo` comes up with its addresses, and goes down on DEL. */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { addresses, link, ping } from "./harness/inspect.js";
import {
  attachment,
  cacheRecordPath,
  cniFor,
  confList,
  exists,
  resultJSON,
} from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

describe("loopback (plugins 1.1.1 in a namespace)", () => {
  it("ADD brings lo up with 127.0.0.1/8 and ::1, CHECK passes, DEL takes it down", async () => {
    const world = await worlds.create("loopback");
    const ctr = await world.container();
    const list = confList({ cniVersion: "1.0.0", name: "e2e-lo", plugins: [{ type: "loopback" }] });
    const rt = attachment(ctr, "lo");
    const cni = cniFor(world);
    expect((await link(ctr.ns, "lo"))?.flags).not.toContain("UP");
    expect(await ping(ctr.ns, "127.0.0.1")).toBe(false);

    const result = resultJSON(await cni.addNetworkList(list, rt));

    expect(result).toMatchObject({
      cniVersion: "1.0.0",
      interfaces: [{ name: "lo", mac: "00:00:00:00:00:00", sandbox: ctr.netnsPath }],
      ips: [
        { interface: 0, address: "127.0.0.1/8" },
        { interface: 0, address: "::1/128" },
      ],
    });
    expect((await link(ctr.ns, "lo"))?.flags).toContain("UP");
    expect(await addresses(ctr.ns, "lo")).toEqual(["127.0.0.1/8", "::1/128"]);
    expect(await ping(ctr.ns, "127.0.0.1")).toBe(true);
    expect(await ping(ctr.ns, "::1")).toBe(true);
    expect(await exists(cacheRecordPath(world, "e2e-lo", rt))).toBe(true);

    await cni.checkNetworkList(list, rt);

    await cni.delNetworkList(list, rt);
    expect((await link(ctr.ns, "lo"))?.flags).not.toContain("UP");
    expect(await ping(ctr.ns, "127.0.0.1")).toBe(false);
    expect(await exists(cacheRecordPath(world, "e2e-lo", rt))).toBe(false);
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.ifName}`)).toEqual([
      "ADD loopback lo",
      "CHECK loopback lo",
      "DEL loopback lo",
    ]);
  });
});
