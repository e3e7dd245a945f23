/**
 * A plugin's background child (in its group, holding none of its pipes) outlives a successful
 * call with the spawner helper and with execInNetns (both mechanisms), as with the direct spawn
 * (background-child.test.ts): the library kills nothing after a plugin exits. Needs root (a
 * namespace to enter) and the built helper (`npm run build:native`).
 */
import { describe, it } from "vitest";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { execInNetns } from "../../src/netns/index.js";
import { backgroundChild, expectChildOutlivesCall } from "./background-child.js";
import { envWith } from "./helpers.js";

const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0"}');

describe("a plugin's background child, after a successful call", () => {
  it("outlives the call with the spawner helper", async () => {
    const exec = new RawExec({ stderr: null, graceMs: 200, launcher: "spawner" });
    await expectChildOutlivesCall(
      async (pidFile) =>
        new TextDecoder().decode(
          await exec.execPlugin(backgroundChild, stdin, envWith({ FIXTURE_PIDFILE: pidFile })),
        ),
      exec.graceMs,
    );
  });

  it.each(["spawner", "direct"] as const)("outlives execInNetns (%s)", async (mechanism) => {
    await expectChildOutlivesCall(async (pidFile) => {
      const run = await execInNetns("/proc/self/ns/net", [backgroundChild], {
        env: { PATH: process.env.PATH, FIXTURE_PIDFILE: pidFile },
        mechanism,
      });
      return run.stdout;
    }, 3000);
  });
});
