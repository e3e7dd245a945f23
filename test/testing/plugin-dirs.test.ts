// findPluginDirs and requirePlugins against temp dirs standing in for CNI_PATH and the
// distributions' dirs (no root, no plugins installed needed).
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../../src/errors/index.js";
import {
  findPluginDirs,
  MissingPluginsError,
  requirePlugins,
  wellKnownPluginDirs,
} from "../../src/testing/index.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "lcnitest-dirs-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function dirs(...names: string[]): Promise<string[]> {
  const paths = names.map((n) => join(root, n));
  for (const p of paths) await mkdir(p);
  return paths;
}

describe("findPluginDirs", () => {
  it("tries /opt/cni/bin, then Debian's and Fedora's dirs", () => {
    expect(wellKnownPluginDirs).toEqual(["/opt/cni/bin", "/usr/lib/cni", "/usr/libexec/cni"]);
  });

  it("returns CNI_PATH's dirs first, then the candidates, existing ones only, each once", async () => {
    const [a, b, opt, lib] = await dirs("a", "b", "opt", "lib");
    const missing = join(root, "missing");
    const found = await findPluginDirs({
      env: { CNI_PATH: `${b}:${missing}::${a}:${b}` },
      candidates: [opt, missing, a, lib],
    });
    expect(found).toEqual([b, a, opt, lib]);
  });

  it("skips a CNI_PATH entry that is a file, and is empty when nothing exists", async () => {
    const file = join(root, "file");
    await writeFile(file, "");
    expect(
      await findPluginDirs({ env: { CNI_PATH: file }, candidates: [join(root, "x")] }),
    ).toEqual([]);
  });

  it("reads this process's CNI_PATH by default", async () => {
    const [a] = await dirs("a");
    const saved = process.env.CNI_PATH;
    process.env.CNI_PATH = a;
    try {
      expect((await findPluginDirs())[0]).toBe(a);
    } finally {
      if (saved === undefined) delete process.env.CNI_PATH;
      else process.env.CNI_PATH = saved;
    }
  });
});

describe("requirePlugins", () => {
  it("returns the dirs when every plugin is executable in one of them", async () => {
    const [a, b] = await dirs("a", "b");
    for (const [dir, name] of [
      [a, "bridge"],
      [b, "host-local"],
    ] as const) {
      await writeFile(join(dir, name), "#!/bin/sh\n");
      await chmod(join(dir, name), 0o755);
    }
    const env = { CNI_PATH: `${a}:${b}` };
    expect(await requirePlugins(["bridge", "host-local"], { env, candidates: [] })).toEqual([a, b]);
  });

  it("fails naming the missing plugins, the dirs searched and what to install", async () => {
    const [a] = await dirs("a");
    await writeFile(join(a, "bridge"), "not executable");
    const error = await requirePlugins(["bridge", "portmap"], {
      env: { CNI_PATH: a },
      candidates: [],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPluginsError);
    const missing = error as MissingPluginsError;
    expect(missing.id).toBe("LIBCNI_ERR_MISSING_PLUGINS");
    expect(missing.plugins).toEqual(["bridge", "portmap"]);
    expect(missing.dirs).toEqual([a]);
    expect(missing.message).toContain(`CNI plugins not found: bridge, portmap (searched: ${a};`);
    expect(missing.message).toContain("containernetworking-plugins");
  });

  it("refuses one name (a string: its characters would be the plugins) and any non-list", async () => {
    // Executables named as the letters of "bridge": a string read as a list would pass.
    const [a] = await dirs("a");
    for (const letter of new Set("bridge")) {
      await writeFile(join(a, letter), "#!/bin/sh\n");
      await chmod(join(a, letter), 0o755);
    }
    const options = { env: { CNI_PATH: a }, candidates: [] };
    expect(await requirePlugins([..."bridge"], options)).toEqual([a]);
    for (const plugins of ["bridge", null, 5, { bridge: true }]) {
      const error = await requirePlugins(plugins as unknown as string[], options).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toBe("plugins");
      expect((error as Error).message).toMatch(
        /^plugins must be a list of plugin names, not one name, got (a string|null|a number|an object)$/,
      );
    }
  });
});
