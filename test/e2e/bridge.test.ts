/**
 * bridge + host-local + portmap + tuning, the chain most runtimes ship, driven by the library
 * against Debian's plugins 1.1.1 in namespaces: what ADD puts in the kernel, what CHECK sees,
 * what DEL removes.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { CNIError } from "../../src/errors/index.js";
import {
  addresses,
  ipamReservations,
  iptablesChains,
  iptablesRules,
  link,
  linksOfKind,
  ping,
  routes,
  sysctl,
} from "./harness/inspect.js";
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
import { inNetns } from "./harness/sh.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { containerChains, noTraces, tracesOf } from "./harness/traces.js";
import { eventually } from "./harness/wait.js";
import type { E2EWorld } from "./harness/world.js";

const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const network = "e2e-bridge";

interface ChainOptions {
  dualStack?: boolean;
  ipMasq?: boolean;
  portmap?: boolean;
  tuning?: boolean;
  disableCheck?: boolean;
}

/** The conflist: bridge (gateway, masquerade) with host-local, then portmap and tuning. */
function bridgeList(world: E2EWorld, options: ChainOptions = {}) {
  const plugins: Record<string, unknown>[] = [
    {
      type: "bridge",
      bridge: "cni-e2e0",
      isGateway: true,
      ipMasq: options.ipMasq !== false,
      ipam: {
        type: "host-local",
        dataDir: world.ipamDir,
        ranges:
          options.dualStack === true
            ? [[{ subnet: "10.77.0.0/24" }], [{ subnet: "fd77::/64" }]]
            : [[{ subnet: "10.77.0.0/24" }]],
        routes:
          options.dualStack === true
            ? [{ dst: "0.0.0.0/0" }, { dst: "::/0" }]
            : [{ dst: "0.0.0.0/0" }],
      },
    },
  ];
  if (options.portmap !== false) {
    plugins.push({ type: "portmap", capabilities: { portMappings: true }, snat: true });
  }
  if (options.tuning !== false) {
    plugins.push({
      type: "tuning",
      dataDir: join(world.root, "tuning"),
      mtu: 1400,
      sysctl: { "net.ipv4.conf.eth0.arp_ignore": "1", "net.ipv4.conf.eth0.arp_announce": "2" },
    });
  }
  return confList({
    cniVersion: "1.0.0",
    name: network,
    ...(options.disableCheck === true ? { disableCheck: true } : {}),
    plugins,
  });
}

const portMappings = [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }];

