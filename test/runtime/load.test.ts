import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DuplicateNetworkError, loadNetworks, NoNetworksError } from "../../src/runtime/index.js";
import { type Dirs, dirs, FakePlugins, writeNetwork } from "./helpers.js";

const fixtures = join(import.meta.dirname, "../fixtures/plugins");

describe("loadNetworks", () => {
  let d: Dirs;
  let fake: FakePlugins;
  beforeEach(async () => {
    d = await dirs();
    fake = new FakePlugins();
  });
  afterEach(() => d.cleanup());

  const load = (extra: object = {}) =>
    loadNetworks({ confDir: d.confDir, cacheDir: d.cacheDir, exec: fake.exec, ...extra });

  it("loads every network in file-name order, .conf and .json upconverted to lists", async () => {
    await writeNetwork(d.confDir, "20-b.conflist", "b");
    await writeFile(
      join(d.confDir, "10-a.conf"),
      '{"cniVersion":"1.0.0","name":"a","type":"fake"}',
    );
    await writeFile(
      join(d.confDir, "30-c.json"),
      '{"cniVersion":"1.0.0","name":"c","type":"fake"}',
    );
    await writeFile(join(d.confDir, "40-ignored.txt"), "{}");
    const rt = await load();
    expect(rt.networks.map((n) => n.name)).toEqual(["a", "b", "c"]);
    expect(rt.defaultNetwork?.name).toBe("a");
    expect(rt.networks[0].config.plugins[0].network.type).toBe("fake");
    expect(rt.networks[0].file).toBe(join(d.confDir, "10-a.conf"));
    expect(rt.problems).toEqual([]);
  });

  it("skips and reports a broken file and a duplicate name, keeping the rest", async () => {
    await writeFile(join(d.confDir, "10-broken.conflist"), "{not json");
    await writeNetwork(d.confDir, "20-a.conflist", "a");
    await writeNetwork(d.confDir, "30-a-again.conflist", "a");
    await writeFile(join(d.confDir, "40-notype.conf"), '{"cniVersion":"1.0.0","name":"x"}');
    const rt = await load();
    expect(rt.networks.map((n) => n.name)).toEqual(["a"]);
    expect(rt.problems.map((p) => [p.file.slice(d.confDir.length + 1), p.kind])).toEqual([
      ["10-broken.conflist", "invalid"],
      ["30-a-again.conflist", "invalid"],
      ["40-notype.conf", "invalid"],
    ]);
    expect(rt.problems[1].error).toBeInstanceOf(DuplicateNetworkError);
    expect(String((rt.problems[2].error as Error).message)).toContain("type");
  });

  it("is not ready, with every problem, when no file is usable", async () => {
    await writeFile(join(d.confDir, "10-broken.conflist"), "[]");
    const rt = await load();
    const error = rt.networkSet.notReady;
    expect(error).toBeInstanceOf(NoNetworksError);
    expect(error?.id).toBe("LIBCNI_ERR_NO_NETWORKS");
    expect(error?.problems).toHaveLength(1);
    expect(error?.message).toContain("10-broken.conflist");
    expect(rt.problems.map((p) => p.kind)).toEqual(["invalid"]);
  });

  it("is not ready for an empty conf dir, even with loopback; a missing one is named as such", async () => {
    const empty = await load({ loopback: true });
    expect(empty.networkSet.notReady?.reason).toBe(`no valid networks found in ${d.confDir}`);
    expect(empty.networks.map((n) => n.name)).toEqual(["cni-loopback"]);
    const missing = join(d.base, "missing");
    const rt = await load({ confDir: missing });
    expect(rt.networkSet.notReady?.reason).toBe(`conf dir ${missing} does not exist`);
    expect(rt.networks).toEqual([]);
  });

  it("is not ready, naming the dir, when the conf dir cannot be read", async () => {
    const file = join(d.base, "not-a-dir");
    await writeFile(file, "");
    const rt = await load({ confDir: file });
    expect(rt.networkSet.notReady?.reason).toMatch(/^conf dir .*not-a-dir cannot be read: /);
  });

  it("throws for bad options only", async () => {
    await expect(load({ maxNetworks: -1 })).rejects.toMatchObject({
      id: "LIBCNI_ERR_INVALID_ARGUMENT",
      argument: "maxNetworks",
    });
    await expect(load({ defaultNetwork: "" })).rejects.toMatchObject({
      argument: "defaultNetwork",
    });
    // Ignored, a look-alike would mean the default conf dir or cache, shared with other runtimes.
    const exec = fake.exec;
    await expect(
      loadNetworks({ confDir: d.confDir, exec, cachedir: "/c" } as never),
    ).rejects.toMatchObject({
      argument: "options.cacheDir",
      message: 'options has "cachedir": the field is spelled "cacheDir"',
    });
    await expect(loadNetworks({ ConfDir: d.confDir, exec } as never)).rejects.toMatchObject({
      argument: "options.confDir",
    });
  });

  it("keeps at most maxNetworks usable networks (broken files do not count)", async () => {
    await writeFile(join(d.confDir, "05-broken.conflist"), "{");
    for (const n of ["a", "b", "c"]) await writeNetwork(d.confDir, `10-${n}.conflist`, n);
    const rt = await load({ maxNetworks: 2 });
    expect(rt.networks.map((n) => n.name)).toEqual(["a", "b"]);
  });

  it("puts the named default network first, loopback before it", async () => {
    for (const n of ["a", "b", "c"]) await writeNetwork(d.confDir, `10-${n}.conflist`, n);
    const rt = await load({ defaultNetwork: "b", loopback: true });
    expect(rt.networks.map((n) => n.name)).toEqual(["cni-loopback", "b", "a", "c"]);
    expect(rt.defaultNetwork?.name).toBe("b");
    const lo = rt.networks[0];
    expect(lo.loopback).toBe(true);
    expect(lo.file).toBeUndefined();
    expect(lo.config.cniVersion).toBe("0.3.1");
    expect(lo.config.plugins.map((p) => p.network.type)).toEqual(["loopback"]);
  });

  it("with loopback, a file's network named like the runtime's loopback is skipped and said, not loaded twice", async () => {
    await writeNetwork(d.confDir, "05-lo.conflist", "cni-loopback");
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    const rt = await load({ loopback: true });
    expect(rt.networks.map((n) => n.name)).toEqual(["cni-loopback", "a"]);
    expect(rt.networks[0].loopback).toBe(true);
    expect(rt.problems).toHaveLength(1);
    expect(rt.problems[0].error).toBeInstanceOf(DuplicateNetworkError);
    expect(String(rt.problems[0].error)).toContain(
      `network "cni-loopback" is already defined by the runtime's loopback network (loopback)`,
    );
    // Without loopback, such a file is a network like any other.
    expect((await load()).networks.map((n) => n.name)).toEqual(["cni-loopback", "a"]);
  });

  it("is not ready while the default network is absent, the other networks loaded", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    const rt = await load({ defaultNetwork: "nope" });
    expect(rt.networks.map((n) => n.name)).toEqual(["a"]);
    expect(rt.defaultNetwork).toBeUndefined();
    expect(rt.networkSet.notReady?.reason).toBe(`default network "nope" not found in ${d.confDir}`);
  });

  it("reports a plugin missing from the plugin dirs, and keeps the network", async () => {
    const bin = join(d.base, "bin");
    await mkdir(bin);
    await symlink(join(fixtures, "noop.mjs"), join(bin, "noop"));
    await writeNetwork(d.confDir, "10-a.conflist", "a", ["noop", "absent-plugin"]);
    const rt = await loadNetworks({ confDir: d.confDir, binDirs: [bin], cacheDir: d.cacheDir });
    expect(rt.networks.map((n) => n.name)).toEqual(["a"]);
    expect(rt.problems).toHaveLength(1);
    expect(rt.problems[0]).toMatchObject({ network: "a", kind: "missing-plugin" });
    expect(String((rt.problems[0].error as Error).message)).toContain("absent-plugin");
  });

  it("loads drop-in plugins of a list from <confDir>/<name>/", async () => {
    await writeNetwork(d.confDir, "10-a.conflist", "a");
    await mkdir(join(d.confDir, "a"));
    await writeFile(join(d.confDir, "a", "50-extra.conf"), '{"type":"extra"}');
    const rt = await load();
    expect(rt.networks[0].config.plugins.map((p) => p.network.type)).toEqual(["fake", "extra"]);
  });
});
