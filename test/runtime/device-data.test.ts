/**
 * networkDeviceData: a pod's setup result or podStatus as KEP-4817 NetworkDeviceData, one entry
 * per interface inside the pod, checked against the API server's rules for
 * `status.devices[].networkData` (Kubernetes' validateNetworkDeviceData and
 * IsValidInterfaceAddress), each failure naming its field.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError, LibcniError } from "../../src/errors/index.js";
import {
  type InterfaceSummary,
  loadNetworks,
  type NetworkDeviceData,
  NetworkDeviceDataError,
  networkDeviceData,
  validateNetworkDeviceData,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

function rejection(fn: () => unknown): NetworkDeviceDataError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(NetworkDeviceDataError);
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toBeInstanceOf(LibcniError);
    return error as NetworkDeviceDataError;
  }
  throw new Error("did not throw");
}

const iface = (over: Partial<InterfaceSummary>): InterfaceSummary => ({
  name: "eth0",
  network: "pods",
  sandbox: "/run/netns/p1",
  ips: [],
  ...over,
});

describe("networkDeviceData", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
  });
  afterEach(() => d.cleanup());

  it("gives one entry per pod interface, from setupPod's result and from podStatus alike", async () => {
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"]);
    await writeNetwork(d.confDir, "20-storage.conflist", "storage", ["ptp"]);
    const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    const setup = await rt.setupPod({ id: "p1", netns: "/run/netns/p1" });
    const expected = [
      {
        network: "pods",
        networkData: {
          interfaceName: "eth0",
          ips: ["10.1.0.2/24"],
          hardwareAddress: "02:00:00:00:01:01",
        },
      },
      {
        network: "storage",
        networkData: {
          interfaceName: "net1",
          ips: ["10.2.0.2/24"],
          hardwareAddress: "02:00:00:00:01:02",
        },
      },
    ];
    // The veths' host ends (no sandbox) are not the pod's interfaces.
    expect(networkDeviceData(setup)).toEqual(expected);
    expect(networkDeviceData(await rt.podStatus("p1"))).toEqual(expected);
  });

  it("leaves out what a plugin did not report, and lo unless asked for", () => {
    const pod = {
      interfaces: [
        iface({ name: "lo", network: "cni-loopback", mac: "00:00:00:00:00:00" }),
        iface({ name: "eth0" }),
        iface({ name: "cni0", sandbox: undefined, ips: [{ address: "10.88.0.1/24" }] }),
      ],
    };
    expect(networkDeviceData(pod)).toEqual([
      { network: "pods", networkData: { interfaceName: "eth0" } },
    ]);
    expect(networkDeviceData(pod, { includeLoopback: true }).map((e) => e.networkData)).toEqual([
      { interfaceName: "lo", hardwareAddress: "00:00:00:00:00:00" },
      { interfaceName: "eth0" },
    ]);
  });

  it("names the network, the interface and the field a result breaks a rule with", () => {
    const ips = Array.from({ length: 17 }, (_, i) => ({ address: `10.0.0.${i + 1}/24` }));
    const e = rejection(() => networkDeviceData({ interfaces: [iface({ name: "net1", ips })] }));
    expect(e.argument).toBe("networkData.ips");
    expect(e.reason).toBe("too-many");
    expect(e.network).toBe("pods");
    expect(e.id).toBe("LIBCNI_ERR_NETWORK_DEVICE_DATA");
    expect(e.message).toBe(
      "network pods (net1): networkData.ips: Too many: 17: must have at most 16 items",
    );
    const twice = [{ address: "10.0.0.2/24" }, { address: "10.0.0.2/24" }];
    const dup = rejection(() => networkDeviceData({ interfaces: [iface({ ips: twice })] }));
    expect([dup.argument, dup.reason]).toEqual(["networkData.ips[1]", "duplicate"]);
  });
});

describe("networkDeviceData given what is not a setup result or pod status", () => {
  const at0 = (over: Record<string, unknown>) => ({
    interfaces: [{ name: "eth0", network: "pods", sandbox: "/run/netns/p1", ips: [], ...over }],
  });
  it.each([
    ["null", null, "pod"],
    ["an array", [], "pod"],
    ["no interfaces", {}, "pod.interfaces"],
    ["interfaces: null", { interfaces: null }, "pod.interfaces"],
    ["interfaces: [null]", { interfaces: [null] }, "pod.interfaces[0]"],
    [
      "an interface without ips",
      { interfaces: [{ name: "eth0", network: "pods", sandbox: "/x" }] },
      "pod.interfaces[0].ips",
    ],
    ["ips: null", at0({ ips: null }), "pod.interfaces[0].ips"],
    ["ips: [null]", at0({ ips: [null] }), "pod.interfaces[0].ips[0].address"],
    ["ips: [{}]", at0({ ips: [{}] }), "pod.interfaces[0].ips[0].address"],
    ["an address not a string", at0({ ips: [{ address: 5 }] }), "pod.interfaces[0].ips[0].address"],
    ["name: null", at0({ name: null }), "pod.interfaces[0].name"],
    ["no network", at0({ network: undefined }), "pod.interfaces[0].network"],
    ["sandbox: null", at0({ sandbox: null }), "pod.interfaces[0].sandbox"],
    ["mac: 5", at0({ mac: 5 }), "pod.interfaces[0].mac"],
  ])("%s: an InvalidArgumentError naming the field, never a TypeError", (_, pod, argument) => {
    let thrown: unknown;
    try {
      networkDeviceData(pod as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidArgumentError);
    expect(thrown).not.toBeInstanceOf(NetworkDeviceDataError);
    expect((thrown as InvalidArgumentError).argument).toBe(argument);
    expect((thrown as Error).message).toMatch(
      new RegExp(`^${argument.replace(/[.[\]]/g, "\\$&")} must be `),
    );
  });

  it("a JSON round trip of a setup result is still one", async () => {
    const pod = { interfaces: [iface({ ips: [{ address: "10.1.0.2/24", gateway: "10.1.0.1" }] })] };
    expect(networkDeviceData(JSON.parse(JSON.stringify(pod)))).toEqual(networkDeviceData(pod));
  });
});

describe("networkDeviceData and omitempty", () => {
  let d: Dirs;
  beforeEach(async () => {
    d = await dirs();
  });
  afterEach(() => d.cleanup());

  it('an interface a plugin named null (Go\'s "") has no interfaceName, as the API leaves it out', async () => {
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"]);
    const fake = new FakePlugins();
    const play = fake.exec.execPluginCall.handler;
    fake.exec.execPluginCall.handler = async (call) => {
      const out = await play?.(call);
      if (typeof out !== "string" || out === "") return out ?? "";
      const result = JSON.parse(out);
      result.interfaces[1].name = null;
      return JSON.stringify(result);
    };
    const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    const setup = await rt.setupPod({ id: "p1", netns: "/run/netns/p1" });
    const entries = networkDeviceData(setup);
    expect(entries).toEqual([
      {
        network: "pods",
        networkData: { ips: ["10.1.0.2/24"], hardwareAddress: "02:00:00:00:01:01" },
      },
    ]);
    expect(Object.keys(entries[0].networkData)).not.toContain("interfaceName");
    expect(networkDeviceData(await rt.podStatus("p1"))).toEqual(entries);
  });
});

describe("validateNetworkDeviceData", () => {
  it("accepts what the API server accepts, at the limits", () => {
    const atLimits: NetworkDeviceData = {
      interfaceName: "x".repeat(256),
      ips: [
        ...Array.from({ length: 14 }, (_, i) => `192.0.2.${i + 1}/24`),
        "2001:db8::5/64",
        "10.1.2.3/32",
      ],
      hardwareAddress: "h".repeat(128),
    };
    expect(() => validateNetworkDeviceData(atLimits)).not.toThrow();
    expect(() => validateNetworkDeviceData({})).not.toThrow();
  });

  it.each([
    [{ interfaceName: "x".repeat(257) }, "networkData.interfaceName", "too-long"],
    // Bytes, as Go's len(): 129 two-byte characters are 258 bytes.
    [{ interfaceName: "é".repeat(129) }, "networkData.interfaceName", "too-long"],
    [{ hardwareAddress: "h".repeat(129) }, "networkData.hardwareAddress", "too-long"],
    [{ ips: Array.from({ length: 17 }, (_, i) => `10.0.0.${i}/8`) }, "networkData.ips", "too-many"],
    [{ ips: ["10.0.0.1"] }, "networkData.ips[0]", "invalid"],
    [{ ips: ["10.0.0.1/24", "10.0.0.1/33"] }, "networkData.ips[1]", "invalid"],
    [{ ips: ["fe80::1%eth0/64"] }, "networkData.ips[0]", "invalid"],
    [{ ips: ["2001:DB8::1/64"] }, "networkData.ips[0]", "invalid"],
    [{ ips: ["2001:db8:0:0::1/64"] }, "networkData.ips[0]", "invalid"],
    [{ ips: ["::ffff:10.0.0.1/120"] }, "networkData.ips[0]", "invalid"],
    [{ ips: ["10.0.0.1/024"] }, "networkData.ips[0]", "invalid"],
    [{ ips: ["10.0.0.1/24", "10.0.0.2/24", "10.0.0.1/24"] }, "networkData.ips[2]", "duplicate"],
    [{ interfaceName: 7 }, "networkData.interfaceName", "invalid"],
    [{ ips: "10.0.0.1/24" }, "networkData.ips", "invalid"],
    [null, "networkData", "invalid"],
  ])("refuses %j: %s %s", (data, argument, reason) => {
    const e = rejection(() => validateNetworkDeviceData(data as NetworkDeviceData));
    expect([e.argument, e.reason, e.network]).toEqual([argument, reason, undefined]);
    expect(e.message.startsWith(`${argument}: `)).toBe(true);
  });

  it("says what the canonical form is, in the API server's words", () => {
    expect(rejection(() => validateNetworkDeviceData({ ips: ["2001:DB8::1/64"] })).message).toBe(
      'networkData.ips[0]: Invalid value: "2001:DB8::1/64": must be in canonical form ("2001:db8::1/64")',
    );
    expect(rejection(() => validateNetworkDeviceData({ ips: ["10.0.0.1"] })).message).toBe(
      'networkData.ips[0]: Invalid value: "10.0.0.1": must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)',
    );
    expect(
      rejection(() => validateNetworkDeviceData({ hardwareAddress: "h".repeat(129) })).message,
    ).toBe("networkData.hardwareAddress: Too long: may not be more than 128 bytes");
  });
});
