/**
 * The benchmark's fixtures in a fresh work directory: a plugin directory holding the C noop,
 * conflists for chains of 1 and 5 plugins, a directory of 1,000 conflists, and a cache of
 * 10,000 attachment records in Go's cache format (the same bytes Go libcni writes).
 */
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** A plugin entry as a typical bridge + IPAM config has it, so the JSON work is realistic. */
function plugin(i) {
  return {
    type: "noop",
    bridge: `cni${i}`,
    isGateway: true,
    ipMasq: true,
    ipam: {
      type: "host-local",
      ranges: [[{ subnet: `10.${i}.0.0/16`, gateway: `10.${i}.0.1` }]],
      routes: [{ dst: "0.0.0.0/0" }],
    },
  };
}

const conflist = (name, cniVersion, n) =>
  `${JSON.stringify({ cniVersion, name, plugins: Array.from({ length: n }, (_, i) => plugin(i)) }, null, 2)}\n`;

/** Number of conflists in the loading benchmark and of records in the GC benchmark. */
export const CONF_COUNT = 1000;
export const GC_COUNT = 10000;
export const GC_PREFIX = "gc";

/** Creates every fixture under `work`; returns their paths. */
export async function makeFixtures(work, noopPath) {
  const pluginDir = join(work, "plugins");
  const confDir = join(work, "confs");
  const gcCache = join(work, "gc-cache");
  await mkdir(pluginDir, { recursive: true });
  await mkdir(confDir, { recursive: true });
  await mkdir(join(gcCache, "results"), { recursive: true, mode: 0o700 });
  await copyFile(noopPath, join(pluginDir, "noop"));
  await import("node:fs/promises").then((fs) => fs.chmod(join(pluginDir, "noop"), 0o755));

  const chain1 = join(work, "chain1.conflist");
  const chain5 = join(work, "chain5.conflist");
  const gcList = join(work, "gc.conflist");
  await writeFile(chain1, conflist("bench1", "1.0.0", 1));
  await writeFile(chain5, conflist("bench5", "1.0.0", 5));
  // GC reaches the plugins from 1.1.0 only; Go 1.1.2 parses a 1.1.0 list all the same.
  await writeFile(gcList, conflist("gcnet", "1.1.0", 1));

  const names = Array.from({ length: CONF_COUNT }, (_, i) => `net-${String(i).padStart(4, "0")}`);
  for (let i = 0; i < names.length; i += 100) {
    await Promise.all(
      names
        .slice(i, i + 100)
        .map((n, j) =>
          writeFile(join(confDir, `${n}.conflist`), conflist(n, "1.0.0", 1 + ((i + j) % 3))),
        ),
    );
  }

  const config = Buffer.from(conflist("gcnet", "1.1.0", 1)).toString("base64");
  const record = (cid) =>
    JSON.stringify({
      kind: "cniCacheV1",
      containerId: cid,
      config,
      ifName: "eth0",
      networkName: "gcnet",
      netns: `/var/run/netns/${cid}`,
      result: {
        cniVersion: "1.1.0",
        interfaces: [{ mac: "0a:58:0a:01:02:03", name: "eth0", sandbox: `/var/run/netns/${cid}` }],
        ips: [{ address: "10.1.2.3/24", gateway: "10.1.2.1", interface: 0 }],
        routes: [{ dst: "0.0.0.0/0" }],
      },
    });
  const recordFile = join(work, "record.json");
  await writeFile(recordFile, record("bench"));
  for (let i = 0; i < GC_COUNT; i += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, GC_COUNT - i) }, (_, j) => {
        const cid = `${GC_PREFIX}${i + j}`;
        return writeFile(join(gcCache, "results", `gcnet-${cid}-eth0`), record(cid), {
          mode: 0o600,
        });
      }),
    );
  }
  return {
    pluginDir,
    confDir,
    lastConf: names[names.length - 1],
    gcCache,
    chain1,
    chain5,
    gcList,
    recordFile,
  };
}
