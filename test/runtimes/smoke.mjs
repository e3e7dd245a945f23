// A smoke run of the built library under whatever runtime runs this file (Node, Deno, Bun):
// CNIConfig's ADD, CHECK and DEL with a fake plugin, then a pod's setup, CHECK and teardown
// through libcni/runtime. Prints one JSON line; NODE_DEBUG=libcni lines go to stderr.
// Usage: <runtime> [run -A] test/runtimes/smoke.mjs <temp dir>
import { chmod, mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CNIConfig, networkConfFromBytes } from "../../dist/index.js";
import { loadNetworks } from "../../dist/runtime/index.js";

const dir = process.argv[2];
if (!dir) throw new Error("usage: smoke.mjs <temp dir>");
const bin = join(dir, "bin");
const confDir = join(dir, "net.d");
const cacheDir = join(dir, "cache");
await mkdir(bin, { recursive: true });
await mkdir(confDir, { recursive: true });
const plugin = `#!/bin/sh
cat >/dev/null
case "$CNI_COMMAND" in
ADD) echo '{"cniVersion":"1.0.0","interfaces":[{"name":"'"$CNI_IFNAME"'","sandbox":"'"$CNI_NETNS"'"}],"ips":[{"address":"10.0.0.2/24","interface":0}]}' ;;
VERSION) echo '{"cniVersion":"1.1.0","supportedVersions":["1.0.0","1.1.0"]}' ;;
esac
`;
await writeFile(join(bin, "fake"), plugin);
await chmod(join(bin, "fake"), 0o755);
const text = '{"cniVersion":"1.0.0","name":"smoke","plugins":[{"type":"fake"}]}';
await writeFile(join(confDir, "10-smoke.conflist"), text);

const out = {};
const cni = new CNIConfig({ path: [bin], cacheDir });
const list = networkConfFromBytes(new TextEncoder().encode(text));
const rt = { containerID: "c1", netNS: "/var/run/netns/c1", ifName: "eth0" };
out.add = (await cni.addNetworkList(list, rt))?.ips?.[0]?.address?.ip !== undefined;
out.recordAfterAdd = (await readdir(join(cacheDir, "results"))).sort();
await cni.checkNetworkList(list, rt);
await cni.delNetworkList(list, rt);
out.recordsAfterDel = await readdir(join(cacheDir, "results"));

// The noop plugin never enters the pod's netns, which the smoke test does not make.
const runtime = await loadNetworks({ confDir, binDirs: [bin], cacheDir, checkNetns: false });
const pod = await runtime.setupPod({ id: "p1", netns: "/var/run/netns/p1" });
out.pod = pod.interfaces.map((i) => `${i.name} ${i.ips.map((ip) => ip.address).join(",")}`);
out.checked = (await runtime.checkPod("p1")).map((c) => c.network);
out.removed = (await runtime.teardownPod("p1")).map((c) => c.network);
out.status = (await runtime.status()).ready;
console.log(JSON.stringify(out));
