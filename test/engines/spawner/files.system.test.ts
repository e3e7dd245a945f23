/**
 * The spawner helper's file channel (protocol 5), with the built binary (`npm run
 * build:native`): bulk reads (regular files only, O_NOFOLLOW, the size bound, what it does not
 * read left to the caller with the caller's own errors), the library's conf and record reads
 * through it, the fs fallback (`LIBCNI_LAUNCHER=direct`, a helper killed with reads in flight),
 * and none of it keeping the process alive. Missing binary: these fail, they never skip.
 */
import { execFile } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SpawnerLauncher } from "../../../src/engines/spawner/pool.js";
import { spawnerBinaryPath } from "../../../src/engines/start/select.js";
import { makeTempDir, removeTempDir } from "../../invoke/helpers.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const text = (b: Uint8Array | undefined): string | undefined =>
  b === undefined ? undefined : new TextDecoder().decode(b);

let dir: string;
let launcher: SpawnerLauncher;

beforeAll(async () => {
  dir = await makeTempDir("libcni-files-");
  launcher = new SpawnerLauncher({ binaryPath: spawnerBinaryPath() });
  await launcher.probe();
});
afterAll(async () => {
  launcher.stop();
  await removeTempDir(dir);
});

function channel() {
  const files = launcher.fileChannel();
  if (files === undefined) throw new Error("the helper has no file channel");
  return files;
}

