/**
 * A relative plugin dir ("", ".", "sub/..", a trailing ":" in CNI_PATH) is taken from the
 * current directory, and what runs is exactly the file found there, never a same-named
 * executable on $PATH (upstream checks `./plugin` but hands `plugin` to exec, which searches
 * $PATH: issue 12).
 */
import { chmod, mkdir, realpath, writeFile } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findInPath, splitList } from "../../src/invoke/find.js";
import { RawExec } from "../../src/invoke/index.js";
import { makeTempDir, removeTempDir } from "./helpers.js";

const name = "hardening-rel-plugin";

async function script(dir: string, from: string): Promise<void> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\ncat >/dev/null\nprintf '{"from":"${from}"}'\n`);
  await chmod(path, 0o755);
}

describe("findInPath with relative dirs", () => {
  let cwd: string;
  let decoy: string;
  const savedCwd = process.cwd();
  const savedPath = process.env.PATH;

  beforeEach(async () => {
    cwd = await realpath(await makeTempDir("libcni-hardening-cwd-"));
    decoy = await makeTempDir("libcni-hardening-decoy-");
    await mkdir(join(cwd, "sub"));
    await script(cwd, "cwd");
    await script(decoy, "PATH");
    process.chdir(cwd);
    process.env.PATH = `${decoy}${delimiter}${savedPath ?? ""}`;
  });

  afterEach(async () => {
    process.chdir(savedCwd);
    process.env.PATH = savedPath;
    await removeTempDir(cwd);
    await removeTempDir(decoy);
  });

  const cases: [string, () => string[]][] = [
    ['"."', () => ["."]],
    ['""', () => [""]],
    ['"sub/.."', () => ["sub/.."]],
    ["a trailing ':' in CNI_PATH", () => splitList("/nonexistent-hardening:")],
  ];

  for (const [label, paths] of cases) {
    it(`${label}: the absolute path of the file found, and that file is what runs`, async () => {
      const found = await findInPath(name, paths());
      expect(isAbsolute(found)).toBe(true);
      expect(found).toBe(join(cwd, name));
      const exec = new RawExec({ stderr: null });
      const out = await exec.execPlugin(found, new Uint8Array(), [`PATH=${process.env.PATH}`]);
      expect(new TextDecoder().decode(out)).toBe('{"from":"cwd"}');
    });
  }

  it("a relative dir without the plugin still fails with upstream's message", async () => {
    await expect(findInPath("hardening-missing", ["."])).rejects.toThrow(
      'failed to find plugin "hardening-missing" in path [.]',
    );
  });
});
