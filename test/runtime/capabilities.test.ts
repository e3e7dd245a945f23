import { mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { marshal } from "../../src/encoding/json.js";
import { CapabilityNames, encodeCapabilityArgs, loadNetworks } from "../../src/runtime/index.js";
import {
  createCommandLog,
  readCommandLog,
  stdinText,
  writeDebug,
} from "../fixtures/plugins/noop-debug.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const fixtures = join(import.meta.dirname, "../fixtures/plugins");

// go-cni's structs have no JSON tags: Go writes the field names as declared, in declaration
// order, zero values included, a nil slice as null; maps (runtimeConfig, aliases, annotations)
// with sorted keys. These are the bytes encoding/json gives for go-cni's
// WithCapabilityPortMap / WithCapabilityBandWidth / WithCapabilityDNS values.
const goPortMappings =
  '[{"HostPort":8080,"ContainerPort":80,"Protocol":"tcp","HostIP":""},{"HostPort":53,"ContainerPort":53,"Protocol":"udp","HostIP":"127.0.0.1"}]';
const goBandwidth =
  '{"IngressRate":1000000,"IngressBurst":2000000,"EgressRate":3000000,"EgressBurst":0}';
const goDNS = '{"Servers":["10.0.0.10"],"Searches":["svc.local"],"Options":null}';
const goIPRanges =
  '[[{"Subnet":"10.1.0.0/24","RangeStart":"","RangeEnd":"","Gateway":"10.1.0.1"}]]';

const caps = {
  portMappings: [
    { hostPort: 8080, containerPort: 80, protocol: "tcp" },
    { hostPort: 53, containerPort: 53, protocol: "udp", hostIP: "127.0.0.1" },
  ],
  bandwidth: { ingressRate: 1000000, ingressBurst: 2000000, egressRate: 3000000 },
  ipRanges: [[{ subnet: "10.1.0.0/24", gateway: "10.1.0.1" }]],
  dns: { servers: ["10.0.0.10"], searches: ["svc.local"] },
  aliases: { b: ["x"], a: ["y"] },
  mac: "c2:11:22:33:44:55",
  ips: ["10.1.0.7/24"],
  infinibandGUID: "c2:11:22:33:44:55:66:77",
  deviceID: "0000:00:1f.6",
  cgroupPath: "/kubepods/pod1",
  podAnnotations: { z: "1", "a<": "2" },
};

describe("capability args", () => {
  it("names every well-known capability of the conventions document", () => {
    expect(Object.values(CapabilityNames).sort()).toEqual(
      [
        "aliases",
        "bandwidth",
        "cgroupPath",
        "deviceID",
        "dns",
        "infinibandGUID",
        "io.kubernetes.cri.pod-annotations",
        "ips",
        "ipRanges",
        "mac",
        "portMappings",
      ].sort(),
    );
  });

  it("encodes go-cni's structs in Go field order, the rest as Go maps", () => {
    expect(marshal(encodeCapabilityArgs(caps))).toBe(
      `{"aliases":{"a":["y"],"b":["x"]},"bandwidth":${goBandwidth},"cgroupPath":"/kubepods/pod1","deviceID":"0000:00:1f.6","dns":${goDNS},"infinibandGUID":"c2:11:22:33:44:55:66:77","io.kubernetes.cri.pod-annotations":{"a\\u003c":"2","z":"1"},"ipRanges":${goIPRanges},"ips":["10.1.0.7/24"],"mac":"c2:11:22:33:44:55","portMappings":${goPortMappings}}`,
    );
  });

  it("ocicni style: the conventions' lowercase keys, ocicni's omitempty, bandwidth as a map", () => {
    const { portMappings, bandwidth, ipRanges, dns } = caps;
    expect(
      marshal(encodeCapabilityArgs({ portMappings, bandwidth, ipRanges, dns }, "ocicni")),
    ).toBe(
      '{"bandwidth":{"egressBurst":0,"egressRate":3000000,"ingressBurst":2000000,"ingressRate":1000000},' +
        '"dns":{"servers":["10.0.0.10"],"searches":["svc.local"]},' +
        '"ipRanges":[[{"subnet":"10.1.0.0/24","gateway":"10.1.0.1"}]],' +
        '"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp","hostIP":""},{"hostPort":53,"containerPort":53,"protocol":"udp","hostIP":"127.0.0.1"}]}',
    );
  });

  it("passes extra capabilities as given, and they win over a typed one of the same name", () => {
    const out = encodeCapabilityArgs({ mac: "a", extra: { mac: "b", custom: { k: 1 } } });
    expect(out).toEqual({ mac: "b", custom: { k: 1 } });
    expect(encodeCapabilityArgs(undefined)).toEqual({});
  });

  describe("on the plugin's stdin", () => {
    let d: Dirs;
    beforeEach(async () => {
      d = await dirs();
    });
    afterEach(() => d.cleanup());

    it("sends each plugin the capabilities it declares, byte for byte as go-cni", async () => {
      await writeNetwork(d.confDir, "10-a.conflist", "a", [
        { type: "bridge", capabilities: { ips: true, mac: true } },
        { type: "portmap", capabilities: { portMappings: true } },
        { type: "bandwidth", capabilities: { bandwidth: true, dns: true, ipRanges: true } },
      ]);
      const fake = new FakePlugins();
      const rt = await loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec });
      await rt.setupPod({ id: "p1", netns: "/run/netns/p1", capabilities: caps });
      const [bridge, portmap, bandwidth] = fake.calls.map((c) => c.stdin);
      expect(bridge).toBe(
        '{"capabilities":{"ips":true,"mac":true},"cniVersion":"1.0.0","name":"a","runtimeConfig":{"ips":["10.1.0.7/24"],"mac":"c2:11:22:33:44:55"},"type":"bridge"}',
      );
      expect(portmap).toContain(
        `"runtimeConfig":{"portMappings":${goPortMappings}},"type":"portmap"}`,
      );
      expect(bandwidth).toContain(
        `"runtimeConfig":{"bandwidth":${goBandwidth},"dns":${goDNS},"ipRanges":${goIPRanges}},"type":"bandwidth"}`,
      );
      // The cache record keeps the same bytes for the capability args (Go reads it back).
      const [record] = await readdir(join(d.cacheDir, "results"));
      const text = await readFile(join(d.cacheDir, "results", record), "utf8");
      expect(text).toContain(`"portMappings":${goPortMappings}`);
      expect(text).toContain(`"bandwidth":${goBandwidth}`);
    });

    it("gets the same bytes to a real plugin process (noop fixture)", async () => {
      const bin = join(d.base, "bin");
      await mkdir(bin);
      await symlink(join(fixtures, "noop.mjs"), join(bin, "noop"));
      const debug = join(d.base, "debug");
      const log = join(d.base, "log");
      await writeDebug(debug, { reportResult: '{"cniVersion":"1.0.0"}' });
      await createCommandLog(log);
      await writeNetwork(d.confDir, "10-a.conflist", "a", [
        { type: "noop", debugFile: debug, commandLog: log, capabilities: { portMappings: true } },
      ]);
      // The noop fixture never enters the pod's netns, which this test does not make.
      const rt = await loadNetworks({
        confDir: d.confDir,
        binDirs: [bin],
        cacheDir: d.cacheDir,
        checkNetns: false,
      });
      await rt.setupPod({ id: "p1", netns: "/run/netns/p1", capabilities: caps });
      const [add] = await readCommandLog(log);
      expect(add.command).toBe("ADD");
      expect(stdinText(add)).toContain(`"runtimeConfig":{"portMappings":${goPortMappings}}`);
      await rt.teardownPod("p1");
      const calls = await readCommandLog(log);
      expect(calls.map((c) => c.command)).toEqual(["ADD", "DEL"]);
    });

    for (const style of ["go-cni", "ocicni"] as const) {
      it(`DEL and CHECK from the cache send the capability bytes the ADD sent (${style})`, async () => {
        await writeNetwork(d.confDir, "10-a.conflist", "a", [
          { type: "portmap", capabilities: { portMappings: true } },
          { type: "bandwidth", capabilities: { bandwidth: true, dns: true, ipRanges: true } },
        ]);
        const fake = new FakePlugins();
        const rt = await loadNetworks({
          confDir: d.confDir,
          cacheDir: d.cacheDir,
          exec: fake.exec,
          capabilityStyle: style,
        });
        await rt.setupPod({ id: "p1", netns: "/run/netns/p1", capabilities: caps });
        await rt.checkPod("p1");
        await rt.teardownPod("p1");
        const runtimeConfig = (stdin: string) => /"runtimeConfig":(\{.*\}),"type"/.exec(stdin)?.[1];
        const sent = (command: string) =>
          fake.calls
            .filter((c) => c.command === command)
            .map((c) => [c.type, runtimeConfig(c.stdin)]);
        const added = sent("ADD");
        expect(added.map(([, rc]) => rc)).not.toContain(undefined);
        expect(sent("CHECK")).toEqual(added);
        expect(sent("DEL")).toEqual([...added].reverse());
      });
    }
  });
});
