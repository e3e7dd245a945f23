/**
 * Discovery (section C) and the drop-in plugin directory: confFiles, networkConfFromFile,
 * networkPluginConfsFromFiles, including the two places this port does better than upstream:
 * the drop-in lookup only for path-safe network names, and errors that name the file.
 */
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foldName, isPathSafeName } from "../../src/conf/files.js";
import {
  confFiles,
  confListFromFile,
  loadNetworkConf,
  networkConfFromFile,
  networkPluginConfsFromFiles,
} from "../../src/conf/index.js";
import { ConfError, ConfFileError } from "../../src/errors/index.js";
import { bytesOf, textOf, thrown, useTempDir } from "./helpers.js";

describe("confFiles", () => {
  const dir = useTempDir();

  it("lists matching files by name, full paths, skipping directories and other extensions", async () => {
    await dir.write("b.conf", "{}");
    await dir.write("a.json", "{}");
    await dir.write("c.conflist", "{}");
    await dir.write("10.conf", "{}");
    await dir.write("9.conf", "{}");
    await dir.write("Z.conf", "{}");
    await dir.write("noext", "{}");
    await dir.write("x.CONF", "{}");
    await dir.write("y.conf.bak", "{}");
    await dir.write(".conf", "{}");
    await mkdir(join(dir.path, "d.conf"));
    const files = await confFiles(dir.path, [".conf", ".json"]);
    expect(files).toEqual(
      [".conf", "10.conf", "9.conf", "Z.conf", "a.json", "b.conf"].map((f) => join(dir.path, f)),
    );
  });

  it("orders names by UTF-8 bytes, as Go's ReadDir", async () => {
    await dir.write("\ue000.conf", "{}");
    await dir.write("😀.conf", "{}");
    await dir.write("é.conf", "{}");
    const files = await confFiles(dir.path, [".conf"]);
    expect(files).toEqual(["é.conf", "\ue000.conf", "😀.conf"].map((f) => join(dir.path, f)));
  });

  it("includes a symlink to a directory (not a directory entry, as in Go)", async () => {
    await mkdir(join(dir.path, "real"));
    await symlink(join(dir.path, "real"), join(dir.path, "link.conf"));
    expect(await confFiles(dir.path, [".conf"])).toEqual([join(dir.path, "link.conf")]);
  });

  it("lists a file once per matching extension, as upstream's nested loop (upstream #1179 not adopted)", async () => {
    await dir.write("a.conf", "{}");
    expect(await confFiles(dir.path, [".conf", ".conf"])).toEqual([
      join(dir.path, "a.conf"),
      join(dir.path, "a.conf"),
    ]);
  });

  it("takes undefined extensions as Go's nil: no file", async () => {
    await dir.write("a.conf", "{}");
    expect(await confFiles(dir.path, undefined as unknown as string[])).toEqual([]);
  });

  it("refuses one string of extensions, whose characters would be the extensions", async () => {
    await dir.write("c.", "{}");
    const one = ".conflist" as unknown as string[];
    await expect(confFiles(dir.path, one)).rejects.toThrow(
      "extensions must be an array, got a string",
    );
  });

  it("gives nothing for a missing directory", async () => {
    expect(await confFiles(join(dir.path, "missing"), [".conf"])).toEqual([]);
  });

  it("fails with Go's text when the path is not a directory", async () => {
    const file = await dir.write("file", "x");
    const err = await thrown(() => confFiles(file, [".conf"]));
    expect(err).toBeInstanceOf(ConfError);
    expect((err as Error).message).toBe(`readdirent ${file}: not a directory`);
    expect((err as Error).cause).toMatchObject({ code: "ENOTDIR" });
  });

  it("fails at Go's open for a path through a file, and for a NUL in the path", async () => {
    const file = await dir.write("file", "x");
    for (const path of [join(file, "sub"), `${file}/`]) {
      const err = await thrown(() => confFiles(path, [".conf"]));
      expect((err as Error).message).toBe(`open ${path}: not a directory`);
    }
    const nul = join(dir.path, "a\0b");
    expect(((await thrown(() => confFiles(nul, [".conf"]))) as Error).message).toBe(
      `open ${nul}: invalid argument`,
    );
    const read = await thrown(() => networkConfFromFile(nul));
    expect(read).toBeInstanceOf(ConfError);
    expect((read as Error).message).toBe(`error reading ${nul}: open ${nul}: invalid argument`);
  });
});

