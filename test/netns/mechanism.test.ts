/**
 * The netns mechanism in libcni/invoke's words ("auto", "spawner", "direct"), and any other
 * name refused, its names before them ("helper", "commands") included (no namespace needed:
 * the option is read before anything is done).
 */
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NetnsError } from "../../src/errors/index.js";
import type { LauncherName } from "../../src/invoke/index.js";
import {
  createNetns,
  execInNetns,
  type NetnsMechanism,
  removeNetns,
} from "../../src/netns/index.js";
import { mechanismOf } from "../../src/netns/mechanism.js";

// The names are libcni/invoke's LauncherName, no more and no fewer.
const sameNames: [NetnsMechanism, LauncherName] extends [LauncherName, NetnsMechanism]
  ? true
  : false = true;

describe("the netns mechanism", () => {
  it("takes libcni/invoke's launcher names", () => {
    expect(sameNames).toBe(true);
  });

  it.each([
    [undefined, "auto"],
    ["auto", "auto"],
    ["spawner", "spawner"],
    ["direct", "direct"],
  ] as const)("%s is libcni/invoke's %s", (mechanism, launcher) => {
    expect(mechanismOf(mechanism, "create network namespace", "/run/netns/x")).toBe(launcher);
  });

  it.each(["helper", "commands"])("refuses %s, a name it had before libcni/invoke's", (old) => {
    expect(() =>
      mechanismOf(old as NetnsMechanism, "create network namespace", "/run/netns/x"),
    ).toThrow(
      `create network namespace /run/netns/x: option mechanism must be "auto", "spawner" or "direct", got ${old}`,
    );
  });

  it("refuses any other name, in each call, before it does anything", async () => {
    const bad = "spawn" as NetnsMechanism;
    const calls: [string, Promise<unknown>][] = [
      [
        "create network namespace /run/netns/lcni-never",
        createNetns("lcni-never", { mechanism: bad }),
      ],
      [
        "remove network namespace /run/netns/lcni-never",
        removeNetns("lcni-never", { mechanism: bad }),
      ],
      [
        "exec in /run/netns/lcni-never",
        execInNetns("/run/netns/lcni-never", ["true"], { mechanism: bad }),
      ],
    ];
    for (const [what, call] of calls) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetnsError);
      expect((error as NetnsError).reason).toBe("failed");
      expect((error as Error).message).toBe(
        `${what}: option mechanism must be "auto", "spawner" or "direct", got spawn`,
      );
    }
    expect(() => mechanismOf({} as NetnsMechanism, "exec in", "/x")).toThrow(NetnsError);
  });
});

describe("the dir option", () => {
  it("refuses an empty dir: the current directory's empty files are no stale pins", async () => {
    const cwd = process.cwd();
    const here = await mkdtemp(join(tmpdir(), "lcni-netns-dir-"));
    await writeFile(join(here, "lcni-x"), "");
    process.chdir(here);
    try {
      for (const call of [removeNetns("lcni-x", { dir: "" }), createNetns("lcni-x", { dir: "" })]) {
        const error = await call.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetnsError);
        expect((error as Error).message).toContain('invalid network namespace directory ""');
      }
      expect(await readdir(here)).toEqual(["lcni-x"]);
    } finally {
      process.chdir(cwd);
      await rm(here, { recursive: true, force: true });
    }
  });
});
