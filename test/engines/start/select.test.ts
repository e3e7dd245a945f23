/**
 * Choosing the launcher, and the fallback when the spawner binary is missing or unrunnable.
 * Needs no built helper: each case points a launcher at a binary made here.
 */
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SpawnerLauncher } from "../../../src/engines/spawner/pool.js";
import { directLauncher } from "../../../src/engines/start/direct.js";
import { AutoLauncher, spawnerBinaryPath } from "../../../src/engines/start/select.js";
import {
  InvalidArgumentError,
  LibcniError,
  PluginExecError,
  SpawnerUnavailableError,
} from "../../../src/errors/index.js";
import { RawExec } from "../../../src/invoke/raw-exec.js";
import { makeTempDir, rejection, removeTempDir } from "../../invoke/helpers.js";

const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0"}');
const text = (b: Uint8Array): string => new TextDecoder().decode(b);

let dir: string;
const launchers: SpawnerLauncher[] = [];

/** A spawner launcher for a binary with these contents and mode. */
async function spawnerAt(name: string, contents: string | undefined, mode = 0o755) {
  const binaryPath = join(dir, name);
  if (contents !== undefined) {
    await writeFile(binaryPath, contents);
    await chmod(binaryPath, mode);
  }
  const launcher = new SpawnerLauncher({ binaryPath });
  launchers.push(launcher);
  return launcher;
}

const unrunnable: [string, string | undefined, number?][] = [
  ["missing", undefined],
  ["not-executable", "#!/bin/sh\nexit 0\n", 0o644],
  ["exits-at-once", "#!/bin/sh\nexit 3\n"],
  ["prints-garbage", "#!/bin/sh\necho 'this is not the spawner protocol'\nexec sleep 30\n"],
  [
    "wrong-protocol",
    `#!${process.execPath}\nprocess.stdout.write(Buffer.from([9,0,0,0, 0, 7,0,0,0, 1,0,0,0]));\nsetTimeout(() => {}, 30000);\n`,
  ],
];

beforeAll(async () => {
  dir = await makeTempDir("libcni-spawner-select-");
});
afterEach(() => {
  for (const launcher of launchers.splice(0)) launcher.stop();
});
afterAll(async () => {
  await removeTempDir(dir);
});

describe("launcher option", () => {
  it("selects the direct spawn by name, and takes a Launcher object as is", () => {
    expect(new RawExec({ launcher: "direct" }).launcher).toBe(directLauncher);
    const own = new SpawnerLauncher({ binaryPath: "/nowhere" });
    expect(new RawExec({ launcher: own }).launcher).toBe(own);
    expect(new RawExec({ launcher: "spawner" }).launcher.name).toBe("spawner");
    expect(new RawExec({ launcher: "auto" }).launcher.name).toMatch(/^(auto|spawner|direct)$/);
  });

  it("refuses an unknown launcher name at construction", () => {
    expect(() => new RawExec({ launcher: "fork" as "direct" })).toThrow(InvalidArgumentError);
  });

  it("defaults to LIBCNI_LAUNCHER when the option is not given", () => {
    const saved = process.env.LIBCNI_LAUNCHER;
    try {
      process.env.LIBCNI_LAUNCHER = "spawner";
      expect(new RawExec().launcher.name).toBe("spawner");
      process.env.LIBCNI_LAUNCHER = "direct";
      expect(new RawExec().launcher).toBe(directLauncher);
      // The option wins over the environment.
      expect(new RawExec({ launcher: "spawner" }).launcher.name).toBe("spawner");
    } finally {
      process.env.LIBCNI_LAUNCHER = saved;
    }
  });

  it("looks for the binary under dist/native/<platform>-<arch>/", () => {
    expect(spawnerBinaryPath("linux", "arm64")).toMatch(
      /dist\/native\/linux-arm64\/libcni-spawner$/,
    );
  });
});

describe.each(unrunnable)("spawner binary %s", (name, contents, mode) => {
  it('"auto" runs the plugin with the direct spawn and says why', async () => {
    const spawner = await spawnerAt(name, contents, mode);
    const auto = new AutoLauncher(() => spawner);
    const exec = new RawExec({ stderr: null, launcher: auto });
    const out = await exec.execPlugin("/bin/cat", stdin, ["A=1"]);
    expect(text(out)).toBe(text(stdin));
    expect(auto.name).toBe("direct");
    expect(auto.reason).toContain("direct spawn");
    expect(auto.reason).toContain(spawner.binaryPath);
    // Decided once: later runs go straight to the direct spawn.
    expect(text(await exec.execPlugin("/bin/cat", stdin, []))).toBe(text(stdin));
  });

  it('"spawner" fails the run with a typed cause, the helper left unrunnable', async () => {
    const spawner = await spawnerAt(`${name}-forced`, contents, mode);
    const exec = new RawExec({ stderr: null, launcher: spawner });
    const error = await rejection(exec.execPlugin("/bin/cat", stdin, []));
    expect(error).toBeInstanceOf(PluginExecError);
    expect(error.message).toContain("fork/exec /bin/cat: ");
    const cause = (error as PluginExecError).cause;
    expect(cause).toBeInstanceOf(SpawnerUnavailableError);
    expect(cause).toBeInstanceOf(LibcniError);
    expect((cause as SpawnerUnavailableError).id).toBe("LIBCNI_ERR_SPAWNER_UNAVAILABLE");
    expect((cause as Error).message).toContain(spawner.binaryPath);
    // A later run tries again (a binary put in place since works then), and fails the same.
    const again = await rejection(exec.execPlugin("/bin/cat", stdin, []));
    expect((again as PluginExecError).cause).toBeInstanceOf(SpawnerUnavailableError);
  });
});
