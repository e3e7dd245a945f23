/**
 * FindInPath (upstream pkg/invoke/find_test.go), plus the regular-file and symlink rules.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  InvalidArgumentError,
  PluginLookupError,
  PluginNotFoundError,
} from "../../src/errors/index.js";
import { executableFileExtensions, findInPath, splitList } from "../../src/invoke/find.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

describe("findInPath", () => {
  let pluginDir: string;
  let anotherTempDir: string;
  let multiplePaths: string[];
  const pluginName = "a-cni-plugin";
  const plugin2NameWithExt = `a-plugin-with-extension${executableFileExtensions[0]}`;

  beforeEach(async () => {
    pluginDir = await makeTempDir("cni-find");
    anotherTempDir = await makeTempDir("nothing-here");
    await writeFile(join(pluginDir, pluginName), "");
    await writeFile(join(pluginDir, plugin2NameWithExt), "");
    multiplePaths = [anotherTempDir, pluginDir];
  });

  afterEach(async () => {
    await removeTempDir(pluginDir);
    await removeTempDir(anotherTempDir);
  });

  it("when multiple paths are provided, returns only the path to the plugin", async () => {
    expect(await findInPath(pluginName, multiplePaths)).toBe(join(pluginDir, pluginName));
  });

  it("given a name without its file extension, returns the path including its extension", async () => {
    const withoutExt = plugin2NameWithExt.split(".")[0];
    expect(await findInPath(withoutExt, multiplePaths)).toBe(join(pluginDir, plugin2NameWithExt));
  });

  it("returns an error noting no paths were provided", async () => {
    await expect(findInPath(pluginName, [])).rejects.toThrow(/^no paths provided$/);
    // Go's nil slice, as a JavaScript caller may pass it.
    const none = null as unknown as string[];
    await expect(findInPath(pluginName, none)).rejects.toThrow(/^no paths provided$/);
  });

  it("refuses one string of paths (an unsplit CNI_PATH), whose characters would be searched", async () => {
    // "c" is one of the characters of "/tmp/cni": a c/ in the current directory would be searched.
    const cwd = process.cwd();
    await mkdir(join(pluginDir, "c"));
    await writeFile(join(pluginDir, "c", pluginName), "");
    process.chdir(pluginDir);
    try {
      const one = "/tmp/cni" as unknown as string[];
      const e = await findInPath(pluginName, one).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect((e as Error).message).toBe("paths must be an array, got a string");
    } finally {
      process.chdir(cwd);
    }
  });

  it("returns an error noting the plugin name wasn't provided", async () => {
    await expect(findInPath("", multiplePaths)).rejects.toThrow(/^no plugin name provided$/);
  });

  it("returns an error noting the path when the plugin cannot be found", async () => {
    await expect(findInPath(pluginName, [anotherTempDir])).rejects.toThrow(
      new PluginNotFoundError(pluginName, [anotherTempDir]),
    );
    await expect(findInPath("x", ["/a", "/b"])).rejects.toThrow(
      new PluginNotFoundError("x", ["/a", "/b"]),
    );
  });

  it("rejects a plugin name containing a directory separator", async () => {
    const bogus = "../pluginname";
    await expect(findInPath(bogus, [anotherTempDir])).rejects.toThrow(
      new PluginLookupError(`invalid plugin name: ${bogus}`),
    );
    await expect(findInPath("/bin/sh", ["/"])).rejects.toThrow("invalid plugin name: /bin/sh");
  });

  it("quotes the name as Go's %q does", async () => {
    await expect(findInPath('we"ird\n', ["/nonexistent"])).rejects.toThrow(
      'failed to find plugin "we\\"ird\\n" in path [/nonexistent]',
    );
  });

  it("the first path holding the plugin wins", async () => {
    await writeFile(join(anotherTempDir, pluginName), "");
    expect(await findInPath(pluginName, multiplePaths)).toBe(join(anotherTempDir, pluginName));
  });

  it("skips a directory named like the plugin", async () => {
    await mkdir(join(anotherTempDir, pluginName));
    expect(await findInPath(pluginName, multiplePaths)).toBe(join(pluginDir, pluginName));
  });

  it("follows symlinks to regular files, and skips dangling ones", async () => {
    await symlink(join(pluginDir, pluginName), join(anotherTempDir, "linked"));
    expect(await findInPath("linked", [anotherTempDir])).toBe(join(anotherTempDir, "linked"));
    await symlink(join(pluginDir, "missing"), join(anotherTempDir, "dangling"));
    await expect(findInPath("dangling", [anotherTempDir])).rejects.toThrow(
      /^failed to find plugin "dangling"/,
    );
  });
});

describe("splitList", () => {
  it("splits as Go's filepath.SplitList: empty gives nothing, empty entries are kept", () => {
    expect(splitList("")).toEqual([]);
    expect(splitList("/a")).toEqual(["/a"]);
    expect(splitList("/a::/b")).toEqual(["/a", "", "/b"]);
  });
});