describe("READ", () => {
  it("reads regular files whole and leaves everything else to the caller", async () => {
    const sub = join(dir, "r1");
    await mkdir(join(sub, "adir"), { recursive: true });
    await writeFile(join(sub, "a"), "alpha");
    await writeFile(join(sub, "empty"), "");
    await writeFile(join(sub, "big"), "x".repeat(100));
    await symlink(join(sub, "a"), join(sub, "link"));
    await run("mkfifo", [join(sub, "fifo")]);
    const names = ["a", "empty", "big", "link", "fifo", "adir", "missing", "../r1/a"];
    const got = await channel().read(sub, names, true, 50);
    expect(got.map(text)).toEqual([
      "alpha",
      "",
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    // Following symlinks (conf files), and a larger bound.
    const followed = await channel().read(sub, ["link", "big"], false, 1000);
    expect(followed.map(text)).toEqual(["alpha", "x".repeat(100)]);
  });

  it("a missing directory: every name left to the caller", async () => {
    const got = await channel().read(join(dir, "none"), ["a", "b"], false, 1000);
    expect(got).toHaveLength(2);
    expect(got.every((b) => b === undefined)).toBe(true);
  });

  it("reads 3,000 files in one request", async () => {
    const sub = join(dir, "many");
    await mkdir(sub);
    const names = Array.from({ length: 3000 }, (_, i) => `f${i}`);
    for (let i = 0; i < names.length; i += 500) {
      await Promise.all(
        names.slice(i, i + 500).map((n) => writeFile(join(sub, n), `${n}:${"z".repeat(300)}`)),
      );
    }
    const got = await channel().read(sub, names, true, 1 << 20);
    expect(got.map((b) => text(b)?.split(":")[0])).toEqual(names);
  });
});

describe("the library's readers through the helper", () => {
  const script = (body: string) => `
    import { readConfFile } from ${JSON.stringify(join(root, "build/conf/files.js"))};
    import { readCacheFile } from ${JSON.stringify(join(root, "build/cache/results.js"))};
    import { sharedSpawner } from ${JSON.stringify(join(root, "build/engines/start/select.js"))};
    ${body}
  `;
  const node = (body: string, env: Record<string, string> = {}) =>
    run(process.execPath, ["--input-type=module", "-e", script(body)], {
      env: {
        ...process.env,
        NODE_DEBUG: "libcni",
        LIBCNI_SPAWNER_BINARY: spawnerBinaryPath(),
        ...env,
      },
      timeout: 30_000,
    });

  it("reads through the helper, says so, and exits on its own", async () => {
    const sub = join(dir, "lib");
    await mkdir(sub);
    await writeFile(join(sub, "a.conflist"), "A");
    await writeFile(join(sub, "rec"), "R");
    const { stdout, stderr } = await node(`
      const d = (b) => new TextDecoder().decode(b);
      const [a, r] = await Promise.all([
        readConfFile(${JSON.stringify(join(sub, "a.conflist"))}),
        readCacheFile(${JSON.stringify(join(sub, "rec"))}),
      ]);
      console.log(d(a) + d(r));
    `);
    expect(stdout.trim()).toBe("AR");
    expect(stderr).toMatch(/file reads: spawner /);
  });

  it("a path through a symlink and `..` names the file the kernel finds (Go's os.ReadFile)", async () => {
    // link -> real/sub, so link/.. is real/, not the directory holding link (path.resolve's).
    const sub = join(dir, "dotdot");
    await mkdir(join(sub, "real/sub"), { recursive: true });
    await symlink(join(sub, "real/sub"), join(sub, "link"));
    await writeFile(join(sub, "real/net.conf"), "kernel");
    await writeFile(join(sub, "net.conf"), "lexical");
    for (const launcher of ["auto", "direct"]) {
      const { stdout } = await node(
        `const d = (b) => new TextDecoder().decode(b);
        const a = await readConfFile(${JSON.stringify(`${sub}/link/../net.conf`)});
        process.chdir(${JSON.stringify(sub)});
        console.log(d(a) + " " + d(await readConfFile("link/../net.conf")));`,
        { LIBCNI_LAUNCHER: launcher },
      );
      expect(stdout.trim()).toBe("kernel kernel");
    }
  });

  it("LIBCNI_LAUNCHER=direct keeps the reads fs calls", async () => {
    const sub = join(dir, "direct");
    await mkdir(sub);
    await writeFile(join(sub, "a.conf"), "D");
    const { stdout, stderr } = await node(
      `console.log(new TextDecoder().decode(await readConfFile(${JSON.stringify(join(sub, "a.conf"))})));`,
      { LIBCNI_LAUNCHER: "direct" },
    );
    expect(stdout.trim()).toBe("D");
    expect(stderr).toMatch(/file reads: fs calls \(LIBCNI_LAUNCHER=direct\)/);
  });

  it("what the helper does not read keeps its errors; a killed helper's reads are done here", async () => {
    const sub = join(dir, "killed");
    await mkdir(join(sub, "adir.conf"), { recursive: true });
    await run("mkfifo", [join(sub, "fifo.conf")]);
    for (let i = 0; i < 50; i++) await writeFile(join(sub, `r${i}`), `v${i}`);
    const { stdout } = await node(`
      const d = (b) => new TextDecoder().decode(b);
      const err = async (p) => readConfFile(p).then(() => "read", (e) => e.message);
      console.log(await err(${JSON.stringify(join(sub, "fifo.conf"))}));
      console.log(await err(${JSON.stringify(join(sub, "adir.conf"))}));
      await readCacheFile(${JSON.stringify(join(sub, "r0"))});
      const pending = Array.from({ length: 50 }, (_, i) => readCacheFile(${JSON.stringify(sub)} + "/r" + i));
      for (const h of sharedSpawner().helpers) h.kill();
      const got = await Promise.all(pending);
      console.log(got.map(d).join(","));
    `);
    const [fifo, adir, values] = stdout.trim().split("\n");
    expect(fifo).toBe(
      `error reading ${join(sub, "fifo.conf")}: ${join(sub, "fifo.conf")} is a FIFO, not a regular file`,
    );
    expect(adir).toBe(
      `error reading ${join(sub, "adir.conf")}: read ${join(sub, "adir.conf")}: is a directory`,
    );
    expect(values).toBe(Array.from({ length: 50 }, (_, i) => `v${i}`).join(","));
  });
});
