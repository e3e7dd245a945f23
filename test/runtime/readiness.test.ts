/**
 * status() as a kubelet's NetworkReady: a plugin of the default network (or of the loopback)
 * missing, or not supporting the list's version, makes the runtime not ready with a reason that
 * names the file, the plugin and the plugin dirs, and STATUS is not run into such a plugin.
 * Every way of not being ready carries a `reason`. Real plugins (shell scripts logging each
 * command) run through the library's own exec.
 */
import { chmod, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PluginVersionError } from "../../src/errors/index.js";
import { PluginNotFoundError } from "../../src/invoke/index.js";
import { loadNetworks, type RuntimeOptions } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const all = ["0.3.0", "0.3.1", "0.4.0", "1.0.0", "1.1.0"];
const upTo100 = ["0.3.0", "0.3.1", "0.4.0", "1.0.0"];

describe("status(): readiness a kubelet can trust", () => {
  let d: Dirs;
  let bin: string;
  let log: string;
  beforeEach(async () => {
    d = await dirs();
    bin = join(d.base, "bin");
    log = join(d.base, "commands.log");
    await mkdir(bin);
    await writeFile(log, "");
  });
  afterEach(() => d.cleanup());

  /**
   * A plugin that logs `<type> <command>`, answers VERSION with `versions` (or fails it), and
   * fails STATUS as a 1.0.0 plugin does (it wants a container) unless it supports 1.1.0.
   */
  async function plugin(type: string, versions: string[] | "fail" = all): Promise<void> {
    const version =
      versions === "fail"
        ? `echo 'not a version answer'; exit 3`
        : `echo '${JSON.stringify({ cniVersion: versions.at(-1), supportedVersions: versions })}'`;
    const status =
      versions !== "fail" && versions.includes("1.1.0")
        ? "exit 0"
        : `echo '{"cniVersion":"1.0.0","code":4,"msg":"missing containerID"}'; exit 1`;
    const path = join(bin, type);
    await writeFile(
      path,
      `#!/bin/sh
cat > /dev/null
echo "${type} $CNI_COMMAND" >> ${JSON.stringify(log)}
case "$CNI_COMMAND" in
VERSION) ${version} ;;
STATUS) ${status} ;;
*) exit 0 ;;
esac
`,
    );
    await chmod(path, 0o755);
  }
  const commands = async () => (await readFile(log, "utf8")).split("\n").filter((l) => l !== "");
  const load = (extra: RuntimeOptions = {}) =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, binDirs: [bin], ...extra });

  it("is ready when every plugin is installed, supports the version and answers STATUS", async () => {
    await plugin("bridge");
    await plugin("portmap");
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge", "portmap"], "1.1.0");
    const report = await (await load()).status();
    expect(report).toEqual({
      ready: true,
      defaultReady: true,
      networks: [{ network: "pods", ready: true }],
    });
    expect((await commands()).sort()).toEqual([
      "bridge STATUS",
      "bridge VERSION",
      "portmap STATUS",
      "portmap VERSION",
    ]);
  });

  it("a plugin of the default network missing: not ready, the file, plugin and plugin dirs named, no STATUS run", async () => {
    await plugin("bridge");
    const file = await writeNetwork(
      d.confDir,
      "10-pods.conflist",
      "pods",
      ["bridge", "portmap"],
      "1.1.0",
    );
    const other = join(d.base, "other-bin");
    const rt = await load({ binDirs: [other, bin] });
    expect(rt.problems.map((p) => p.kind)).toEqual(["missing-plugin"]);
    const report = await rt.status();
    expect(report.ready).toBe(false);
    expect(report.defaultReady).toBe(false);
    expect(report.reason).toBe(
      `default network "pods" (${file}): plugin "portmap" is not installed (plugin dirs ${other}, ${bin}): failed to find plugin "portmap" in path [${other} ${bin}]`,
    );
    expect(report.networks[0].error).toBeInstanceOf(PluginNotFoundError);
    expect(await commands()).toEqual(["bridge VERSION"]);
    // Installed later: ready at the next status(), no reload needed.
    await plugin("portmap");
    expect(await rt.status()).toMatchObject({ ready: true, defaultReady: true });
  });

  it("an IPAM plugin of the default network missing: not ready, the IPAM plugin named", async () => {
    await plugin("bridge");
    const file = await writeNetwork(
      d.confDir,
      "10-pods.conflist",
      "pods",
      [{ type: "bridge", ipam: { type: "host-local" } }],
      "1.1.0",
    );
    const report = await (await load()).status();
    expect(report.ready).toBe(false);
    expect(report.reason).toBe(
      `default network "pods" (${file}): IPAM plugin "host-local" is not installed (plugin dirs ${bin}): failed to find plugin "host-local" in path [${bin}]`,
    );
    await plugin("host-local", upTo100);
    expect((await (await load()).status()).reason).toMatch(
      /IPAM plugin "host-local" \(.*\) does not support the network's cniVersion 1\.1\.0/,
    );
    expect(await commands()).not.toContain("bridge STATUS");
  });

  it("a 1.1.0 list over 1.0.0 plugins: not ready, the version named, STATUS never run into them", async () => {
    await plugin("bridge", upTo100);
    const file = await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"], "1.1.0");
    const report = await (await load()).status();
    expect(report.ready).toBe(false);
    expect(report.reason).toBe(
      `default network "pods" (${file}): plugin "bridge" (${join(bin, "bridge")}) does not support the network's cniVersion 1.1.0 (it supports 0.3.0, 0.3.1, 0.4.0, 1.0.0)`,
    );
    const error = report.networks[0].error as PluginVersionError;
    expect(error).toBeInstanceOf(PluginVersionError);
    expect(error.message).toBe('plugin bridge does not support config version "1.1.0"');
    expect(report.reason).not.toContain("missing containerID");
    expect(await commands()).toEqual(["bridge VERSION"]);
  });

  it("a plugin whose VERSION fails: not ready, said so", async () => {
    await plugin("bridge", "fail");
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"], "1.0.0");
    const report = await (await load()).status();
    expect(report.ready).toBe(false);
    expect(report.reason).toMatch(
      /^default network "pods" \(.*10-pods\.conflist\): plugin "bridge" \(.*\/bridge\) did not answer VERSION: /,
    );
    expect(await commands()).toEqual(["bridge VERSION"]);
  });

  it("below 1.1.0 the plugin check alone decides (no STATUS verb), as for a missing plugin", async () => {
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"], "0.4.0");
    const rt = await load();
    expect((await rt.status()).reason).toMatch(/plugin "bridge" is not installed/);
    await plugin("bridge", upTo100);
    expect((await rt.status()).ready).toBe(true);
    expect(await commands()).toEqual(["bridge VERSION"]);
  });

  it("a list without a cniVersion is 0.1.0 to its plugins: ready when they support that", async () => {
    await plugin("bridge", ["0.1.0", ...all]);
    const list = { name: "pods", plugins: [{ type: "bridge" }] };
    await writeFile(join(d.confDir, "10-pods.conflist"), JSON.stringify(list));
    const rt = await load();
    expect(await rt.status()).toMatchObject({ ready: true, defaultReady: true });
    await plugin("bridge");
    expect((await rt.status()).reason).toMatch(
      /plugin "bridge" \(.*\) does not support the network's cniVersion 0\.1\.0 \(it supports 0\.3\.0,/,
    );
  });

  it("the loopback's plugin missing: not ready, the loopback named", async () => {
    await plugin("bridge");
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"], "1.1.0");
    const report = await (await load({ loopback: true })).status();
    expect(report.ready).toBe(false);
    expect(report.defaultReady).toBe(true);
    expect(report.reason).toMatch(
      /^loopback network "cni-loopback": plugin "loopback" is not installed \(plugin dirs /,
    );
  });

  it("another network's plugin missing: that network not ready, the runtime ready until minReady says otherwise", async () => {
    await plugin("bridge");
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"], "1.1.0");
    await writeNetwork(d.confDir, "20-storage.conflist", "storage", ["macvlan"], "1.1.0");
    const rt = await load();
    const report = await rt.status();
    expect(report.ready).toBe(true);
    expect(report.reason).toBeUndefined();
    expect(report.networks.map((n) => [n.network, n.ready])).toEqual([
      ["pods", true],
      ["storage", false],
    ]);
    expect(report.networks[1].error).toBeInstanceOf(PluginNotFoundError);
    const two = await rt.status({ minReady: 2 });
    expect(two.ready).toBe(false);
    expect(two.reason).toBe(
      `1 of 2 networks ready, 2 needed (minReady): storage: failed to find plugin "macvlan" in path [${bin}]`,
    );
  });

  it("asks VERSION once per binary, again when the binary changes", async () => {
    await plugin("bridge");
    await writeNetwork(d.confDir, "10-pods.conflist", "pods", ["bridge"], "1.1.0");
    const rt = await load();
    await rt.status();
    await rt.status();
    expect(await commands()).toEqual(["bridge VERSION", "bridge STATUS", "bridge STATUS"]);
    await rm(join(bin, "bridge"));
    await plugin("bridge", upTo100);
    expect((await rt.status()).ready).toBe(false);
    expect((await commands()).at(-1)).toBe("bridge VERSION");
  });
});

