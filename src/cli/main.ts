#!/usr/bin/env node
/** The `cnitool` executable: runs the command line and exits with its status. */
import { runCnitool } from "./cnitool.js";
import { goWorkingDirectory } from "./runtime-config.js";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => controller.abort(new Error(`cnitool interrupted by ${signal}`)));
}

// Upstream ignores a failed print (`_ = result.Print()`): a stdout that takes no more (a full
// disk, a closed pipe) must not turn a finished ADD into a crash.
process.stdout.on("error", () => {});

process.exitCode = await runCnitool(process.argv.slice(2), {
  env: process.env,
  cwd: await goWorkingDirectory(process.env),
  stdout: process.stdout,
  stderr: process.stderr,
  signal: controller.signal,
});
