/**
 * libcni/runtime on Debian's real plugins (1.1.1), where go-cni's and ocicni's users are hurt
 * first: the README's quick start run as written (loopback and checkPod included), and a
 * dual-stack network of a 0.2.0 list (results without interface indices).
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadNetworks } from "../../src/runtime/index.js";
import { codeBlocks } from "../readme/readme-blocks.js";
import { addresses, linksOfKind } from "./harness/inspect.js";
import { prepareSuite, WorldTracker } from "./harness/suite.js";
import { noTraces, tracesOf } from "./harness/traces.js";
import type { E2EWorld } from "./harness/world.js";

const execFileP = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
const worlds = new WorldTracker();
beforeAll(prepareSuite);
afterEach(() => worlds.disposeAll());

const pods = "e2e-peers-pods";

function ipam(world: E2EWorld, ...subnets: string[]): object {
  return {
    type: "host-local",
    dataDir: world.ipamDir,
    ranges: subnets.map((subnet) => [{ subnet }]),
  };
}

/** The README's runtime block, its paths pointed at the world; what it printed, and its values. */
async function runReadmeBlock(
  world: E2EWorld,
  confDir: string,
  netns: string,
): Promise<{
  stdout: string;
  values: Record<string, unknown>;
}> {
  const readme = await readFile(join(repoRoot, "README.md"), "utf8");
  const block = codeBlocks(readme).find((b) => b.code.includes('from "libcni/runtime"'));
  if (block === undefined) throw new Error("README has no libcni/runtime block");
  const replace = (code: string, from: string, to: string): string => {
    if (!code.includes(from)) throw new Error(`README runtime block lost ${JSON.stringify(from)}`);
    return code.replaceAll(from, to);
  };
  let code = block.code;
  code = replace(
    code,
    'confDir: "/etc/cni/net.d",',
    `confDir: ${JSON.stringify(confDir)}, cacheDir: ${JSON.stringify(world.cacheDir)},`,
  );
  code = replace(code, 'binDirs: ["/opt/cni/bin"],', `binDirs: [${JSON.stringify(world.binDir)}],`);
  code = replace(code, '"/var/run/netns/c0ffee"', JSON.stringify(netns));
  code += `\nawait watcher.close();\nconsole.log("@@" + JSON.stringify({ ready, reason, result, checked, status }));\n`;
  // Inside the package, so that "libcni/runtime" resolves to this build (a self-reference).
  const file = join(repoRoot, "test/e2e", `.readme-run-${process.pid}.mjs`);
  await writeFile(file, code);
  try {
    const { stdout } = await execFileP(process.execPath, [file], {
      cwd: repoRoot,
      timeout: 90_000,
    });
    const last = stdout.split("\n").find((l) => l.startsWith("@@")) ?? "@@{}";
    return { stdout, values: JSON.parse(last.slice(2)) as Record<string, unknown> };
  } finally {
    await rm(file, { force: true });
  }
}

describe("libcni/runtime where its peers' users are hurt first", () => {
  it("the README quick start runs as written: loopback first, its CHECK skipped and said so, lo found up, nothing left", async () => {
    const world = await worlds.create("readme");
    const confDir = join(world.root, "net.d");
    await mkdir(confDir);
    // No portmap: its 1.1.1 CHECK fails whenever ip6tables works (containernetworking/plugins#819).
    await writeFile(
      join(confDir, "10-pods.conflist"),
      JSON.stringify({
        cniVersion: "1.0.0",
        name: pods,
        plugins: [
          { type: "bridge", bridge: "cni-rd0", isGateway: true, ipam: ipam(world, "10.95.0.0/24") },
          { type: "bandwidth", capabilities: { bandwidth: true } },
        ],
      }),
    );
    const ctr = await world.container();
    const { values } = await runReadmeBlock(world, confDir, ctr.netnsPath);
    expect(values.ready).toBe(true);
    expect(values.reason).toBeUndefined();
    const result = values.result as {
      attachments: unknown;
      interfaces: { name: string; sandbox?: string; ips: { address: string }[] }[];
    };
    expect(result.attachments).toEqual([
      { network: "cni-loopback", ifName: "lo" },
      { network: pods, ifName: "eth0" },
    ]);
    expect(values.checked).toEqual([
      {
        network: "cni-loopback",
        ifName: "lo",
        skipped: 'configuration version "0.3.1" does not support the CHECK command',
        // lo looked at in the pod's namespace instead (go-cni#124, issue 42).
        loopbackUp: true,
      },
      { network: pods, ifName: "eth0" },
    ]);
    const eth0 = result.interfaces.find((i) => i.name === "eth0" && i.sandbox === ctr.netnsPath);
    expect(eth0?.ips[0]?.address).toMatch(/^10\.95\.0\.\d+\/24$/);
    // podStatus rebuilt the same interfaces from the cache.
    const status = values.status as { interfaces: unknown; attachments: { netns: string }[] };
    expect(status.interfaces).toEqual(result.interfaces);
    expect(status.attachments.map((a) => a.netns)).toEqual([ctr.netnsPath, ctr.netnsPath]);
    expect(await tracesOf(world, pods, ["c0ffee"])).toEqual(noTraces);
    expect(await linksOfKind(world.hostNs, "ifb")).toEqual([]);
  });

  it("a dual-stack 0.2.0 list gives one pod interface holding both addresses", async () => {
    const world = await worlds.create("legacy");
    const confDir = join(world.root, "net.d");
    await mkdir(confDir);
    await writeFile(
      join(confDir, "10-legacy.conflist"),
      JSON.stringify({
        cniVersion: "0.2.0",
        name: pods,
        plugins: [
          {
            type: "bridge",
            bridge: "cni-lg0",
            isGateway: true,
            ipam: ipam(world, "10.96.0.0/24", "fd00:96::/64"),
          },
        ],
      }),
    );
    const rt = await loadNetworks({ confDir, binDirs: [world.binDir], cacheDir: world.cacheDir });
    const ctr = await world.container();
    const result = await rt.setupPod({ id: ctr.id, netns: ctr.netnsPath });
    const inPod = result.interfaces.filter((i) => i.sandbox === ctr.netnsPath);
    expect(inPod.map((i) => i.name)).toEqual(["eth0"]);
    const ips = inPod[0]?.ips.map((i) => i.address) ?? [];
    expect(ips).toHaveLength(2);
    expect(ips[0]).toMatch(/^10\.96\.0\.\d+\/24$/);
    expect(ips[1]).toMatch(/^fd00:96::[0-9a-f]+\/64$/);
    // What the summary says is what the pod has.
    expect((await addresses(ctr.ns, "eth0")).sort()).toEqual([...ips].sort());
    const status = await rt.podStatus(ctr.id);
    expect(status.interfaces).toEqual(result.interfaces);
    await rt.teardownPod(ctr.id);
    expect(await tracesOf(world, pods, [ctr.id])).toEqual(noTraces);
  });
});
