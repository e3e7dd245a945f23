/**
 * GC and STATUS against plugins 1.1.1. Those plugins stop at CNI 1.0.0, so with a 1.0.0 list
 * the library's own part of GC (DEL of stale cached attachments) is what frees resources, and
 * STATUS is answered by the library without running a plugin. With a 1.1.0 list the plugins
 * refuse: the tests pin how the library reports that.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ipamReservations, linksOfKind, ping } from "./harness/inspect.js";
import {
  attachment,
  cacheRecordPath,
  cniErrorOf,
  cniFor,
  confList,
  exists,
  rejectionOf,
} from "./harness/library.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { containerChains, noTraces, tracesOf } from "./harness/traces.js";
import type { E2EWorld } from "./harness/world.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-gc";

function gcList(world: E2EWorld, cniVersion: string, extra: Record<string, unknown> = {}) {
  return confList({
    cniVersion,
    name: network,
    ...extra,
    plugins: [
      {
        type: "bridge",
        bridge: "cni-gc0",
        isGateway: true,
        ipMasq: true,
        ipam: {
          type: "host-local",
          dataDir: world.ipamDir,
          ranges: [[{ subnet: "10.82.0.0/24" }]],
        },
      },
      { type: "portmap", capabilities: { portMappings: true } },
    ],
  });
}

async function twoContainers(world: E2EWorld) {
  const list = gcList(world, "1.0.0");
  const cni = cniFor(world);
  const keep = await world.container("keep");
  const stale = await world.container("stale");
  const keepRt = attachment(keep, "eth0", {
    capabilityArgs: { portMappings: [{ hostPort: 8081, containerPort: 80, protocol: "tcp" }] },
  });
  const staleRt = attachment(stale, "eth0", {
    capabilityArgs: { portMappings: [{ hostPort: 8082, containerPort: 80, protocol: "tcp" }] },
  });
  await cni.addNetworkList(list, keepRt);
  await cni.addNetworkList(list, staleRt);
  expect(await ipamReservations(world.ipamDir, network)).toHaveLength(2);
  await world.clearCalls();
  return { list, cni, keep, stale, keepRt, staleRt };
}

describe("GC (plugins 1.1.1, cniVersion 1.0.0)", () => {
  it("frees a stale attachment's IP, veth, NAT chain and cache record, and keeps the valid one", async () => {
    const world = await worlds.create("gc");
    const { list, cni, keep, stale, keepRt, staleRt } = await twoContainers(world);

    await cni.gcNetworkList(list, { validAttachments: [{ containerID: keep.id, ifname: "eth0" }] });

    // The stale attachment got a DEL with its cached capabilityArgs (portmap found its chain);
    // below 1.1.0 no plugin is sent GC.
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.containerID}`)).toEqual([
      `DEL portmap ${stale.id}`,
      `DEL bridge ${stale.id}`,
      `DEL host-local ${stale.id}`,
    ]);
    expect(await tracesOf(world, network, [stale.id])).toMatchObject({
      reservations: [],
      natLines: [],
      cacheRecords: [],
    });
    expect(await exists(cacheRecordPath(world, network, staleRt))).toBe(false);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([
      { ip: "10.82.0.2", containerID: keep.id, ifName: "eth0" },
    ]);
    expect(await linksOfKind(world.hostNs, "veth")).toHaveLength(1);
    expect(await ping(keep.ns, "10.82.0.1")).toBe(true);
    expect(await exists(cacheRecordPath(world, network, keepRt))).toBe(true);

    // The freed address is handed out again.
    const next = await world.container("next");
    await cni.addNetworkList(list, attachment(next));
    expect(
      (await ipamReservations(world.ipamDir, network)).map((r) => r.containerID).sort(),
    ).toEqual([keep.id, next.id].sort());

    await cni.delNetworkList(list, keepRt);
    await cni.delNetworkList(list, attachment(next));
    expect(await tracesOf(world, network, [keep.id, stale.id, next.id])).toEqual(noTraces);
  });

  it("frees the IP of a stale attachment whose namespace is already gone (the usual case: the container died)", async () => {
    const world = await worlds.create("gc-gone");
    const { list, cni, keep, stale, keepRt } = await twoContainers(world);
    await world.removeContainer(stale);

    await cni.gcNetworkList(list, { validAttachments: [{ containerID: keep.id, ifname: "eth0" }] });

    const [masqChain, dnatChain] = containerChains(network, stale.id);
    const traces = await tracesOf(world, network, [stale.id]);
    expect(traces).toMatchObject({ reservations: [], cacheRecords: [] });
    // Only the kept container's veth is left on the host.
    expect(await linksOfKind(world.hostNs, "veth")).toHaveLength(1);
    expect(traces.natLines.filter((l) => l.includes(dnatChain ?? "<none>"))).toEqual([]);
    // bridge 1.1.1 cannot find the addresses to un-masquerade without the namespace (see
    // docs/deviations/e2e.md): only its masquerade chain is left.
    expect(traces.natLines).toContain(`-N ${masqChain}`);
    expect(traces.natLines.every((l) => l.includes(masqChain ?? "<none>"))).toBe(true);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([
      { ip: "10.82.0.2", containerID: keep.id, ifName: "eth0" },
    ]);

    await cni.delNetworkList(list, keepRt);
  });

  it("with no GC arguments deletes every cached attachment of the network", async () => {
    const world = await worlds.create("gc-all");
    const { list, cni, keep, stale } = await twoContainers(world);

    await cni.gcNetworkList(list, undefined);

    expect(await tracesOf(world, network, [keep.id, stale.id])).toEqual(noTraces);
    expect(
      (await world.calls())
        .filter((c) => c.command === "DEL" && c.plugin === "bridge")
        .map((c) => c.containerID)
        .sort(),
    ).toEqual([keep.id, stale.id].sort());
  });

  it("disableGC: nothing is deleted and no plugin runs", async () => {
    const world = await worlds.create("gc-disabled");
    const { cni, keep, stale, keepRt, staleRt } = await twoContainers(world);
    const disabled = gcList(world, "1.0.0", { disableGC: true });

    await cni.gcNetworkList(disabled, { validAttachments: [] });

    expect(await world.calls()).toEqual([]);
    expect(await ipamReservations(world.ipamDir, network)).toHaveLength(2);
    await cni.delNetworkList(disabled, keepRt);
    await cni.delNetworkList(disabled, staleRt);
    expect(await tracesOf(world, network, [keep.id, stale.id])).toEqual(noTraces);
  });

  it("with a 1.1.0 list, plugins 1.1.1 refuse both the stale DEL and GC: all errors are reported, the stale IP stays", async () => {
    const world = await worlds.create("gc-110");
    const { cni, keep, stale, keepRt, staleRt } = await twoContainers(world);
    const v110 = gcList(world, "1.1.0");

    const error = await rejectionOf(
      cni.gcNetworkList(v110, { validAttachments: [{ containerID: keep.id, ifname: "eth0" }] }),
    );

    // One line per error, as Go's errors.Join: the stale DEL (portmap first, in reverse order)
    // refused the version, then each plugin's GC was refused: skel 1.1.1 validates
    // CNI_CONTAINERID before it looks at the command, and libcni sends GC with it empty.
    const lines = error.message.split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(
        `^failed to delete stale attachment ${stale.id} eth0: plugin type="portmap" failed \\(delete\\): incompatible CNI versions; config is "1\\.1\\.0"`,
      ),
    );
    expect(lines[1]).toBe("failed to GC plugin bridge: missing containerID");
    expect(lines[2]).toBe("failed to GC plugin portmap: missing containerID");
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.containerID}`)).toEqual([
      `DEL portmap ${stale.id}`,
      "GC bridge ",
      "GC portmap ",
    ]);
    // The failed DEL keeps the cache record, so a later GC (or DEL) can retry.
    expect(await exists(cacheRecordPath(world, network, staleRt))).toBe(true);
    expect(await ipamReservations(world.ipamDir, network)).toHaveLength(2);

    const v100 = gcList(world, "1.0.0");
    await cni.delNetworkList(v100, keepRt);
    await cni.delNetworkList(v100, staleRt);
    expect(await tracesOf(world, network, [keep.id, stale.id])).toEqual(noTraces);
  });
});

describe("STATUS (plugins 1.1.1)", () => {
  it("below 1.1.0 the library answers without running a plugin", async () => {
    const world = await worlds.create("status-100");

    await cniFor(world).getStatusNetworkList(gcList(world, "1.0.0"));

    expect(await world.calls()).toEqual([]);
  });

  it("at 1.1.0 the first plugin's refusal is returned unwrapped as its CNIError and the chain stops", async () => {
    const world = await worlds.create("status-110");

    const error = await rejectionOf(cniFor(world).getStatusNetworkList(gcList(world, "1.1.0")));

    // skel 1.1.1 checks CNI_CONTAINERID (empty for STATUS) before the command, so the answer
    // is code 3 rather than "unknown CNI_COMMAND: STATUS".
    expect(cniErrorOf(error)).toMatchObject({ code: 3, msg: "missing containerID" });
    expect(error.message).toBe("missing containerID");
    expect(
      (await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.containerID} ${c.ifName}`),
    ).toEqual(["STATUS bridge  "]);
  });
});