describe("bridge + host-local + portmap + tuning (plugins 1.1.1 in namespaces)", () => {
  it("ADD configures the container: address, routes, sysctls, MTU, gateway reachable, DNAT, cache", async () => {
    const world = await worlds.create("bridge-add");
    const ctr = await world.container();
    const list = bridgeList(world);
    const rt = attachment(ctr, "eth0", { capabilityArgs: { portMappings } });
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(list, rt));

    // The result: the chain's last plugin (tuning) passes bridge's result through.
    expect(result.cniVersion).toBe("1.0.0");
    expect(result.ips).toEqual([{ address: "10.77.0.2/24", gateway: "10.77.0.1", interface: 2 }]);
    expect(result.interfaces?.map((i) => i.name)).toEqual([
      "cni-e2e0",
      expect.stringMatching(/^veth/),
      "eth0",
    ]);
    expect(result.interfaces?.[2]?.sandbox).toBe(ctr.netnsPath);
    // Inside the container.
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.77.0.2/24"]);
    expect(await routes(ctr.ns)).toContainEqual({
      dst: "default",
      gateway: "10.77.0.1",
      dev: "eth0",
    });
    expect(await sysctl(ctr.ns, "net.ipv4.conf.eth0.arp_ignore")).toBe("1");
    expect(await sysctl(ctr.ns, "net.ipv4.conf.eth0.arp_announce")).toBe("2");
    expect((await link(ctr.ns, "eth0"))?.mtu).toBe(1400);
    expect(await ping(ctr.ns, "10.77.0.1")).toBe(true);
    // On the host side.
    expect(await addresses(world.hostNs, "cni-e2e0")).toEqual(["10.77.0.1/24"]);
    expect(await linksOfKind(world.hostNs, "veth")).toHaveLength(1);
    const nat = await iptablesRules(world.hostNs, "nat");
    expect(nat.filter((l) => l.includes("--to-destination 10.77.0.2:80"))).toHaveLength(1);
    expect(nat.some((l) => l.includes("--dport 8080"))).toBe(true);
    expect(nat.some((l) => l.includes("-j MASQUERADE") && l.includes(`id: \\"${ctr.id}\\"`))).toBe(
      true,
    );
    expect(await ipamReservations(world.ipamDir, network)).toEqual([
      { ip: "10.77.0.2", containerID: ctr.id, ifName: "eth0" },
    ]);
    // Each plugin once, in order (bridge delegating to host-local).
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "ADD bridge",
      "ADD host-local",
      "ADD portmap",
      "ADD tuning",
    ]);
    // The cache: the record exists and the library reads the same result back.
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(true);
    const cached = await cni.getNetworkListCachedResult(list, rt);
    expect(cached === undefined ? undefined : resultJSON(cached)).toEqual(result);
    // The record a Go runtime on the same host would read: upstream's field order, the list's
    // own bytes, the attachment's netns and capability args, the final result.
    const record = JSON.parse(
      await readFile(cacheRecordPath(world, network, rt), "utf8"),
    ) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual([
      "kind",
      "containerId",
      "config",
      "ifName",
      "networkName",
      "netns",
      "capabilityArgs",
      "result",
    ]);
    expect(record).toMatchObject({
      kind: "cniCacheV1",
      containerId: ctr.id,
      ifName: "eth0",
      networkName: network,
      netns: ctr.netnsPath,
      capabilityArgs: { portMappings },
      result,
    });
    expect(Buffer.from(String(record.config), "base64")).toEqual(Buffer.from(list.bytes));

    await cni.delNetworkList(list, rt);
  });

  it("DEL runs the chain in reverse and leaves no veth, IP reservation, NAT chain or cache record", async () => {
    const world = await worlds.create("bridge-del");
    const ctr = await world.container();
    const list = bridgeList(world);
    const rt = attachment(ctr, "eth0", { capabilityArgs: { portMappings } });
    const cni = cniFor(world);
    await cni.addNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).not.toEqual(noTraces);
    expect((await iptablesChains(world.hostNs, "nat")).some((c) => c.startsWith("CNI-DN-"))).toBe(
      true,
    );
    await world.clearCalls();

    await cni.delNetworkList(list, rt);

    expect(
      (await world.calls()).map((c) => `${c.command} ${c.plugin} ${c.containerID} ${c.ifName}`),
    ).toEqual([
      `DEL tuning ${ctr.id} eth0`,
      `DEL portmap ${ctr.id} eth0`,
      `DEL bridge ${ctr.id} eth0`,
      `DEL host-local ${ctr.id} eth0`,
    ]);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
    expect(await ipamReservations(world.ipamDir, network)).toEqual([]);
    expect(
      (await iptablesChains(world.hostNs, "nat")).filter((c) => c.startsWith("CNI-DN-")),
    ).toEqual([]);
    expect(await link(ctr.ns, "eth0")).toBeUndefined();
    // tuning's backup of the original MTU is gone with the attachment.
    expect(await readdir(join(world.root, "tuning")).catch(() => [])).toEqual([]);
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);

    // A second DEL (no cache left, so no prevResult) still succeeds, as the spec asks.
    await world.clearCalls();
    await cni.delNetworkList(list, rt);
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "DEL tuning",
      "DEL portmap",
      "DEL bridge",
      "DEL host-local",
    ]);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });

  it("DEL after the container's namespace is gone frees the IP, veth and DNAT (bridge 1.1.1 leaks its masquerade chain)", async () => {
    const world = await worlds.create("bridge-gone");
    const ctr = await world.container();
    const list = bridgeList(world);
    const rt = attachment(ctr, "eth0", { capabilityArgs: { portMappings } });
    const cni = cniFor(world);
    await cni.addNetworkList(list, rt);

    await world.removeContainer(ctr);
    await cni.delNetworkList(list, rt);

    const [masqChain, dnatChain] = containerChains(network, ctr.id);
    const traces = await tracesOf(world, network, [ctr.id]);
    expect(traces).toMatchObject({ veths: [], reservations: [], cacheRecords: [] });
    // portmap got the cached result as prevResult and removed its DNAT chain.
    expect(traces.natLines.filter((l) => l.includes(dnatChain ?? "<none>"))).toEqual([]);
    // bridge 1.1.1 learns the addresses to unmasquerade from the container's interface; with
    // the namespace gone it returns success and leaves its ipMasq chain (plugin behaviour, not
    // the library's: it is in docs/deviations/e2e.md).
    expect(traces.natLines).toContain(`-N ${masqChain}`);
    expect(traces.natLines.every((l) => l.includes(masqChain ?? "<none>"))).toBe(true);
  });

  it("CHECK passes on a healthy attachment (bridge + host-local + tuning) and fails once its address is gone", async () => {
    const world = await worlds.create("bridge-check");
    const ctr = await world.container();
    // Without ipMasq: bridge 1.1.1 finds what to unmasquerade on the interface, which this
    // test strips of its address.
    const list = bridgeList(world, { portmap: false, ipMasq: false });
    const rt = attachment(ctr);
    const cni = cniFor(world);
    await cni.addNetworkList(list, rt);
    await world.clearCalls();

    await cni.checkNetworkList(list, rt);
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "CHECK bridge",
      "CHECK host-local",
      "CHECK tuning",
    ]);

    // Break the attachment behind the plugins' back: the real bridge CHECK must notice.
    await inNetns(ctr.ns, "ip", ["addr", "flush", "dev", "eth0"]);
    const error = await rejectionOf(cni.checkNetworkList(list, rt));
    expect(cniErrorOf(error)?.message).toMatch(/10\.77\.0\.2/);

    await cni.delNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });

  it("CHECK with portmap fails in plugins 1.1.1 whenever ip6tables works (containernetworking/plugins#819)", async () => {
    const world = await worlds.create("bridge-819");
    const ctr = await world.container();
    const list = bridgeList(world);
    const rt = attachment(ctr, "eth0", { capabilityArgs: { portMappings } });
    const cni = cniFor(world);
    await cni.addNetworkList(list, rt);
    await world.clearCalls();

    const error = await rejectionOf(cni.checkNetworkList(list, rt));

    // portmap 1.1.1 checks an IPv6 DNAT chain it never created for an IPv4-only container.
    // The library passes the plugin's error through unwrapped (upstream CHECK does not wrap).
    expect(error).toBeInstanceOf(CNIError);
    expect((error as CNIError).code).toBe(999);
    expect((error as CNIError).msg).toMatch(
      /^could not check ipv6 dnat: chain CNI-DN-[0-9a-f]+ not found/,
    );
    // The chain stopped at portmap: tuning never ran.
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "CHECK bridge",
      "CHECK host-local",
      "CHECK portmap",
    ]);

    await cni.delNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });

  it("dual stack: both families configured and reachable; portmap 1.1.1 CHECK then looks for the IPv4 rules in the IPv6 chain (#819)", async () => {
    const world = await worlds.create("bridge-dual");
    const ctr = await world.container();
    const list = bridgeList(world, { dualStack: true, tuning: false });
    const rt = attachment(ctr, "eth0", { capabilityArgs: { portMappings } });
    const cni = cniFor(world);

    const result = resultJSON(await cni.addNetworkList(list, rt));

    expect(result.ips).toEqual([
      { address: "10.77.0.2/24", gateway: "10.77.0.1", interface: 2 },
      { address: "fd77::2/64", gateway: "fd77::1", interface: 2 },
    ]);
    expect(await addresses(ctr.ns, "eth0")).toEqual(["10.77.0.2/24", "fd77::2/64"]);
    expect(await routes(ctr.ns, 6)).toContainEqual({
      dst: "default",
      gateway: "fd77::1",
      dev: "eth0",
    });
    expect(await ping(ctr.ns, "10.77.0.1")).toBe(true);
    expect(await eventually(() => ping(ctr.ns, "fd77::1"))).toBe(true);
    const nat6 = await iptablesRules(world.hostNs, "nat", 6);
    expect(nat6.filter((l) => l.includes("--to-destination [fd77::2]:80"))).toHaveLength(1);
    await world.clearCalls();

    const error = await rejectionOf(cni.checkNetworkList(list, rt));

    expect(error).toBeInstanceOf(CNIError);
    expect((error as CNIError).code).toBe(999);
    expect((error as CNIError).msg).toMatch(
      /^could not check ipv6 dnat: rule \[.*--to-destination 10\.77\.0\.2:80\]\] in chain CNI-DN-[0-9a-f]+ not found in table nat$/,
    );
    expect((await world.calls()).map((c) => `${c.command} ${c.plugin}`)).toEqual([
      "CHECK bridge",
      "CHECK host-local",
      "CHECK portmap",
    ]);

    await cni.delNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
    expect(
      (await iptablesRules(world.hostNs, "nat", 6)).filter((l) => l.includes("fd77::2")),
    ).toEqual([]);
  });

  it("disableCheck (the runtime-side workaround for #819) makes CHECK succeed without running a plugin", async () => {
    const world = await worlds.create("bridge-nocheck");
    const ctr = await world.container();
    const list = bridgeList(world, { disableCheck: true });
    const rt = attachment(ctr, "eth0", { capabilityArgs: { portMappings } });
    const cni = cniFor(world);
    await cni.addNetworkList(list, rt);
    await world.clearCalls();

    await cni.checkNetworkList(list, rt);

    expect(await world.calls()).toEqual([]);
    await cni.delNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });

  it("a failing ADD leaves no cache record and DEL cleans up what the chain did create", async () => {
    const world = await worlds.create("bridge-fail");
    const ctr = await world.container();
    // tuning cannot write a sysctl that does not exist: the chain fails at its end.
    const list = confList({
      cniVersion: "1.0.0",
      name: network,
      plugins: [
        {
          type: "bridge",
          bridge: "cni-e2e0",
          isGateway: true,
          ipam: {
            type: "host-local",
            dataDir: world.ipamDir,
            ranges: [[{ subnet: "10.77.0.0/24" }]],
          },
        },
        {
          type: "tuning",
          dataDir: join(world.root, "tuning"),
          sysctl: { "net.ipv4.conf.eth0.no_such_sysctl": "1" },
        },
      ],
    });
    const rt = attachment(ctr);
    const cni = cniFor(world);

    const error = await rejectionOf(cni.addNetworkList(list, rt));

    expect(error.message).toMatch(/^plugin type="tuning" failed \(add\): /);
    expect(cniErrorOf(error)).toBeDefined();
    expect(await exists(cacheRecordPath(world, network, rt))).toBe(false);
    // bridge did its part before tuning failed: the runtime's DEL must undo it.
    expect(await ipamReservations(world.ipamDir, network)).toHaveLength(1);
    await cni.delNetworkList(list, rt);
    expect(await tracesOf(world, network, [ctr.id])).toEqual(noTraces);
  });
});