describe("networkConfFromFile and the drop-in directory", () => {
  const dir = useTempDir();
  const list = (name: string, plugins = `[{"type":"inline"}]`) =>
    `{"name":${JSON.stringify(name)},"cniVersion":"1.0.0","plugins":${plugins}}`;

  it("appends <dir>/<name>/*.conf sorted after the inline plugins, with their raw bytes", async () => {
    const file = await dir.write("10-net.conflist", list("net"));
    await dir.write("net/20-b.conf", `{ "type": "b" }`);
    await dir.write("net/10-a.conf", `{"type":"a",  "x": 1}`);
    await dir.write("net/30-c.json", `{"type":"not-loaded"}`);
    await dir.write("net/sub/40-d.conf", `{"type":"not-loaded"}`);
    const conf = await networkConfFromFile(file);
    expect(conf.plugins.map((p) => p.network.type)).toEqual(["inline", "a", "b"]);
    expect(conf.plugins.map((p) => textOf(p.bytes))).toEqual([
      `{"type":"inline"}`,
      `{"type":"a",  "x": 1}`,
      `{ "type": "b" }`,
    ]);
    expect(textOf(conf.bytes)).toBe(list("net"));
  });

  it("confListFromFile is networkConfFromFile", async () => {
    const file = await dir.write("10-net.conflist", list("net"));
    expect(await confListFromFile(file)).toEqual(await networkConfFromFile(file));
  });

  it("names the drop-in file that fails to parse", async () => {
    const file = await dir.write("10-net.conflist", list("net"));
    const bad = await dir.write("net/bad.conf", `{"name":"x"}`);
    const err = await thrown(() => networkConfFromFile(file));
    expect(err).toBeInstanceOf(ConfFileError);
    expect((err as ConfFileError).file).toBe(bad);
    expect((err as Error).message).toBe(
      `error parsing configuration: missing 'type' (file ${bad})`,
    );
    // Through loadNetworkConf the drop-in file stays the one named.
    const viaLoad = await thrown(() => loadNetworkConf(dir.path, "net"));
    expect((viaLoad as ConfFileError).file).toBe(bad);
  });

  it("fails when the drop-in path exists but is not a directory", async () => {
    const file = await dir.write("10-net.conflist", list("net"));
    const notDir = await dir.write("net", "not a directory");
    const err = await thrown(() => networkConfFromFile(file));
    expect((err as Error).message).toBe(
      `failed to read plugin config files in ${notDir}: readdirent ${notDir}: not a directory`,
    );
  });

  it("loadNetworkConf reads the drop-in directory only when the listing has its name", async () => {
    await dir.write("10-net.conflist", list("net"));
    // No entry `net`: no plugin from a drop-in directory, none needed (the list has one).
    expect((await loadNetworkConf(dir.path, "net")).plugins).toHaveLength(1);
    // An entry `net` of any kind is read as before: a file fails as networkConfFromFile does.
    const notDir = await dir.write("net", "not a directory");
    const err = await thrown(() => loadNetworkConf(dir.path, "net"));
    expect((err as Error).message).toBe(
      `failed to read plugin config files in ${notDir}: readdirent ${notDir}: not a directory (file ${join(dir.path, "10-net.conflist")})`,
    );
  });

  it("foldName matches what a case- or normalization-insensitive file system would", () => {
    expect(foldName("Net")).toBe(foldName("net"));
    expect(foldName("STRASSE")).toBe(foldName("straße"));
    expect(foldName("\u00e9")).toBe(foldName("e\u0301"));
    expect(foldName("net")).not.toBe(foldName("net2"));
  });

  it("fails with Go's text when a drop-in file cannot be read", async () => {
    const file = await dir.write("10-net.conflist", list("net"));
    await mkdir(join(dir.path, "net/dir.conf"), { recursive: true });
    await symlink(join(dir.path, "net/dir.conf"), join(dir.path, "net/link.conf"));
    const link = join(dir.path, "net/link.conf");
    const err = await thrown(() => networkConfFromFile(file));
    expect(err).toBeInstanceOf(ConfFileError);
    expect((err as Error).message).toBe(`error reading ${link}: read ${link}: is a directory`);
  });

  describe("a network name that is not path-safe never reaches the drop-in lookup", () => {
    it('"" does not load every .conf beside the list (upstream does)', async () => {
      const file = await dir.write("10-net.conflist", list(""));
      await dir.write("20-other.conf", `{"name":"other","type":"other"}`);
      const conf = await networkConfFromFile(file);
      expect(conf.plugins.map((p) => p.network.type)).toEqual(["inline"]);
    });

    it('"" without inline plugins has no plugins', async () => {
      const file = await dir.write("10-net.conflist", `{"name":""}`);
      await dir.write("20-other.conf", `{"name":"other","type":"other"}`);
      const err = await thrown(() => networkConfFromFile(file));
      expect((err as Error).message).toBe("no plugin configs found");
    });

    it('"../x" does not read a directory outside the configuration directory', async () => {
      const file = await dir.write("conf/10-net.conflist", list("../outside"));
      await dir.write("outside/evil.conf", `{"type":"evil"}`);
      const conf = await networkConfFromFile(file);
      expect(conf.plugins.map((p) => p.network.type)).toEqual(["inline"]);
    });

    it('"." and "a/b" are not drop-in directories either', async () => {
      const dot = await dir.write("10-dot.conflist", list("."));
      await dir.write("20-sibling.conf", `{"type":"sibling"}`);
      expect((await networkConfFromFile(dot)).plugins).toHaveLength(1);
      const nested = await dir.write("10-nested.conflist", list("a/b"));
      await dir.write("a/b/x.conf", `{"type":"nested"}`);
      expect((await networkConfFromFile(nested)).plugins).toHaveLength(1);
    });

    it("networkPluginConfsFromFiles refuses such a name outright", async () => {
      for (const name of ["", ".", "..", "../x", "a/b", "/etc", "a\0b"]) {
        const err = await thrown(() => networkPluginConfsFromFiles(dir.path, name));
        expect(err).toBeInstanceOf(ConfError);
        expect((err as Error).message).toMatch(/^network name ".*" cannot name a plugin directory/);
      }
    });

    it("isPathSafeName accepts any single path component", () => {
      for (const name of ["net", "a..b", ".hidden", "with space", "ünï", "a\\b"]) {
        expect(isPathSafeName(name)).toBe(true);
      }
      for (const name of ["", ".", "..", "a/b", "../x", "x/..", "/", "a\0"]) {
        expect(isPathSafeName(name)).toBe(false);
      }
    });
  });

  it("networkPluginConfsFromFiles gives nothing for a missing directory", async () => {
    expect(await networkPluginConfsFromFiles(dir.path, "missing")).toEqual([]);
  });

  it("networkPluginConfsFromFiles returns the plugins with their bytes", async () => {
    await dir.write("net/a.conf", `{"type":"a"}`);
    expect(await networkPluginConfsFromFiles(dir.path, "net")).toEqual([
      { network: { cniVersion: "", name: "", type: "a" }, bytes: bytesOf(`{"type":"a"}`) },
    ]);
  });
});
