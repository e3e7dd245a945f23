/**
 * The setup summary of results without interface indices (0.1.0/0.2.0 plugins, or a list with
 * no cniVersion): every address lands on the pod's interface of that network, one entry.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadNetworks } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

describe("setup summary", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
  });
  afterEach(() => d.cleanup());

  it("puts the IPv4 and IPv6 of a 0.2.0 result on one pod interface, with its sandbox", async () => {
    await writeNetwork(d.confDir, "10-legacy.conflist", "legacy", ["bridge"], "0.2.0");
    fake.exec.execPluginCall.handler = () =>
      JSON.stringify({
        cniVersion: "0.2.0",
        ip4: { ip: "10.1.0.5/24", gateway: "10.1.0.1" },
        ip6: { ip: "2001:db8::5/64", gateway: "2001:db8::1" },
        dns: {},
      });
    const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    const result = await rt.setupPod({ id: "p1", netns: "/run/netns/p1" });
    expect(result.interfaces).toEqual([
      {
        name: "eth0",
        network: "legacy",
        sandbox: "/run/netns/p1",
        ips: [
          { address: "10.1.0.5/24", gateway: "10.1.0.1" },
          { address: "2001:db8::5/64", gateway: "2001:db8::1" },
        ],
      },
    ]);
  });

  it("adds index-less IPs to the pod's interface the result lists, not a second entry", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["bridge"]);
    fake.exec.execPluginCall.handler = () =>
      JSON.stringify({
        cniVersion: "1.0.0",
        interfaces: [
          { name: "veth1", mac: "02:00:00:00:00:01" },
          { name: "eth0", mac: "02:00:00:00:00:02", sandbox: "/run/netns/p1" },
        ],
        ips: [{ address: "10.1.0.5/24" }, { address: "2001:db8::5/64" }],
      });
    const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
    const result = await rt.setupPod({ id: "p1", netns: "/run/netns/p1" });
    expect(result.interfaces.map((i) => [i.name, i.ips.map((ip) => ip.address)])).toEqual([
      ["veth1", []],
      ["eth0", ["10.1.0.5/24", "2001:db8::5/64"]],
    ]);
  });
});
