/**
 * `cnitool rootless -- <command> [args...]`: `runRootless` of libcni/testing with cnitool's
 * stdio (docs/testing.md, "Without root"). Exit status: the command's, or 125 when the sandbox
 * cannot be made, as `env` and `timeout` tell their own failure from the command's.
 */
import { RootlessError } from "../errors/testing.js";
import { rootlessExitStatus, runRootless } from "../testing/rootless.js";
import type { CnitoolIO } from "./runtime-config.js";

/** Runs rootless; resolves to the exit status. */
export async function rootlessCommand(
  argv: readonly string[],
  io: Pick<CnitoolIO, "env" | "cwd" | "stderr" | "signal">,
): Promise<number> {
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
    return 125;
  }
}