describe("status(): a reason on every path that is not ready", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
  });
  afterEach(() => d.cleanup());

  const load = (extra: RuntimeOptions = {}) =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, ...extra });

  it.each([
    ["the conf dir missing", async () => load({ confDir: join(d.base, "none") }), {}],
    ["the conf dir empty", async () => load(), {}],
    [
      "every file broken",
      async () => {
        await writeFile(join(d.confDir, "10-bad.conflist"), "{");
        return load();
      },
      {},
    ],
    [
      "the default network not found",
      async () => {
        await writeNetwork(d.confDir, "10-a.conflist", "a");
        return load({ defaultNetwork: "pods" });
      },
      {},
    ],
    [
      "a plugin of the default network missing",
      async () => {
        await writeNetwork(d.confDir, "10-a.conflist", "a");
        const rt = await load();
        fake.exec.findInPathCall.returns.error = new PluginNotFoundError("fake", ["/x"]);
        return rt;
      },
      {},
    ],
    [
      "fewer networks ready than minReady",
      async () => {
        await writeNetwork(d.confDir, "10-a.conflist", "a", ["fake"], "1.1.0");
        fake.fail.set("a/STATUS", "not yet");
        return load();
      },
      { minReady: 1 },
    ],
    [
      "minReady above the number of networks",
      async () => {
        await writeNetwork(d.confDir, "10-a.conflist", "a");
        return load();
      },
      { minReady: 2 },
    ],
  ] as const)("%s", async (_name, make, options) => {
    const rt = await make();
    const report = await rt.status(options);
    expect(report.ready).toBe(false);
    expect(report.reason).toEqual(expect.any(String));
    expect(report.reason).not.toBe("");
  });
});
