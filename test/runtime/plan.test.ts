import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/index.js";
import { compareIfNames } from "../../src/runtime/cached-pod.js";
import {
  InterfaceNameError,
  loadNetworks,
  NetworkNotFoundError,
  planPod,
} from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("planPod: interface names and runtime confs", () => {
  let d: Dirs;
  beforeEach(async () => {
    d = await dirs();
    for (const n of ["a", "b", "c"]) await writeNetwork(d.confDir, `10-${n}.conflist`, n);
  });
  afterEach(() => d.cleanup());

  const set = async (extra: object = {}) =>
    (await loadNetworks({ confDir: d.confDir, exec: new FakePlugins().exec, ...extra })).networkSet;
  const names = (plan: { network: { name: string }; ifName: string }[]) =>
    plan.map((p) => `${p.network.name}:${p.ifName}`);

  it("allocates eth0, net1, net2 over every network by default, lo for loopback", async () => {
    const s = await set({ loopback: true });
    expect(names(planPod(s, { id: "p", netns: "/n" }, undefined))).toEqual([
      "cni-loopback:lo",
      "a:eth0",
      "b:net1",
      "c:net2",
    ]);
  });

  it("gives lo to a pod that names its networks when the runtime has loopback (ocicni, go-cni's WithLoNetwork)", async () => {
    const s = await set({ loopback: true });
    expect(names(planPod(s, { id: "p", netns: "/n", networks: ["b"] }, undefined))).toEqual([
      "cni-loopback:lo",
      "b:eth0",
    ]);
    // Named by the pod: once, where the pod put it.
    expect(
      names(planPod(s, { id: "p", netns: "/n", networks: ["b", "cni-loopback"] }, undefined)),
    ).toEqual(["b:eth0", "cni-loopback:lo"]);
    // Errors still name the pod's own index.
    expect(() => planPod(s, { id: "p", netns: "/n", networks: ["b", "b"] }, undefined)).toThrow(
      expect.objectContaining({ argument: "pod.networks[1]" }),
    );
    // Without loopback, nothing is added.
    expect(
      names(planPod(await set(), { id: "p", netns: "/n", networks: ["b"] }, undefined)),
    ).toEqual(["b:eth0"]);
  });

  it("uses <prefix><n> with interfacePrefix, as go-cni", async () => {
    const s = await set();
    expect(names(planPod(s, { id: "p", netns: "/n" }, "eth"))).toEqual([
      "a:eth0",
      "b:eth1",
      "c:eth2",
    ]);
  });

  it("keeps explicit names and allocates around them", async () => {
    const s = await set();
    const plan = planPod(
      s,
      { id: "p", netns: "/n", networks: ["c", { name: "a", ifName: "eth0" }, "b"] },
      undefined,
    );
    expect(names(plan)).toEqual(["c:net1", "a:eth0", "b:net2"]);
  });

  it("rejects two equal explicit names, a network twice and an unknown network", async () => {
    const s = await set();
    expect(() =>
      planPod(
        s,
        {
          id: "p",
          netns: "/n",
          networks: [
            { name: "a", ifName: "x" },
            { name: "b", ifName: "x" },
          ],
        },
        undefined,
      ),
    ).toThrow(InterfaceNameError);
    expect(() => planPod(s, { id: "p", netns: "/n", networks: ["a", "a"] }, undefined)).toThrow(
      InterfaceNameError,
    );
    expect(() => planPod(s, { id: "p", netns: "/n", networks: ["zz"] }, undefined)).toThrow(
      NetworkNotFoundError,
    );
  });

  it("checks the whole pod before it allocates: the pod's own fault is named before the runtime's prefix", async () => {
    const s = await set();
    const pod = { id: "p", netns: "/n", networks: ["a", "zz"] };
    // Both wrong: an unknown second network, and a prefix too long for any interface name.
    expect(() => planPod(s, pod, "a-prefix-far-too-long")).toThrow(NetworkNotFoundError);
    expect(() => planPod(s, { ...pod, networks: ["a"] }, "a-prefix-far-too-long")).toThrow(
      expect.objectContaining({ argument: "interfacePrefix" }),
    );
  });

  it("refuses CNI_ARGS that are not pairs with a typed error, after the pod's ID", async () => {
    const s = await set();
    const bad = (p: object) => {
      try {
        planPod(s, { id: "p", netns: "/n", ...p }, undefined);
      } catch (error) {
        return error as InvalidArgumentError;
      }
      throw new Error("planned");
    };
    const nullArgs = bad({ args: null });
    expect(nullArgs).toBeInstanceOf(InvalidArgumentError);
    expect(nullArgs.argument).toBe("pod.args");
    const notAPair = bad({ networks: [{ name: "a", args: [["K", "v"], "K2=v2"] }] });
    expect(notAPair).toBeInstanceOf(InvalidArgumentError);
    expect(notAPair.argument).toBe("pod.networks[0].args[1]");
    expect(notAPair.message).toContain("must be a [key, value] pair of strings, got a string");
    // The ID is checked first, as the other faults are.
    expect(bad({ id: "", args: null }).argument).toBe("pod.id");
    // Values that are not strings, a short pair, and what a pod's netns and requests must be:
    // the caller's error before anything runs (they used to fail at the ADD, or as a TypeError).
    for (const [pod, argument] of [
      [{ args: { K8S_POD_UID: 1234 } }, "pod.args.K8S_POD_UID"],
      [{ args: [["A"]] }, "pod.args[0]"],
      [{ args: [["A", 1]] }, "pod.args[0]"],
      [{ netns: 5 }, "pod.netns"],
      [{ networks: "a" }, "pod.networks"],
      [{ networks: [null] }, "pod.networks[0].name"],
      [{ networks: [{ name: "a", ifName: null }] }, "pod.networks[0].ifName"],
      [{ networks: [{ name: "a", ifName: 5 }] }, "pod.networks[0].ifName"],
    ] as const) {
      const error = bad(pod);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect(error.argument).toBe(argument);
    }
  });

  it("builds each RuntimeConf: pod args then the network's, capabilities merged per field", async () => {
    const s = await set();
    const [a, b] = planPod(
      s,
      {
        id: "p1",
        netns: "/var/run/netns/p1",
        args: { K8S_POD_NAME: "web" },
        capabilities: { mac: "02:00:00:00:00:aa", cgroupPath: "/pod" },
        networks: [
          "a",
          { name: "b", args: [["IP", "10.0.0.9"]], capabilities: { mac: "02:00:00:00:00:bb" } },
        ],
      },
      undefined,
    );
    expect(a.rt).toEqual({
      containerID: "p1",
      netNS: "/var/run/netns/p1",
      ifName: "eth0",
      args: [["K8S_POD_NAME", "web"]],
      capabilityArgs: { mac: "02:00:00:00:00:aa", cgroupPath: "/pod" },
    });
    expect(b.rt.args).toEqual([
      ["K8S_POD_NAME", "web"],
      ["IP", "10.0.0.9"],
    ]);
    expect(b.rt.capabilityArgs).toEqual({ mac: "02:00:00:00:00:bb", cgroupPath: "/pod" });
  });
});

describe("compareIfNames: the attach order of cached attachments that tie on time", () => {
  it("orders lo, then by trailing number, then by name", () => {
    const list = ["net10", "net2", "eth0", "ext", "lo", "net1"];
    expect(list.sort(compareIfNames)).toEqual(["lo", "eth0", "net1", "net2", "net10", "ext"]);
  });
});
