/**
 * A burst of calls started in one turn (Promise.all of many ADDs) does not build every plugin's
 * stdin in that turn: the steps go through the pacer (internal/pacer.ts), so the runtime's own
 * timers and I/O run between them. Outcomes and cache records are those of the unpaced path.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, type RuntimeConf } from "../../src/api/index.js";
import { paced } from "../../src/internal/pacer.js";
import { FakeExec } from "../../src/invoke/fake-exec.js";
import { confList, type Sandbox, sandbox } from "./helpers.js";

let box: Sandbox;
let exec: FakeExec;
let cni: CNIConfig;

// A realistic bridge + host-local entry, so that each stdin is some work to build.
const plugin = {
  type: "bridge",
  bridge: "cni0",
  isGateway: true,
  ipMasq: true,
  ipam: {
    type: "host-local",
    ranges: [[{ subnet: "10.22.0.0/16", gateway: "10.22.0.1" }]],
    routes: [{ dst: "0.0.0.0/0" }],
  },
};
const list = confList(JSON.stringify({ cniVersion: "1.1.0", name: "paced", plugins: [plugin] }));
const rt = (containerID: string): RuntimeConf => ({
  containerID,
  netNS: "/var/run/netns/x",
  ifName: "eth0",
});

beforeEach(() => {
  box = sandbox();
  exec = new FakeExec();
  exec.findInPathCall.returns = { path: "/fake/bridge" };
  exec.execPluginCall.handler = (call) => {
    const id = call.environ?.find((e) => e.startsWith("CNI_CONTAINERID="))?.slice(16) ?? "";
    const n = Number(id.slice(1));
    return JSON.stringify({
      cniVersion: "1.1.0",
      interfaces: [{ name: "eth0", mac: "0a:58:0a:16:00:02", sandbox: "/var/run/netns/x" }],
      ips: [{ interface: 0, address: `10.22.${n >> 8}.${n & 0xff}/16`, gateway: "10.22.0.1" }],
      routes: [{ dst: "0.0.0.0/0" }],
    });
  };
  cni = new CNIConfig({ path: ["/fake"], cacheDir: box.cacheDir, exec });
});
afterEach(() => box.cleanup());

describe("a burst of ADDs started in one turn", () => {
  it("leaves room for the caller's other callbacks, and every ADD completes as unpaced", async () => {
    const count = 400;
    let runsBeforeOther = -1;
    setImmediate(() => {
      runsBeforeOther = exec.calls.length;
    });
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) => cni.addNetworkList(list, rt(`c${i}`))),
    );
    // The immediate booked before the burst ran while plugin runs were still to come.
    expect(runsBeforeOther).toBeGreaterThanOrEqual(0);
    expect(runsBeforeOther).toBeLessThan(count);

    expect(exec.calls).toHaveLength(count);
    // Each plugin got its own container's stdin and answered for it.
    for (const [i, result] of results.entries()) {
      expect(JSON.parse(JSON.stringify(result)).ips[0].address).toBe(
        `10.22.${i >> 8}.${i & 0xff}/16`,
      );
    }
    const names = await readdir(join(box.cacheDir, "results"));
    expect(names).toHaveLength(count);
    const record = JSON.parse(
      await readFile(join(box.cacheDir, "results", "paced-c7-eth0"), "utf8"),
    );
    expect(record.containerId).toBe("c7");
    expect(record.result.ips[0].address).toBe("10.22.0.7/16");
  }, 60_000);
});

describe("a call started past the turn's budget", () => {
  it("does none of its work in the caller's turn: even its checks wait for a later one", async () => {
    // The engine loaded, then this turn's budget spent by a step of 2 ms.
    await cni.getVersionInfo("bridge").catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    let settledBeforeOther: boolean | undefined;
    let settled = false;
    setImmediate(() => {
      settledBeforeOther = settled;
    });
    void paced(() => {
      const t = performance.now();
      while (performance.now() - t < 2);
    });
    const bad = { ...list, name: "" };
    const call = cni.addNetworkList(bad, rt("c1")).finally(() => {
      settled = true;
    });
    await expect(call).rejects.toThrow();
    expect(settledBeforeOther).toBe(false);
  });
});
