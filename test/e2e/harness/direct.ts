/**
 * Running a plugin directly, without the library: the CNI_* env and stdin by hand. The
 * harness's own tests use it so that a broken harness is told apart from a broken library.
 */
import { join } from "node:path";
import { run } from "./sh.js";
import type { E2EWorld } from "./world.js";

/** The attachment a direct call is for. */
export interface DirectAttachment {
  containerID: string;
  netnsPath: string;
  ifName: string;
}

/** A direct call's outcome: exit code and parsed stdout (a result or an error object). */
export interface DirectOutcome {
  exitCode: number;
  output: unknown;
  stderr: string;
}

/** Runs `plugin` of `world` (through its wrapper) with `command` and `conf` on stdin. */
export async function invokeDirect(
  world: E2EWorld,
  plugin: string,
  command: string,
  conf: unknown,
  attachment: DirectAttachment,
): Promise<DirectOutcome> {
  const { stdout, stderr, exitCode } = await run(join(world.binDir, plugin), [], {
    input: JSON.stringify(conf),
    check: false,
    env: {
      CNI_COMMAND: command,
      CNI_CONTAINERID: attachment.containerID,
      CNI_NETNS: attachment.netnsPath,
      CNI_IFNAME: attachment.ifName,
      CNI_ARGS: "",
      CNI_PATH: world.binDir,
    },
  });
  return { exitCode, output: stdout.trim() === "" ? undefined : JSON.parse(stdout), stderr };
}
