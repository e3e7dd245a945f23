// Upstream api_test.go "Invoking a sleep plugin": every verb gives up when its signal fires
// (upstream: a 2 s context timeout), with upstream's message; plus GC and STATUS.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CNIConfig, type RuntimeConf } from "../../src/api/index.js";
import type { NetworkConfigList, PluginConfig } from "../../src/conf/index.js";
import { confList, failure, pluginConf, type Sandbox, sandbox, writeCacheFile } from "./helpers.js";

let box: Sandbox;
let cni: CNIConfig;
let netConfig: PluginConfig;
let list: NetworkConfigList;
const rt: RuntimeConf = {
  containerID: "some-container-id",
  netNS: "/some/netns/path",
  ifName: "some-eth0",
};
const pluginConfig = `{"type": "sleep", "name": "apitest", "some-key": "some-value", "cniVersion": "1.1.0", "capabilities": { "portMappings": true }}`;

beforeEach(() => {
  box = sandbox();
  cni = new CNIConfig({ path: [box.binDir], cacheDir: box.cacheDir });
  netConfig = pluginConf(pluginConfig);
  list = confList(`{"name": "some-list", "cniVersion": "1.1.0", "plugins": [${pluginConfig}]}`);
});
afterEach(() => box.cleanup());

const timeout = () => ({ signal: AbortSignal.timeout(300) });

const verbs: [string, () => Promise<unknown>][] = [
  ["addNetwork", () => cni.addNetwork(netConfig, rt, timeout())],
  ["delNetwork", () => cni.delNetwork(netConfig, rt, timeout())],
  ["checkNetwork", () => cni.checkNetwork(netConfig, rt, timeout())],
  ["getVersionInfo", () => cni.getVersionInfo("sleep", timeout())],
  ["validateNetwork", () => cni.validateNetwork(netConfig, timeout())],
  ["addNetworkList", () => cni.addNetworkList(list, rt, timeout())],
  ["delNetworkList", () => cni.delNetworkList(list, rt, timeout())],
  ["checkNetworkList", () => cni.checkNetworkList(list, rt, timeout())],
  ["validateNetworkList", () => cni.validateNetworkList(list, timeout())],
  ["gcNetworkList", () => cni.gcNetworkList(list, {}, timeout())],
  ["getStatusNetworkList", () => cni.getStatusNetworkList(list, timeout())],
];

describe("a plugin that never answers", () => {
  // The verbs' code loads on a process's first call; loaded here, the 300 ms go to the plugin.
  beforeAll(() => import("../../src/api/cni-engine.js"));

  for (const [verb, call] of verbs) {
    it(`${verb} returns the timeout error`, async () => {
      const started = Date.now();
      const error = await failure(call());
      expect(error.message).toContain("netplugin failed with no error message");
      // Stopped by the signal, not by the plugin's own 60 s.
      expect(Date.now() - started).toBeLessThan(10_000);
    });
  }

  it("an aborted ADD caches nothing; an aborted DEL keeps the record", async () => {
    await failure(cni.addNetworkList(list, rt, timeout()));
    expect(existsSync(join(box.cacheDir, "results"))).toBe(false);
    writeCacheFile(box, "some-list-some-container-id-some-eth0", '{"cniVersion":"1.1.0"}');
    await failure(cni.delNetworkList(list, rt, timeout()));
    expect(readdirSync(join(box.cacheDir, "results"))).toEqual([
      "some-list-some-container-id-some-eth0",
    ]);
  });

  it("an already aborted signal fails at once", async () => {
    const error = await failure(
      cni.addNetworkList(list, rt, { signal: AbortSignal.abort(new Error("too late")) }),
    );
    expect(error.message).toBe("too late");
  });
});
