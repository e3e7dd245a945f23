/**
 * `cnitool rootless -- <command> [args...]`: runs the command in a rootless sandbox of
 * libcni/testing (`runRootless`): root of a user namespace of its own, in network, mount and
 * pid namespaces of its own, with a private /run/netns, /var/lib/cni and TMPDIR, so a user who
 * is not root runs `cnitool conformance`, a test runner or a plugin by hand there as under
 * root, and nothing outside is touched. Its stdin, stdout and stderr are cnitool's. Exit
 * status: the command's (128 + n for one killed by signal n), or 125 when the sandbox cannot
 * be made (the kernel setting that refuses and its fix said on stderr), as `env` and `timeout`
 * tell their own failure from the command's. An addition of this port.
 */
import { RootlessError } from "../errors/testing.js";
import { rootlessExitStatus, runRootless } from "../testing/rootless.js";
import type { CnitoolEnv } from "./runtime-config.js";

/** What rootless reads and writes to. */
export interface RootlessIO {
  env: CnitoolEnv;
  cwd: string;
  stderr: { write(text: string): unknown };
  /** Aborting (SIGINT, SIGTERM to cnitool) sends SIGTERM to the command; 5s later the sandbox is killed. */
  signal?: AbortSignal;
}

/** The exit status of `rootless` when the sandbox cannot be made. */
export const sandboxFailedStatus = 125;

/** Runs rootless; resolves to the exit status. */
export async function rootlessCommand(argv: readonly string[], io: RootlessIO): Promise<number> {
  try {
    const result = await runRootless(argv, {
      env: io.env as NodeJS.ProcessEnv,
      cwd: io.cwd,
      signal: io.signal,
    });
    return rootlessExitStatus(result);
  } catch (error) {
    if (!(error instanceof RootlessError)) throw error;
    io.stderr.write(`Error: ${error.message}\n`);
    return sandboxFailedStatus;
  }
}
