/**
 * A plugin that succeeds and leaves a child in its process group holding none of its pipes:
 * the call returns the plugin's answer and the child runs on, as upstream's exec leaves it (the
 * library ends a run's group only on an abort or time limit, output past the cap, or a process
 * still holding the pipes after the grace: docs/reliability.md, "Process cleanup"). The
 * conformance checker's no-leftover-processes rule is what reports such a plugin. The direct
 * spawn here; the spawner helper and execInNetns in background-child.system.test.ts.
 */
import { describe, it } from "vitest";
import { RawExec } from "../../src/invoke/raw-exec.js";
import { backgroundChild, expectChildOutlivesCall } from "./background-child.js";
import { envWith } from "./helpers.js";

const stdin = new TextEncoder().encode('{"cniVersion":"1.1.0"}');

describe("a plugin's background child, after a successful call", () => {
  it("outlives the call with the direct spawn", async () => {
    const exec = new RawExec({ stderr: null, graceMs: 200, launcher: "direct" });
    await expectChildOutlivesCall(
      async (pidFile) =>
        new TextDecoder().decode(
          await exec.execPlugin(backgroundChild, stdin, envWith({ FIXTURE_PIDFILE: pidFile })),
        ),
      exec.graceMs,
    );
  });
});
