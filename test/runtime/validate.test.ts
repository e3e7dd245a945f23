/**
 * What a pod brings is checked when its plan is made, before any lock or plugin: the ID,
 * interface and network names by upstream's rules, the capability values by the conventions'
 * forms, ocicni's IP=/MAC= args as ocicni checks them.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIError, InvalidArgumentError } from "../../src/index.js";
import {
  CapabilityArgError,
  type CNIRuntime,
  InterfaceNameError,
  loadNetworks,
  staticAddressArgs,
} from "../../src/runtime/index.js";
import { parseMAC } from "../../src/runtime/plan.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("pod validation, before anything runs", () => {
  let d: Dirs;
  let fake: FakePlugins;
  let rt: CNIRuntime;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    await writeNetwork(d.confDir, "20-b.conflist", "b", ["macvlan"]);
    rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
  });
  afterEach(() => d.cleanup());

  const pod = { id: "pod1", netns: "/run/netns/pod1" };
  const refused = async (p: object, cls: unknown, argument: string): Promise<Error> => {
    const error = (await rt.setupPod({ ...pod, ...p }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(cls);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect((error as InvalidArgumentError).argument).toBe(argument);
    expect(fake.calls).toEqual([]);
    return error;
  };

  for (const [ifName, detail] of [
    ["eth/0", "interface name contains / or : or whitespace characters"],
    [".", "interface name is . or .."],
    ["a-very-long-name", "interface name is too long"],
    ["", "interface name is empty"],
  ] as const) {
    it(`an ifName of ${JSON.stringify(ifName)} is an InterfaceNameError, not a plugin failure`, async () => {
      const error = await refused(
        { networks: ["a", { name: "b", ifName }] },
        InterfaceNameError,
        "pod.networks[1].ifName",
      );
      expect(error.message).toContain(detail);
      expect(error.cause).toBeInstanceOf(CNIError);
      expect((error as InterfaceNameError).id).toBe("LIBCNI_ERR_INTERFACE_NAME");
    });
  }

  it("an interface prefix that makes names too long is refused as the runtime's option", async () => {
    const long = await loadNetworks({
      confDir: d.confDir,
      cacheDir: d.cacheDir,
      exec: fake.exec,
      interfacePrefix: "averyveryverylong",
    });
    const error = await long.setupPod(pod).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterfaceNameError);
    expect((error as InterfaceNameError).argument).toBe("interfacePrefix");
  });

  it("a pod ID that is not a valid container ID is refused with upstream's error as cause", async () => {
    for (const id of ["", "-x", "a b", "x/../y"]) {
      const error = await refused({ id }, InvalidArgumentError, "pod.id");
      expect(error.cause).toBeInstanceOf(CNIError);
    }
  });

  it("a network name that cannot make a cache path is refused", async () => {
    await writeFile(
      join(d.confDir, "30-bad.conflist"),
      JSON.stringify({ cniVersion: "1.0.0", name: "bad name", plugins: [{ type: "x" }] }),
    );
    await rt.reload();
    const error = await refused(
      { networks: ["bad name"] },
      InvalidArgumentError,
      "pod.networks[0]",
    );
    expect(error.message).toContain("invalid characters found in network name");
  });

  for (const [caps, argument] of [
    [{ ips: ["172.16"] }, "pod.capabilities.ips[0]"],
    [{ ips: ["10.1.0.5/33"] }, "pod.capabilities.ips[0]"],
    [{ mac: "f0:a6" }, "pod.capabilities.mac"],
    [{ mac: "f0:a6:00:00:00:0g" }, "pod.capabilities.mac"],
    [
      { portMappings: [{ hostPort: 0, containerPort: 80 }] },
      "pod.capabilities.portMappings[0].hostPort",
    ],
    [
      { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "icmp" }] },
      "pod.capabilities.portMappings[0].protocol",
    ],
    [
      { portMappings: [{ hostPort: 8080, containerPort: 80, hostIP: "1.2.3" }] },
      "pod.capabilities.portMappings[0].hostIP",
    ],
    [{ bandwidth: { ingressRate: -1 } }, "pod.capabilities.bandwidth.ingressRate"],
    [{ bandwidth: { egressBurst: 1.5 } }, "pod.capabilities.bandwidth.egressBurst"],
    [{ ipRanges: [[{ subnet: "10.0.0.0" }]] }, "pod.capabilities.ipRanges[0][0].subnet"],
    [
      { ipRanges: [[{ subnet: "10.0.0.0/8", gateway: "x" }]] },
      "pod.capabilities.ipRanges[0][0].gateway",
    ],
    [{ dns: { servers: ["dns.example"] } }, "pod.capabilities.dns.servers[0]"],
    [{ aliases: { a: "not-a-list" } }, 'pod.capabilities.aliases["a"]'],
    [{ podAnnotations: { k: 1 } }, 'pod.capabilities.podAnnotations["k"]'],
    [{ cgroupPath: 5 }, "pod.capabilities.cgroupPath"],
  ] as const) {
    it(`refuses ${JSON.stringify(caps)} naming ${argument}`, async () => {
      const error = await refused({ capabilities: caps }, CapabilityArgError, argument);
      expect((error as CapabilityArgError).id).toBe("LIBCNI_ERR_CAPABILITY_ARG");
      expect(error.message.startsWith(`${argument}: `)).toBe(true);
    });
  }

  it("checks a network's own capabilities, naming the request", async () => {
    await refused(
      { networks: [{ name: "a", capabilities: { mac: "nope" } }] },
      CapabilityArgError,
      "pod.networks[0].capabilities.mac",
    );
  });

  it("takes the forms the conventions allow", async () => {
    const result = await rt.setupPod({
      ...pod,
      capabilities: {
        ips: ["10.1.0.5/24", "10.1.0.6", "2001:db8::5/64", "2001:db8::6"],
        mac: "02:00:00:00:00:aa",
        portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "TCP", hostIP: "" }],
        bandwidth: { ingressRate: 0, egressRate: 1_000_000 },
        ipRanges: [[{ subnet: "10.2.0.0/16", rangeStart: "10.2.0.10", gateway: "10.2.0.1" }]],
        dns: { servers: ["10.0.0.10", "2001:db8::53"], searches: ["svc"], options: ["ndots:5"] },
        aliases: { a: ["web"] },
        podAnnotations: { k: "v" },
        cgroupPath: "/kubepods/pod1",
      },
    });
    expect(result.attachments).toHaveLength(2);
  });
});

describe("parseMAC (Go's net.ParseMAC)", () => {
  it("takes the three notations in 6, 8 and 20 octets", () => {
    expect(parseMAC("00:00:5e:00:53:01")).toEqual(Uint8Array.of(0, 0, 0x5e, 0, 0x53, 1));
    expect(parseMAC("00-00-5E-00-53-01")).toEqual(Uint8Array.of(0, 0, 0x5e, 0, 0x53, 1));
    expect(parseMAC("0000.5e00.5301")).toEqual(Uint8Array.of(0, 0, 0x5e, 0, 0x53, 1));
    expect(parseMAC("02:00:5e:10:00:00:00:01")).toHaveLength(8);
    expect(parseMAC("0200.5e10.0000.0001")).toHaveLength(8);
    expect(parseMAC(Array.from({ length: 20 }, () => "aa").join(":"))).toHaveLength(20);
  });

  it("refuses what Go refuses", () => {
    for (const s of [
      "f0:a6",
      "00:00:5e:00:53",
      "00:00:5e:00:53:01:02",
      "00:00-5e:00:53:01",
      "00:00:5e:00:53:0g",
      "0:00:5e:00:53:01",
      "0000.5e00.530",
      "00005e005301",
      "",
    ]) {
      expect(parseMAC(s), s).toBeUndefined();
    }
  });
});

describe("staticAddressArgs (ocicni's CNI_ARGS IP= and MAC=)", () => {
  it("gives the pairs ocicni sends", () => {
    expect(staticAddressArgs({ ip: "10.1.0.5", mac: "02:00:00:00:00:aa" })).toEqual([
      ["IP", "10.1.0.5"],
      ["MAC", "02:00:00:00:00:aa"],
    ]);
    expect(staticAddressArgs({})).toEqual([]);
  });

  it("refuses what ocicni refuses: a CIDR or a short address, a bad MAC", () => {
    expect(() => staticAddressArgs({ ip: "10.1.0.5/24" })).toThrow(CapabilityArgError);
    expect(() => staticAddressArgs({ ip: "172.16" })).toThrow(
      'ip: unable to parse IP address "172.16"',
    );
    expect(() => staticAddressArgs({ mac: "f0:a6" })).toThrow(
      'mac: unable to parse MAC address "f0:a6"',
    );
  });

  it("reaches the plugins as CNI_ARGS, after the pod's own args", async () => {
    const d = await dirs();
    try {
      const fake = new FakePlugins();
      await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
      const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
      await rt.setupPod({
        id: "p",
        netns: "/run/netns/p",
        args: [
          ["K8S_POD_NAME", "web"],
          ...staticAddressArgs({ ip: "10.1.0.5", mac: "02:00:00:00:00:aa" }),
        ],
      });
      expect(fake.calls[0].args).toBe("K8S_POD_NAME=web;IP=10.1.0.5;MAC=02:00:00:00:00:aa");
    } finally {
      await d.cleanup();
    }
  });
});
