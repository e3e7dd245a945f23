/**
 * Conf files are read like cache records: regular files only, opened without blocking, at
 * most MAX_CONF_FILE_BYTES; symlinks to regular files still work. A FIFO, a device or an
 * oversized file is a ConfFileError naming the file, never a hang or a memory spike.
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_CONF_FILE_BYTES } from "../../src/conf/files.js";
import { ConfFileError, loadConf, loadConfList, networkConfFromFile } from "../../src/index.js";
import { loadNetworks } from "../../src/runtime/index.js";

const mkfifo = (path: string) => promisify(execFile)("mkfifo", [path]);
const list = (name: string) =>
  JSON.stringify({ cniVersion: "1.0.0", name, plugins: [{ type: "x" }] });

describe("conf files are read safely", () => {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "libcni-safe-read-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("a FIFO named like a conf file is refused at once, naming it", async () => {
    await mkfifo(join(dir, "10.conflist"));
    const error = await networkConfFromFile(join(dir, "10.conflist")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfFileError);
    expect(String(error)).toContain("10.conflist is a FIFO, not a regular file");
  });

  it("a symlink to /dev/zero is refused without a read", async () => {
    await symlink("/dev/zero", join(dir, "10.conf"));
    await expect(loadConf(dir, "x")).rejects.toThrow("is a device, not a regular file");
  });

  it("a file over the cap is refused; a symlink to a regular file is read", async () => {
    await writeFile(join(dir, "real.json"), list("net"));
    await symlink(join(dir, "real.json"), join(dir, "10-net.conflist"));
    expect((await loadConfList(dir, "net")).name).toBe("net");
    const big = join(dir, "20-big.conflist");
    await writeFile(big, "");
    await truncate(big, MAX_CONF_FILE_BYTES + 1);
    await expect(networkConfFromFile(big)).rejects.toThrow(
      `is larger than ${MAX_CONF_FILE_BYTES} bytes`,
    );
  });

  it("loadNetworks reports a FIFO, a device, a directory named x.conflist; the rest loads", async () => {
    await mkfifo(join(dir, "10.conflist"));
    await symlink("/dev/zero", join(dir, "20-zero.conflist"));
    await mkdir(join(dir, "30-dir.conflist"));
    await writeFile(join(dir, "40-ok.conflist"), list("ok"));
    const rt = await loadNetworks({ confDir: dir, cacheDir: join(dir, "cache") });
    expect(rt.networks.map((n) => n.name)).toEqual(["ok"]);
    const invalid = rt.problems.filter((p) => p.kind === "invalid");
    expect(invalid.map((p) => [p.file.slice(dir.length + 1), p.kind])).toEqual([
      ["30-dir.conflist", "invalid"],
      ["10.conflist", "invalid"],
      ["20-zero.conflist", "invalid"],
    ]);
    for (const p of invalid) expect(p.error).toBeInstanceOf(ConfFileError);
  });
});
