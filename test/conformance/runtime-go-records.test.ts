/**
 * Records written by Go libcni's AddNetwork (a single plugin's configuration, what a Go
 * runtime on the same host writes when it attaches a `.conf` alone), served by libcni/runtime:
 * teardown, CHECK and GC run that plugin exactly as Go's DelNetwork and CheckNetwork would.
 * Go (Debian's libcni 1.1.2, the conformance driver) writes the record; then one copy of the
 * cache goes to Go's DelNetwork/CheckNetwork and one to the runtime, and the recorder plugin's
 * logs (stdin bytes, CNI_* environment) are compared byte for byte.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadNetworks } from "../../src/runtime/index.js";
import { buildDriver, driverPath, runJSONProgram } from "./harness/go-runner.js";
import { mapMember, v130Result } from "./harness/known-differences.js";
import { serializeTree, tryParseTree } from "./harness/ordered-json.js";
import { recorderScript } from "./harness/sandbox.js";

const conf = JSON.stringify({
  cniVersion: "1.0.0",
  name: "solo",
  type: "macvlan",
  master: "eth9",
  capabilities: { portMappings: true },
});
const addResult = JSON.stringify({
  cniVersion: "1.0.0",
  interfaces: [{ name: "net9", mac: "02:00:00:00:00:09", sandbox: "/run/netns/gopod" }],
  ips: [{ address: "10.1.0.5/24", gateway: "10.1.0.1", interface: 0 }],
});
const runtimeConf = {
  containerID: "gopod",
  netNS: "/run/netns/gopod",
  ifName: "net9",
  args: [["K8S_POD_NAME", "web"]],
  capabilityArgs: { portMappings: [{ hostPort: 8080, containerPort: 80, protocol: "tcp" }] },
};

interface Logged {
  name: string;
  stdin: string;
  env: string;
}

describe("records written by Go's AddNetwork, served by libcni/runtime", () => {
  let root = "";
  const bin = () => join(root, "bin");
  const rec = () => join(root, "rec");
  beforeAll(async () => {
    await buildDriver();
    root = await mkdtemp(join(tmpdir(), "libcni-go-records-"));
    await mkdir(bin());
    await mkdir(join(rec(), "script"), { recursive: true });
    await symlink(recorderScript, join(bin(), "macvlan"));
    await writeFile(join(rec(), "script", "macvlan.ADD.out"), addResult);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  function goDriver(
    cacheDir: string,
    ops: string[],
    netNS = runtimeConf.netNS,
  ): Promise<{ ops: { op: string; error?: unknown }[] }> {
    const rt = { ...runtimeConf, netNS };
    const input = { conf, pluginPaths: [bin()], cacheDir, runtimeConf: rt, ops, watchDirs: [] };
    return runJSONProgram(driverPath, [], input);
  }

  /**
   * Go's log as v1.3.0 would have written it: its prevResult without 1.1.2's empty `"dns":{}`
   * (`result-1x-sorted` in docs/deviations/conformance.md, the one known difference here).
   */
  const asV130 = (logged: Logged[]): Logged[] =>
    logged.map((l) => {
      const tree = tryParseTree(l.stdin);
      if (tree === undefined) return l;
      return { ...l, stdin: serializeTree(mapMember(tree, "prevResult", v130Result)) };
    });

  async function takeLog(): Promise<Logged[]> {
    const dir = join(rec(), "log");
    const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith(".stdin")).sort();
    const logged: Logged[] = [];
    for (const n of names) {
      const base = join(dir, n.slice(0, -".stdin".length));
      logged.push({
        name: n.slice(5, -".stdin".length),
        stdin: await readFile(`${base}.stdin`, "utf8"),
        env: await readFile(`${base}.env`, "utf8"),
      });
    }
    await rm(dir, { recursive: true, force: true });
    return logged;
  }

  /** A cache holding the record Go's AddNetwork wrote, and the record's bytes. */
  async function goWrittenCache(): Promise<{ cacheDir: string; record: string }> {
    const cacheDir = join(root, `cache-${Math.random().toString(36).slice(2)}`);
    const out = await goDriver(cacheDir, ["addNet"]);
    expect(out.ops[0]?.error).toBeUndefined();
    await takeLog();
    const record = await readFile(join(cacheDir, "results", "solo-gopod-net9"), "utf8");
    expect(JSON.parse(record)).toMatchObject({ kind: "cniCacheV1", networkName: "solo" });
    return { cacheDir, record };
  }

  async function copyOf(cacheDir: string): Promise<string> {
    const copy = `${cacheDir}-copy`;
    await cp(cacheDir, copy, { recursive: true });
    return copy;
  }

  const runtimeOver = async (cacheDir: string) =>
    loadNetworks({ confDir: join(root, "no-conf-dir"), binDirs: [bin()], cacheDir });

  it("teardown DELs the plugin with the bytes and environment Go's DelNetwork sends", async () => {
    const { cacheDir } = await goWrittenCache();
    const ours = await copyOf(cacheDir);
    await goDriver(cacheDir, ["delNet"]);
    const goLog = asV130(await takeLog());
    const rt = await runtimeOver(ours);
    // Go 1.1.2 keeps no netns in its record: the caller's is used (as ocicni's TearDownPod).
    expect(await rt.teardownPod({ id: "gopod", netns: runtimeConf.netNS })).toEqual([
      { network: "solo", ifName: "net9" },
    ]);
    const tsLog = await takeLog();
    expect(goLog.map((l) => l.name)).toEqual(["macvlan-DEL"]);
    expect(tsLog).toEqual(goLog);
    // The stdin carries the cached capability args and the cached result, as Go sent them.
    expect(JSON.parse(tsLog[0]?.stdin ?? "{}")).toMatchObject({
      runtimeConfig: { portMappings: [{ hostPort: 8080 }] },
      prevResult: { ips: [{ address: "10.1.0.5/24" }] },
    });
    expect(await readdir(join(ours, "results"))).toEqual([]);
    expect(await readdir(join(cacheDir, "results"))).toEqual([]);
  });

  it("CHECK runs the plugin as Go's CheckNetwork does, and the record is left as Go wrote it", async () => {
    const { cacheDir, record } = await goWrittenCache();
    const ours = await copyOf(cacheDir);
    await goDriver(cacheDir, ["checkNet"]);
    const goLog = asV130(await takeLog());
    const rt = await runtimeOver(ours);
    const pod = { id: "gopod", netns: runtimeConf.netNS };
    expect(await rt.checkPod(pod)).toEqual([{ network: "solo", ifName: "net9" }]);
    const tsLog = await takeLog();
    expect(goLog.map((l) => l.name)).toEqual(["macvlan-CHECK"]);
    expect(tsLog).toEqual(goLog);
    expect(await readFile(join(ours, "results", "solo-gopod-net9"), "utf8")).toBe(record);
    const status = await rt.podStatus(pod);
    expect(status.attachments.map((a) => [a.network, a.ifName, a.netns])).toEqual([
      ["solo", "net9", "/run/netns/gopod"],
    ]);
    expect(status.interfaces[0]?.ips).toEqual([{ address: "10.1.0.5/24", gateway: "10.1.0.1" }]);
  });

  it("GC of the stale pod DELs it as Go's DelNetwork does without a netns (the record has none)", async () => {
    const { cacheDir } = await goWrittenCache();
    const ours = await copyOf(cacheDir);
    await goDriver(cacheDir, ["delNet"], "");
    const goLog = asV130(await takeLog());
    const rt = await runtimeOver(ours);
    expect((await rt.gc([])).removed).toEqual([
      { podID: "gopod", network: "solo", ifName: "net9" },
    ]);
    expect(await takeLog()).toEqual(goLog);
  });
});
