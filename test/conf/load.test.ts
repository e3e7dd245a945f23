/**
 * Upstream libcni/conf_test.go, "Loading configuration from disk": LoadConf, Capabilities,
 * ConfFromFile, NetworkPluginConfFromBytes, LoadNetworkConf (incl. loadOnlyInlinedPlugins and
 * the drop-in directory) and NetworkConfFromFile, scenario for scenario.
 */
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  confFromBytes,
  confFromFile,
  loadConf,
  loadConfList,
  loadNetworkConf,
  networkConfFromFile,
} from "../../src/conf/index.js";
import {
  ConfError,
  ConfFileError,
  NoConfigsFoundError,
  NotFoundError,
} from "../../src/errors/index.js";
import { bytesOf, golden, textOf, thrown, useTempDir } from "./helpers.js";

describe("LoadConf", () => {
  const dir = useTempDir();
  const pluginConfig = `{ "name": "some-plugin", "type": "foobar", "some-key": "some-value" }`;
  const setup = () => dir.write("50-whatever.conf", pluginConfig);

  it("finds the network config file for the plugin of the given type", async () => {
    await setup();
    const conf = await loadConf(dir.path, "some-plugin");
    expect(conf).toEqual({
      network: { cniVersion: "", name: "some-plugin", type: "foobar" },
      bytes: bytesOf(pluginConfig),
    });
  });

  it("returns a useful error when the config directory does not exist", async () => {
    await rm(dir.path, { recursive: true });
    const err = await thrown(() => loadConf(dir.path, "some-plugin"));
    expect(err).toBeInstanceOf(NoConfigsFoundError);
    expect((err as NoConfigsFoundError).dir).toBe(dir.path);
    expect((err as Error).message).toBe(`no net configurations found in ${dir.path}`);
  });

  it("finds a config file with the .json extension instead of .conf", async () => {
    const json = `{ "name": "some-plugin", "some-key": "some-value", "type": "foobar" }`;
    await dir.write("50-whatever.json", json);
    const conf = await loadConf(dir.path, "some-plugin");
    expect(conf).toEqual({
      network: { cniVersion: "", name: "some-plugin", type: "foobar" },
      bytes: bytesOf(json),
    });
  });

  it("returns a useful error when there is no config for the desired plugin", async () => {
    await setup();
    const err = await thrown(() => loadConf(dir.path, "some-other-plugin"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(
      `no net configuration with name "some-other-plugin" in ${dir.path}`,
    );
  });

  it("returns a useful error when a config file is malformed, naming the file", async () => {
    await setup();
    const bad = await dir.write("00-bad.conf", "{");
    const err = await thrown(() => loadConf(dir.path, "some-plugin"));
    // Upstream: exactly `error parsing configuration: unexpected end of JSON input`. That text
    // is kept as the message's prefix and as the cause; the file is added (a deviation).
    expect(err).toBeInstanceOf(ConfFileError);
    expect((err as ConfFileError).file).toBe(bad);
    expect((err as Error).message).toBe(
      `error parsing configuration: unexpected end of JSON input (file ${bad})`,
    );
    expect(((err as Error).cause as Error).message).toBe(
      "error parsing configuration: unexpected end of JSON input",
    );
  });

  it("will not find a config in a nested subdir", async () => {
    await setup();
    await dir.write("subdir1/subdir2/90-deep.conf", `{ "name": "deep", "some-key": "some-value" }`);
    const err = await thrown(() => loadConf(dir.path, "deep"));
    expect((err as Error).message).toMatch(/^no net configuration with name/);
  });
});

describe("Capabilities", () => {
  const dir = useTempDir();

  it("reads plugin capabilities from network config", async () => {
    await dir.write(
      "50-whatever.conf",
      `{ "name": "some-plugin", "type": "noop", "cniVersion": "0.3.1", "capabilities": { "portMappings": true, "somethingElse": true, "noCapability": false } }`,
    );
    const conf = await loadConf(dir.path, "some-plugin");
    expect(conf.network.capabilities).toEqual({
      portMappings: true,
      somethingElse: true,
      noCapability: false,
    });
    // Deterministic where Go's map iteration is random: the file's order.
    expect(Object.keys(conf.network.capabilities ?? {})).toEqual([
      "portMappings",
      "somethingElse",
      "noCapability",
    ]);
  });
});

describe("ConfFromFile", () => {
  const dir = useTempDir();

  it("returns a useful error when the file cannot be opened", async () => {
    const err = await thrown(() => confFromFile("/tmp/nope/not-here"));
    expect(err).toBeInstanceOf(ConfError);
    expect((err as Error).message).toBe(
      "error reading /tmp/nope/not-here: open /tmp/nope/not-here: no such file or directory",
    );
  });

  it("returns a useful error when the file is missing 'type'", async () => {
    const file = await dir.write(
      "50-whatever.conf",
      `{ "name": "some-plugin", "some-key": "some-value" }`,
    );
    const err = await thrown(() => confFromFile(file));
    expect((err as Error).message).toBe("error parsing configuration: missing 'type'");
  });
});

describe("NetworkPluginConfFromBytes", () => {
  it("returns a useful error when the config is missing 'type'", () => {
    expect(() => confFromBytes(`{ "name": "some-plugin", "some-key": "some-value" }`)).toThrow(
      new ConfError("error parsing configuration: missing 'type'"),
    );
  });
});

describe("LoadNetworkConf", () => {
  const dir = useTempDir();
  const writeList = async (text?: string): Promise<Uint8Array> => {
    const content = text ?? (await golden("50-whatever.conflist"));
    await dir.write("50-whatever.conflist", content);
    return typeof content === "string" ? bytesOf(content) : new Uint8Array(content);
  };
  const plugin = (type: string) => `{
    "name": "some-network",
    "cniVersion": "0.4.0",
    PLACEHOLDER
    "plugins": [ { "type": "${type}", "subnet": "10.0.0.1/24" } ]
  }`;
  const listWith = (extra: string) => plugin("host-local").replace("PLACEHOLDER", extra);
  const dropIn = `{
      "type": "bro-check-out-my-plugin",
      "subnet": "10.0.0.1/24"
  }`;

  it("a name past NAME_MAX fails as Go's readdir of its drop-in directory fails", async () => {
    // In no directory listing, yet not skipped as a name without a drop-in directory is.
    const name = "n".repeat(300);
    await dir.write("a.conflist", JSON.stringify({ name, plugins: [{ type: "t" }] }));
    await expect(loadNetworkConf(dir.path, name)).rejects.toThrow(
      `failed to read plugin config files in ${dir.path}/${name}: open ${dir.path}/${name}: file name too long`,
    );
  });

  it("finds the network config file, with the exact parsed structure", async () => {
    const listBytes = await writeList();
    const conf = await loadNetworkConf(dir.path, "some-network");
    const expected = JSON.parse((await golden("50-whatever.parsed.json")).toString()) as {
      plugins: { network: unknown; bytes: string }[];
    };
    expect(conf).toEqual({
      ...expected,
      plugins: expected.plugins.map((p) => ({ network: p.network, bytes: bytesOf(p.bytes) })),
      bytes: listBytes,
    });
    // The same, spelled out as upstream's test does.
    expect(conf).toEqual({
      name: "some-network",
      cniVersion: "0.2.0",
      disableCheck: true,
      disableGC: false,
      loadOnlyInlinedPlugins: false,
      plugins: [
        {
          network: { cniVersion: "", name: "", type: "host-local" },
          bytes: bytesOf(`{"subnet":"10.0.0.1/24","type":"host-local"}`),
        },
        {
          network: { cniVersion: "", name: "", type: "bridge" },
          bytes: bytesOf(`{"mtu":1400,"type":"bridge"}`),
        },
        {
          network: { cniVersion: "", name: "", type: "port-forwarding" },
          bytes: bytesOf(`{"ports":{"20.0.0.1:8080":"80"},"type":"port-forwarding"}`),
        },
      ],
      bytes: listBytes,
    });
    // A plain Uint8Array, not a Buffer, as every other bytes field.
    expect(conf.bytes.constructor).toBe(Uint8Array);
    expect(textOf(conf.bytes)).toBe((await golden("50-whatever.conflist")).toString());
  });

  describe("when there is a config file with the same name as the list", () => {
    const single = `{
      "name": "some-network",
      "cniVersion": "0.2.0",
      "type": "bridge"
    }`;

    it("loads the config list first", async () => {
      await writeList();
      await dir.write("49-whatever.conf", single);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.plugins).toHaveLength(3);
    });

    it("falls back to the config file", async () => {
      await dir.write("49-whatever.conf", single);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.plugins).toHaveLength(1);
      expect(conf.plugins[0].network.type).toBe("bridge");
      expect(conf.name).toBe("some-network");
      expect(conf.cniVersion).toBe("0.2.0");
      // Upconverted as Go marshals the map: keys sorted, the plugin's bytes re-marshalled.
      expect(textOf(conf.bytes)).toBe(
        `{"cniVersion":"0.2.0","name":"some-network","plugins":[{"cniVersion":"0.2.0","name":"some-network","type":"bridge"}]}`,
      );
    });
  });

  it("returns NoConfigsFoundError when the config directory does not exist", async () => {
    await rm(dir.path, { recursive: true });
    const err = await thrown(() => loadNetworkConf(dir.path, "some-network"));
    expect(err).toBeInstanceOf(NoConfigsFoundError);
    expect((err as Error).message).toBe(`no net configurations found in ${dir.path}`);
  });

  it("returns NotFoundError when there is no config for the desired network name", async () => {
    await writeList();
    const err = await thrown(() => loadNetworkConf(dir.path, "some-other-network"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err).toMatchObject({ dir: dir.path, networkName: "some-other-network" });
    expect((err as Error).message).toBe(
      `no net configuration with name "some-other-network" in ${dir.path}`,
    );
  });

  it("returns a useful error when a config file is malformed, naming the file", async () => {
    await writeList();
    const bad = await dir.write("00-bad.conflist", "{");
    const err = await thrown(() => loadNetworkConf(dir.path, "some-plugin"));
    expect(err).toBeInstanceOf(ConfFileError);
    expect((err as ConfFileError).file).toBe(bad);
    // Upstream's exact text, then the file.
    expect((err as Error).message).toBe(
      `error parsing configuration list: unexpected end of JSON input (file ${bad})`,
    );
    expect(((err as Error).cause as Error).message).toBe(
      "error parsing configuration list: unexpected end of JSON input",
    );
  });

  it("will not find a config in a nested subdir", async () => {
    await writeList();
    await dir.write(
      "subdir1/subdir2/90-deep.conflist",
      `{ "name": "deep", "cniVersion": "0.2.0", "plugins": [ { "type": "host-local" }, ] }`,
    );
    const err = await thrown(() => loadNetworkConf(dir.path, "deep"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toMatch(/^no net configuration with name/);
  });

  describe("when disableCheck is a string not a boolean", () => {
    it("will read a 'true' value and convert to boolean", async () => {
      await writeList(listWith(`"disableCheck": "true",`));
      expect((await loadNetworkConf(dir.path, "some-network")).disableCheck).toBe(true);
    });

    it("will read a 'false' value and convert to boolean", async () => {
      await writeList(listWith(`"disableCheck": "false",`));
      expect((await loadNetworkConf(dir.path, "some-network")).disableCheck).toBe(false);
    });

    it("will return an error on an unrecognized value", async () => {
      const file = join(dir.path, "50-whatever.conflist");
      await writeList(listWith(`"disableCheck": "adsfasdfasf",`));
      const err = await thrown(() => loadNetworkConf(dir.path, "some-network"));
      expect(((err as Error).cause as Error).message).toBe(
        `error parsing configuration list: invalid value "adsfasdfasf" for disableCheck`,
      );
      expect((err as Error).message).toBe(
        `error parsing configuration list: invalid value "adsfasdfasf" for disableCheck (file ${file})`,
      );
    });
  });

  describe("for loadOnlyInlinedPlugins", () => {
    it("the value will be parsed", async () => {
      await writeList(listWith(`"loadOnlyInlinedPlugins": true,`));
      await dir.write("some-network/funky-second-plugin.conf", dropIn);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.loadOnlyInlinedPlugins).toBe(true);
    });

    it("the value will be false if not in config", async () => {
      await writeList(listWith(""));
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.loadOnlyInlinedPlugins).toBe(false);
    });

    it("will return an error on an unrecognized value", async () => {
      await writeList(listWith(`"loadOnlyInlinedPlugins": "sphagnum",`));
      const err = await thrown(() => loadNetworkConf(dir.path, "some-network"));
      expect(((err as Error).cause as Error).message).toBe(
        `error parsing configuration list: invalid value "sphagnum" for loadOnlyInlinedPlugins`,
      );
    });

    it("will return an error if `plugins` is missing and `loadOnlyInlinedPlugins` is `true`", async () => {
      await writeList(
        `{ "name": "some-network", "cniVersion": "0.4.0", "loadOnlyInlinedPlugins": true }`,
      );
      const err = await thrown(() => loadNetworkConf(dir.path, "some-network"));
      expect(((err as Error).cause as Error).message).toBe(
        "error parsing configuration list: `loadOnlyInlinedPlugins` is true, and no 'plugins' key",
      );
    });

    it("will return no error if `plugins` is missing and `loadOnlyInlinedPlugins` is false", async () => {
      await writeList(
        `{ "name": "some-network", "cniVersion": "0.4.0", "loadOnlyInlinedPlugins": false }`,
      );
      await dir.write("some-network/funky-second-plugin.conf", dropIn);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.loadOnlyInlinedPlugins).toBe(false);
      expect(conf.plugins).toHaveLength(1);
      // A drop-in plugin keeps its file's bytes as they are, not re-marshalled.
      expect(conf.plugins[0]).toEqual({
        network: { cniVersion: "", name: "", type: "bro-check-out-my-plugin" },
        bytes: bytesOf(dropIn),
      });
    });

    it("will return error if implicitly false, no plugin inline and no plugins subfolder", async () => {
      const file = join(dir.path, "50-whatever.conflist");
      await writeList(`{ "name": "some-network", "cniVersion": "0.4.0" }`);
      const err = await thrown(() => loadNetworkConf(dir.path, "some-network"));
      expect(((err as Error).cause as Error).message).toBe("no plugin configs found");
      expect((err as Error).message).toBe(`no plugin configs found (file ${file})`);
    });

    it("will return NO error if implicitly false, one plugin inline, no plugins subfolder", async () => {
      await writeList(listWith(""));
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.plugins.map((p) => p.network.type)).toEqual(["host-local"]);
    });

    it("will return NO error if implicitly false, one plugin inline, empty plugins subfolder", async () => {
      await writeList(listWith(""));
      await dir.write("some-network/not-a-conf.json", dropIn);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.plugins.map((p) => p.network.type)).toEqual(["host-local"]);
    });

    it("will merge loaded and inlined plugin lists if `plugins` is set and `loadOnlyInlinedPlugins` is false", async () => {
      const listBytes = await writeList(listWith(""));
      await dir.write("some-network/funky-second-plugin.conf", dropIn);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.loadOnlyInlinedPlugins).toBe(false);
      expect(conf.plugins).toHaveLength(2);
      expect(conf.plugins.map((p) => p.network.type)).toEqual([
        "host-local",
        "bro-check-out-my-plugin",
      ]);
      // The list's bytes are its file's only: the drop-in plugin is not in them.
      expect(conf.bytes).toEqual(listBytes);
    });

    it("will ignore loaded plugins if `plugins` is set and `loadOnlyInlinedPlugins` is true", async () => {
      await writeList(listWith(`"loadOnlyInlinedPlugins": true,`));
      await dir.write("some-network/funky-second-plugin.conf", dropIn);
      const conf = await loadNetworkConf(dir.path, "some-network");
      expect(conf.loadOnlyInlinedPlugins).toBe(true);
      expect(conf.plugins).toHaveLength(1);
      expect(conf.plugins[0].network.type).toBe("host-local");
    });
  });

  it("takes the first list by file name when two have the same name", async () => {
    await dir.write("20-b.conflist", `{"name":"net","plugins":[{"type":"second"}]}`);
    await dir.write("10-a.conflist", `{"name":"net","plugins":[{"type":"first"}]}`);
    const conf = await loadNetworkConf(dir.path, "net");
    expect(conf.plugins[0].network.type).toBe("first");
  });

  it("aborts on a broken list even when it is another network's, as upstream", async () => {
    const bad = await dir.write("10-other.conflist", `{"name":"other","plugins":[]}`);
    await dir.write("20-net.conflist", `{"name":"net","plugins":[{"type":"t"}]}`);
    const err = await thrown(() => loadNetworkConf(dir.path, "net"));
    expect((err as ConfFileError).file).toBe(bad);
    expect((err as Error).message).toBe(
      `error parsing configuration list: no plugins in list (file ${bad})`,
    );
  });

  it("returns NotFoundError when neither lists nor single files name the network", async () => {
    await writeList();
    await dir.write("60-single.conf", `{"name":"single","type":"bridge"}`);
    const err = await thrown(() => loadNetworkConf(dir.path, "nope"));
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as Error).message).toBe(`no net configuration with name "nope" in ${dir.path}`);
  });

  it("returns NoConfigsFoundError for a directory with only unrelated files", async () => {
    await dir.write("README", "not a configuration");
    await dir.write("net.yaml", "name: net");
    const err = await thrown(() => loadNetworkConf(dir.path, "net"));
    expect(err).toBeInstanceOf(NoConfigsFoundError);
  });

  it("fails with Go's text when the directory cannot be listed", async () => {
    const file = await dir.write("not-a-dir", "x");
    const err = await thrown(() => loadNetworkConf(file, "net"));
    expect(err).toBeInstanceOf(ConfError);
    expect((err as Error).message).toBe(`readdirent ${file}: not a directory`);
  });

  it("loadConfList is loadNetworkConf", async () => {
    await writeList();
    expect(await loadConfList(dir.path, "some-network")).toEqual(
      await loadNetworkConf(dir.path, "some-network"),
    );
  });
});

describe("NetworkConfFromFile", () => {
  it("returns a useful error when the file cannot be opened", async () => {
    const err = await thrown(() => networkConfFromFile("/tmp/nope/not-here"));
    expect(err).toBeInstanceOf(ConfFileError);
    expect((err as Error).message).toBe(
      "error reading /tmp/nope/not-here: open /tmp/nope/not-here: no such file or directory",
    );
  });
});

describe("read-ahead keeps upstream's file order", () => {
  const dir = useTempDir();
  type Kind = "other" | "match" | "broken";
  const fileName = (i: number, ext: string) => `${String(i).padStart(3, "0")}-net${ext}`;
  const list = (name: string) =>
    `{"cniVersion":"1.0.0","name":"${name}","plugins":[{"type":"t${name}"}]}`;
  const single = (name: string) => `{"cniVersion":"1.0.0","name":"${name}","type":"t"}`;

  // Writes one file per kind, in name order.
  async function writeAll(kinds: readonly Kind[], ext: string): Promise<string[]> {
    const paths: string[] = [];
    for (const [i, kind] of kinds.entries()) {
      const name = kind === "match" ? "wanted" : `other${i}`;
      const body = ext === ".conflist" ? list(name) : single(name);
      paths.push(await dir.write(fileName(i, ext), kind === "broken" ? "{" : body));
    }
    return paths;
  }

  // What upstream's sequential loop decides: the index of the first match or first broken file.
  function decides(kinds: readonly Kind[]): number {
    return kinds.findIndex((k) => k !== "other");
  }

  it("returns an earlier match and never reports broken files after it (lists)", async () => {
    const kinds: Kind[] = Array.from({ length: 40 }, () => "other");
    kinds[3] = "match";
    kinds[4] = "broken";
    kinds[9] = "broken";
    kinds[30] = "broken";
    await writeAll(kinds, ".conflist");
    const conf = await loadNetworkConf(dir.path, "wanted");
    expect(conf.name).toBe("wanted");
    expect(textOf(conf.bytes)).toBe(list("wanted"));
  });

  it("reports the first broken file, not a later match nor a later broken file (lists)", async () => {
    const kinds: Kind[] = Array.from({ length: 40 }, () => "other");
    kinds[5] = "broken";
    kinds[6] = "broken";
    kinds[7] = "match";
    const paths = await writeAll(kinds, ".conflist");
    const err = await thrown(() => loadNetworkConf(dir.path, "wanted"));
    expect(err).toBeInstanceOf(ConfFileError);
    expect((err as ConfFileError).file).toBe(paths[5]);
  });

  it("same for single-plugin files (loadConf)", async () => {
    const kinds: Kind[] = Array.from({ length: 20 }, () => "other");
    kinds[2] = "match";
    kinds[3] = "broken";
    await writeAll(kinds, ".conf");
    expect((await loadConf(dir.path, "wanted")).network.name).toBe("wanted");
    await dir.write(fileName(1, ".conf"), "{");
    const err = await thrown(() => loadConf(dir.path, "wanted"));
    expect((err as ConfFileError).file).toBe(join(dir.path, fileName(1, ".conf")));
  });

  it("finds a match far past the read-ahead window, the first of two by file name", async () => {
    const kinds: Kind[] = Array.from({ length: 60 }, () => "other");
    kinds[45] = "match";
    kinds[47] = "match";
    kinds[50] = "broken";
    await writeAll(kinds, ".conflist");
    // Tell the two matches apart by their bytes.
    await dir.write(fileName(45, ".conflist"), `${list("wanted")} `);
    const conf = await loadNetworkConf(dir.path, "wanted");
    expect(textOf(conf.bytes)).toBe(`${list("wanted")} `);
  });

  it("decides as the sequential loop does for any mix of files (property)", async () => {
    const kind = fc.constantFrom<Kind>("other", "other", "other", "match", "broken");
    await fc.assert(
      fc.asyncProperty(fc.array(kind, { maxLength: 40 }), async (kinds) => {
        await rm(dir.path, { recursive: true, force: true });
        await mkdir(dir.path);
        const paths = await writeAll(kinds, ".conflist");
        const at = decides(kinds);
        const outcome = await loadNetworkConf(dir.path, "wanted").then(
          (conf) => ({ found: textOf(conf.bytes) }),
          (error: unknown) => ({ error }),
        );
        if (at >= 0 && kinds[at] === "match") {
          expect(outcome).toEqual({ found: list("wanted") });
        } else if (at >= 0) {
          expect("error" in outcome && (outcome.error as ConfFileError).file).toBe(paths[at]);
        } else {
          expect("error" in outcome && outcome.error).toBeInstanceOf(
            kinds.length === 0 ? NoConfigsFoundError : NotFoundError,
          );
        }
      }),
      { numRuns: 40 },
    );
  });
});
